/**
 * The one catalogue of event kinds: a row per kind of MinerEvent, with everything rigtop does by kind. The unions
 * (EventKind, AlertKind, the alerts' troubles) are derived from it, the alerts (alerts/select.ts, alertForEvent) and
 * the history (history/writer.ts: which events of another rigtop are the same happening, and what ends one) read it,
 * and so do the exporter's log, the event lines and the proxy's grouped lines. A kind's detector (monitor/events.ts,
 * proxy-events.ts, sensor-events.ts, link.ts; an action's sender) makes the event; nothing else names kinds by list.
 *
 * Adding a paired alert (a trouble and its all-clear) is two rows and the detector that makes them:
 *
 *     'fan-stopped': {severity: 'warn', begins: 'fan-stopped', alert: {}, stored: 'state'},
 *     'fan-running': {severity: 'info', ends: ['fan-stopped'], alert: {}, stored: 'state'},
 *
 * The first alerts and opens the trouble; the second alerts only while it is open, and closes it; in the history each
 * ends the other (a second "fan stopped" after a "fan running" is another happening, not another rigtop's copy).
 */

/** How bad an event is: 'info' for news and all-clears, 'warn' or 'error' for trouble. */
export type Severity = 'info' | 'warn' | 'error';

/** What one kind of event is and does. */
export type KindRow = {
	/** The severity its detector gives it (an alert of it has the same); null where the detector decides (an action's). */
	readonly severity: Severity | null;
	/**
	 * The trouble (a state of the rig) it begins. Its pair is the kinds that end it (`ends`). A kind that alerts opens
	 * it in the alerts: per worker for a proxy's worker's event (alerts/select.ts, troubleKey).
	 */
	readonly begins?: string;
	/** The troubles it ends: an all-clear, alerted only while one of them is open (alerted), unless `alert.always`. */
	readonly ends?: readonly string[];
	/**
	 * It alerts (rung with --bell, handed to --on-alert): as the alert kind `as` (its own name unless given); `always`:
	 * an all-clear alerted whether its trouble was or not.
	 */
	readonly alert?: {readonly as?: string; readonly always?: true};
	/** Troubles it closes in the alerts without an all-clear of theirs (what a miner leaves behind when it goes). */
	readonly clears?: readonly string[];
	/** No alert of its own: a run of them is the alert of this kind (alerts/select.ts, stepRejects). */
	readonly burst?: string;
	/**
	 * Which stored event of another rigtop it is the same happening as, within a minute (history/writer.ts): 'state'
	 * one of the same kind (two rigtops word the same change differently), 'text' one of the same text only, 'own'
	 * none (the doing of this rigtop).
	 */
	readonly stored: 'state' | 'text' | 'own';
	/** In the history, ended also by these kinds, besides its pair: a state of the miner process ends with it. */
	readonly endedBy?: readonly string[];
	/** A new miner process or another miner: its share counters are not the old ones' (a reject burst starts again). */
	readonly newProcess?: true;
	/** A line in the exporter's log, at this level (share-by-share news is Prometheus's to count). */
	readonly logged?: Severity;
	/**
	 * How many of a proxy's workers' events of this kind at once are told in one line: "12 workers gone: …"; and how a
	 * notification says a news or all-clear kind of several rigs ("3 rigs hashing again"), else by its name.
	 */
	readonly group?: string;
	/**
	 * The trouble it begins (or its burst) as a state a rig is in, for notifications: "3 rigs without a pool", "rig-03
	 * was without a pool 02:10–02:40" (notify/policy/words.ts).
	 */
	readonly says?: string;
	/** A rig's outage as the event lines tell it: this kind begins it, ends it ("back up · down 23:54–00:12, 18m"), or forgets it. */
	readonly outage?: 'begins' | 'ends' | 'forgets';
};

