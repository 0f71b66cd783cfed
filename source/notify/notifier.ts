/**
 * The notifier: the one place the parts of notifications meet (issue 38). The AlertCenter's trouble changes go to the
 * policy; the notices the policy makes go to the outbox, which writes each one before it is sent and delivers it
 * through the channels. Everything here runs on one unref'd timer, set to the next moment something is due (the
 * policy's group window or repeat, the outbox's next retry, the Alertmanager channels' refresh, the heartbeat), never a
 * busy tick, and never on the poll's path: a change only records itself and moves the timer. A slow or hanging
 * channel delays nothing but the next delivery (each send has the outbox's deadline).
 */
import type {Channel, Delivery, Notice, OpenTrouble, RigRef, TroubleChange} from './types.js';

/** The policy as the notifier drives it (notify/policy/engine.ts, NoticePolicy). Pure: the time is given. */
export type NotifierPolicy = {
	/** A trouble opened or closed, or a piece of news: recorded (cheap: this is the poll's path); `due` gives its notices. */
	take(change: TroubleChange, now: number): void;
	/** The notices due at `now` (taken: the next call does not give them again). */
	due(now: number): readonly Notice[];
	/** When the next notice may be due (epoch ms), or null for none pending. */
	nextDue(now: number): number | null;
	/** Every notice still held (a group window not over), at close: told now rather than lost. */
	flush(now: number): readonly Notice[];
	/** The troubles open now that were told and are not muted (the Alertmanager refresh, the heartbeat's fail form). */
	openNow(now: number): readonly OpenTrouble[];
};

/** One answer of a channel to one notice (each try: the outbox retries a failure that may pass). */
export type DeliveryReport = {
	readonly notice: Notice;
	readonly channel: Pick<Channel, 'service' | 'shown'>;
	readonly delivery: Delivery;
	/** true when this answer ends the notice on this channel: sent, or a failure that is not retried. */
	readonly final: boolean;
};

/** The outbox as the notifier drives it (notify/outbox/): it writes, delivers and retries on its own timers. */
export type NotifierOutbox = {
	/** Writes the notice for every channel and queues it; synchronous (SQLite writes only). */
	post(notice: Notice): unknown;
	/** Stops: sends in flight may finish until the deadline; what is left stays pending in the store. */
	close(deadlineMs: number): Promise<void>;
	/** Whether a rig is muted now (the store's mutes). */
	muted(ref: RigRef, now: number): boolean;
};

/** A dead man's switch (notify/channels/heartbeat.ts): pinged while all is well, its fail form while a trouble is open. */
export type NotifierHeartbeat = {
	ping(state: {readonly well: boolean; readonly message?: string}, signal: AbortSignal): Promise<Delivery>;
};

export type NotifierOptions = {
	/** Subscribes to the AlertCenter's trouble changes; returns the unsubscribe. */
	readonly troubles: (listener: (change: TroubleChange) => void) => () => void;
	readonly policy: NotifierPolicy;
	readonly outbox: NotifierOutbox;
	readonly channels: readonly Channel[];
	readonly heartbeat?: NotifierHeartbeat | null;
	/** What the notifier has to say (the events pane's rigtop lines; rigtop watch's log). One line, no secret. */
	readonly say?: (severity: 'info' | 'warn' | 'error', line: string) => void;
	/** Each delivery's answer (rigtop watch logs each notice sent or failed). */
	readonly onDelivery?: (report: DeliveryReport) => void;
	readonly now?: () => number;
	/** The Alertmanager channels' refresh while troubles are open; default 60 s. */
	readonly refreshMs?: number;
	/** The heartbeat's interval; default 60 s. */
	readonly heartbeatMs?: number;
	/** How long a refresh or a heartbeat ping may take; default 10 s. */
	readonly requestTimeoutMs?: number;
};