export const EVENT_KINDS = {
	/** The miner stopped answering. */
	down: {says: 'down', severity: 'error', begins: 'down', clears: ['error'], alert: {}, stored: 'state', logged: 'warn', outage: 'begins'},
	/** It answers but rigtop cannot use it (auth, wrong server): needs the user. */
	error: {
		says: 'in error',
		severity: 'error',
		begins: 'error',
		clears: ['down'],
		alert: {},
		stored: 'state',
		logged: 'error',
		outage: 'begins',
	},
	/**
	 * It answers again after down or error. Whatever the miner was doing before it went away is unknown now; missing
	 * huge pages and the rig's sensors are followed by the monitor across it (their all-clear comes when it is so).
	 */
	up: {
		severity: 'info',
		ends: ['down', 'error'],
		clears: ['pool-lost', 'hashrate-drop', 'zero-hashrate', 'paused'],
		alert: {always: true},
		stored: 'state',
		logged: 'info',
		outage: 'ends',
	},
	/** The miner lost its pool connection (an xmrig-proxy: every upstream). */
	'pool-lost': {says: 'without a pool', severity: 'warn', begins: 'pool-lost', alert: {}, stored: 'state'},
	/** It has one again (or switched pools, or made its first: no alert then, its trouble was not open). */
	'pool-connected': {severity: 'info', ends: ['pool-lost'], alert: {as: 'pool-back'}, stored: 'state'},
	/** Paused (by rigtop, the console, the API or pause-on-battery/active): news, no alert. */
	paused: {says: 'paused', severity: 'info', begins: 'paused', stored: 'state'},
	/** Paused for longer than the alert threshold (default 10 minutes, --paused-alert): the alert 'paused'. */
	'paused-long': {says: 'paused', severity: 'warn', begins: 'paused', alert: {as: 'paused'}, stored: 'text'},
	/** It mines again. */
	resumed: {severity: 'info', ends: ['paused'], alert: {}, stored: 'state'},
	/** Shares rejected; several within a few minutes are a reject burst. */
	rejected: {says: 'rejecting shares', severity: 'warn', burst: 'reject-burst', stored: 'text'},
	/**
	 * The 10 s rate under a share of the miner's own 15 m average, or of its rate over the last hour as rigtop knows it,
	 * for several polls (a proxy's worker's against its own history), and back.
	 */
	'hashrate-drop': {
		says: 'low in hashrate',
		severity: 'warn',
		begins: 'hashrate-drop',
		alert: {},
		stored: 'state',
		group: 'dropped in hashrate',
	},
	'hashrate-recovered': {severity: 'info', ends: ['hashrate-drop'], alert: {}, stored: 'state', group: 'recovered their hashrate'},
	/**
	 * A miner with a pool, not paused, hashing nothing (its 10 s rate 0 or absent) for as many polls as a drop needs and
	 * a minute at least (monitor/events.ts, stepZero), and hashing again. A drop to zero is told once, as this: a poll at
	 * zero is none of the drop detector's, and this clears a drop told before (one trouble open, one all-clear to come).
	 */
	'zero-hashrate': {
		says: 'hashing nothing',
		severity: 'warn',
		begins: 'zero-hashrate',
		clears: ['hashrate-drop'],
		alert: {},
		stored: 'state',
		group: 'hashing nothing',
	},
	'hashrate-back': {severity: 'info', ends: ['zero-hashrate'], alert: {}, stored: 'state', group: 'hashing again'},
	/** Fewer huge pages allocated than before, or than the miner wants when first seen (once a session), and all again. */
	'hugepages-lost': {
		says: 'short of huge pages',
		severity: 'warn',
		begins: 'hugepages-lost',
		alert: {},
		stored: 'state',
		endedBy: ['down', 'up'],
	},
	'hugepages-restored': {severity: 'info', ends: ['hugepages-lost'], alert: {}, stored: 'text'},
	/**
	 * The miner process restarted (uptime went back, a new version): its pool and hashrate start from scratch and get
	 * their own events; huge pages missing stay open (reported once a session, and their restore when it comes).
	 */
	restarted: {
		severity: 'warn',
		clears: ['pool-lost', 'hashrate-drop', 'zero-hashrate', 'paused'],
		alert: {},
		stored: 'state',
		endedBy: ['down', 'up'],
		newProcess: true,
		logged: 'info',
	},
	/** Another miner (a new API id: another machine or program) answers at the address: nothing of the one before stays open. */
	replaced: {
		severity: 'warn',
		clears: ['pool-lost', 'hashrate-drop', 'zero-hashrate', 'paused', 'hugepages-lost', 'temp-high', 'throttling', 'power-lost'],
		alert: {},
		stored: 'state',
		endedBy: ['down', 'up'],
		newProcess: true,
		logged: 'warn',
	},
	/** Watching started (rigtop's own). */
	started: {severity: 'info', stored: 'own', outage: 'forgets'},
	/** xmrig-proxy: upstreams (its pool connections) in error, and none in error again. */
	'upstream-error': {says: 'with upstreams in error', severity: 'warn', begins: 'upstream-error', alert: {}, stored: 'state'},
	'upstream-recovered': {severity: 'info', ends: ['upstream-error'], alert: {}, stored: 'state'},
	/**
	 * xmrig-proxy: a worker behind it joined, went (dropped from the list, or no connection left), came back. A worker
	 * forgotten a day after it went comes back as a join: nothing of it is open any more.
	 */
	'worker-joined': {severity: 'info', ends: ['worker-gone'], clears: ['worker-quiet'], stored: 'state', group: 'joined'},
	'worker-gone': {says: 'gone', severity: 'warn', begins: 'worker-gone', alert: {}, stored: 'state', group: 'gone'},
	'worker-back': {severity: 'info', ends: ['worker-gone'], alert: {}, stored: 'state', group: 'back'},
	/** xmrig-proxy: a connected worker sent no share for longer than workerQuiet's threshold, and shares again. */
	'worker-quiet': {says: 'quiet', severity: 'warn', begins: 'worker-quiet', alert: {}, stored: 'state', group: 'quiet'},
	'worker-sharing': {severity: 'info', ends: ['worker-quiet'], alert: {}, stored: 'state', group: 'sharing again'},
	/**
	 * The rig's own sensors (a miner on this machine), followed by the monitor across a miner down or restarted: a CPU
	 * temperature at or over its limit (its max, or --temp-alert) for three polls, and every sensor back under it.
	 */
	'temp-high': {says: 'at its temperature limit', severity: 'warn', begins: 'temp-high', alert: {}, stored: 'state'},
	'temp-normal': {severity: 'info', ends: ['temp-high'], alert: {}, stored: 'state'},
	/** The CPU's thermal throttle count rising, and still again. */
	'throttle-started': {says: 'throttling', severity: 'warn', begins: 'throttling', alert: {}, stored: 'state'},
	'throttle-stopped': {severity: 'info', ends: ['throttling'], alert: {}, stored: 'state'},
	/** The package power reading lost, and read again. */
	'power-lost': {says: 'without a power reading', severity: 'warn', begins: 'power-lost', alert: {}, stored: 'state'},
	'power-restored': {severity: 'info', ends: ['power-lost'], alert: {}, stored: 'state'},
	/** The power reading refused to rigtop (root-only): said once, with what would allow it; no alert. */
	'power-denied': {severity: 'info', stored: 'state'},
	/**
	 * A rig's part of a batch from the live fleet (config set, apply or undo; pause or resume on marked rigs) failed or
	 * did not reach it (batch/outcome.ts), and a later batch that took on it. The doing of this rigtop: another rigtop
	 * has none of it.
	 */
	'batch-failed': {
		says: 'with a failed batch',
		severity: 'warn',
		begins: 'batch-failed',
		alert: {},
		stored: 'own',
		group: 'failed a batch',
	},
	'batch-ok': {severity: 'info', ends: ['batch-failed'], alert: {}, stored: 'own', group: 'took a batch'},
	/** Something the user did through rigtop: pause sent, config applied, a write refused by --read-only. */
	action: {severity: null, stored: 'own'},
} as const satisfies Readonly<Record<string, KindRow>>;

type Rows = typeof EVENT_KINDS;

export type EventKind = keyof Rows;

/** The troubles the alerts keep open, each named as the alert that opens it. */
export type Trouble = {[K in EventKind]: Rows[K] extends {readonly begins: infer T extends string} ? T : never}[EventKind];

/** The alert an event of kind K makes: its row's `alert.as`, else its own name; never for a kind that does not alert. */
export type AlertOf<K extends EventKind> = K extends EventKind
	? Rows[K] extends {readonly alert: {readonly as: infer A extends string}}
		? A
		: Rows[K] extends {readonly alert: object}
			? K
			: never
	: never;

/** The alert a run of events of kind K makes (a reject burst), if any. */
type BurstOf<K extends EventKind> = K extends EventKind ? (Rows[K] extends {readonly burst: infer B extends string} ? B : never) : never;

/** What rigtop alerts on (alerts/types.ts): the alerts of the kinds that alert, and the bursts. */
export type AlertKind = AlertOf<EventKind> | BurstOf<EventKind>;

/** Every kind, in the catalogue's order. */
export const EVENT_KIND_NAMES = Object.keys(EVENT_KINDS) as EventKind[];

/** The row of a kind as stored or read (any string); undefined for a kind this rigtop does not know (a newer one's). */
export function kindRow(kind: string): KindRow | undefined {
	return Object.hasOwn(EVENT_KINDS, kind) ? (EVENT_KINDS as Readonly<Record<string, KindRow>>)[kind] : undefined;
}

/** The kinds whose row passes `test`, in the catalogue's order. */
export function kindsWhere(test: (row: KindRow, kind: EventKind) => boolean): EventKind[] {
	return EVENT_KIND_NAMES.filter((kind) => test(EVENT_KINDS[kind], kind));
}