export type Notifier = {
	/** The troubles open now (for a refresh, the heartbeat's fail form, and tests). */
	open(): readonly OpenTrouble[];
	/** Runs what is due now (tests; the timer does it otherwise). Resolves when that round is done. */
	flush(): Promise<void>;
	/**
	 * Stops: the notices the policy holds are posted, the outbox sends until `deadlineMs` (default 5 s) and keeps the
	 * rest pending in the store for the next start.
	 */
	close(deadlineMs?: number): Promise<void>;
};

export const DEFAULT_REFRESH_MS = 60_000;
export const DEFAULT_HEARTBEAT_MS = 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CLOSE_DEADLINE_MS = 5000;
/** A timer is never set closer than this to the last round: a policy that keeps saying "now" cannot spin. */
const MIN_GAP_MS = 50;

/** A trouble's key among the open ones. */
const openKey = (change: TroubleChange) => `${change.url}\u0000${change.worker ?? ''}\u0000${change.trouble}`;

/**
 * The channels as the outbox is given them: each send also told to `onDelivery` (rigtop watch's log line per notice
 * sent or failed). Same ids, so the store's rows are the same channels'.
 */
export function reportingChannels(channels: readonly Channel[], onDelivery: ((report: DeliveryReport) => void) | undefined): Channel[] {
	if (onDelivery === undefined) return [...channels];
	return channels.map((channel) => ({
		...channel,
		async send(notice, signal) {
			const delivery = await channel.send(notice, signal);
			try {
				onDelivery({notice, channel, delivery, final: delivery.ok || !delivery.retry});
			} catch {
				// A log line's trouble is not the delivery's.
			}

			return delivery;
		},
	}));
}

export function startNotifier(options: NotifierOptions): Notifier {
	const now = options.now ?? Date.now;
	const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
	const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
	const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const say = options.say ?? (() => undefined);
	const refreshing = options.channels.filter((channel) => channel.refresh !== undefined);
	const open = new Map<string, OpenTrouble>();
	const stopping = new AbortController();
	let timer: NodeJS.Timeout | null = null;
	let round: Promise<void> | null = null;
	let closed = false;
	let nextRefresh: number | null = null;
	let nextHeartbeat: number | null = options.heartbeat ? now() : null;
	let lastRound = Number.NEGATIVE_INFINITY;
	/** The heartbeat's last answer, so that a change (failing, back) is said once, not at every ping. */
	let heartbeatOk: boolean | null = null;

	const post = (notices: readonly Notice[]) => {
		for (const notice of notices) {
			try {
				options.outbox.post(notice);
			} catch (error) {
				say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	};

	const unsubscribe = options.troubles((change) => {
		if (closed) return;
		const at = now();
		if (change.open === true) {
			open.set(openKey(change), {
				rig: change.rig,
				url: change.url,
				...(change.worker === undefined ? {} : {worker: change.worker}),
				since: change.at,
				message: change.message,
				trouble: change.trouble,
				severity: change.severity,
			});
			if (refreshing.length > 0 && nextRefresh === null) nextRefresh = at + refreshMs;
		} else if (change.open === false) {
			open.delete(openKey(change));
			if (open.size === 0) nextRefresh = null;
		}

		try {
			options.policy.take(change, at);
		} catch (error) {
			say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
		}

		schedule();
	});

	/** Sets the one timer to the soonest of what is due; nothing due, no timer. */
	function schedule(): void {
		if (closed || round !== null) return;
		if (timer !== null) clearTimeout(timer);
		timer = null;
		const candidates = [options.policy.nextDue(now()), nextRefresh, nextHeartbeat].filter(
			(at): at is number => at !== null && Number.isFinite(at),
		);
		if (candidates.length === 0) return;
		const at = Math.max(Math.min(...candidates), lastRound + MIN_GAP_MS);
		timer = setTimeout(
			() => {
				timer = null;
				void run();
			},
			Math.max(0, at - now()),
		);
		timer.unref();
	}

	async function run(): Promise<void> {
		if (round === null) {
			round = (async () => {
				try {
					await once(stopping.signal);
				} finally {
					lastRound = now();
				}
			})();
		}

		const current = round;
		try {
			await current;
		} finally {
			if (round === current) {
				round = null;
				schedule();
			}
		}
	}

	/** One round: the policy's due notices into the outbox, a refresh and a ping if due. */
	async function once(signal: AbortSignal): Promise<void> {
		const at = now();
		try {
			const due = options.policy.nextDue(at);
			const notices = due !== null && due <= at ? options.policy.due(at) : [];
			post(notices);
			// The heartbeat tells a trouble told (its fail form) or its all-clear at once, not a minute later.
			if (options.heartbeat && notices.length > 0) nextHeartbeat = at;
		} catch (error) {
			say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
		}

		const work: Array<Promise<void>> = [];
		if (nextRefresh !== null && nextRefresh <= at) {
			nextRefresh = open.size > 0 ? at + refreshMs : null;
			work.push(refresh(signal, at));
		}

		if (options.heartbeat && nextHeartbeat !== null && nextHeartbeat <= at) {
			nextHeartbeat = at + heartbeatMs;
			work.push(ping(options.heartbeat, signal));
		}

		await Promise.allSettled(work);
	}

	async function refresh(signal: AbortSignal, at: number): Promise<void> {
		const troubles = options.policy.openNow(at);
		await Promise.allSettled(
			refreshing.map(async (channel) => {
				const delivery = await channel.refresh?.(troubles, AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]));
				if (delivery && !delivery.ok) say('warn', `${channel.service} ${channel.shown}: refresh failed: ${delivery.reason}`);
			}),
		);
	}

	async function ping(heartbeat: NotifierHeartbeat, signal: AbortSignal): Promise<void> {
		const [first] = options.policy.openNow(now());
		const state = first === undefined ? {well: true} : {well: false, message: `${first.rig}: ${first.message}`};
		let delivery: Delivery;
		try {
			delivery = await heartbeat.ping(state, AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]));
		} catch (error) {
			delivery = {ok: false, retry: true, ms: 0, reason: error instanceof Error ? error.message : String(error)};
		}

		if (delivery.ok !== heartbeatOk) {
			if (!delivery.ok) say('warn', `heartbeat failed: ${delivery.reason}`);
			else if (heartbeatOk === false) say('info', 'heartbeat answered again');
			heartbeatOk = delivery.ok;
		}
	}

	schedule();
	return {
		open: () => [...open.values()],
		async flush() {
			if (timer !== null) clearTimeout(timer);
			timer = null;
			await run();
		},
		async close(deadlineMs = DEFAULT_CLOSE_DEADLINE_MS) {
			if (closed) return;
			closed = true;
			unsubscribe();
			if (timer !== null) clearTimeout(timer);
			timer = null;
			const deadline = setTimeout(() => stopping.abort(), deadlineMs);
			deadline.unref();
			try {
				if (round !== null) await round;
				// What the policy still holds (a group window not over) is told now rather than lost.
				post(options.policy.flush(now()));
				await options.outbox.close(deadlineMs);
			} catch (error) {
				say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
			} finally {
				clearTimeout(deadline);
				stopping.abort();
			}
		},
	};
}

/** A delivery as a log line: its level, message and fields (rigtop watch's and the exporter's log). No secret: `shown` only. */
export function deliveryLine(report: DeliveryReport): {
	level: 'info' | 'warn' | 'error';
	message: string;
	fields: Readonly<Record<string, string | number>>;
} {
	const fields = {
		notice: report.notice.kind,
		trouble: report.notice.trouble,
		channel: report.channel.shown,
		service: report.channel.service,
		ms: Math.round(report.delivery.ms),
		...(report.delivery.status === undefined ? {} : {status: report.delivery.status}),
	};
	if (report.delivery.ok) return {level: 'info', message: `sent: ${report.notice.title}`, fields};
	return {level: report.final ? 'error' : 'warn', message: `not sent: ${report.notice.title}: ${report.delivery.reason}`, fields};
}
