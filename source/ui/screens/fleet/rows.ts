/**
 * The fleet table's content, from the monitors' states: one row per miner (order.ts sorts and
 * filters them), and a totals row. Pure; the view only lays it out.
 */
import type {RigAlerts} from '../../../alerts/center.js';
import type {Alert} from '../../../alerts/types.js';
import type {MonitorState} from '../../../monitor/types.js';
import type {MinerSnapshot, ProxyUpstreams, RateWindows} from '../../../miner/model.js';
import {formatAgo, formatDurationShort, formatInteger} from '../../../text/format.js';
import {hostPort, workerBeside} from '../../../monitor/name.js';
import type {HourPoint} from '../../../history/last-hour.js';
import {hasReadings, hottestHeadline, tempLevel, type TempLevel} from '../../text/sensors.js';
import {statusBadge, type StatusBadge} from '../../text/status.js';
import type {ThemeToken} from '../../text/theme.js';

/** How long an alert that has no all-clear (restarted, reject burst…) stays on its row. */
export const RECENT_ALERT_MS = 10 * 60_000;

export type FleetRow = {
	readonly index: number;
	readonly name: string;
	/** The rig's address, host:port. */
	readonly where: string;
	/**
	 * What tells this rig from another of the same name (two rigs the rigs file names alike): its port (":18082") when
	 * they all run on one host, else its host:port; null when its name is its own (a rig named by its address).
	 */
	readonly tag: string | null;
	/** The miner's worker id, shown beside the name (never instead), once known and where it is not the name; else null. */
	readonly worker: string | null;
	/** What `/` matches: name, worker id, URL and pool (the last one known, even while the rig is down), lower case. */
	readonly search: string;
	/** "live", "down 4m", "stale 12s", "paused", "no pool" ("no upstream" for a proxy), "error", "connecting". */
	readonly state: string;
	/** The state's word alone (for sorting). */
	readonly word: StatusBadge['word'];
	readonly tone: ThemeToken;
	/** The values are the last ones read, not the present (stale): dimmed. */
	readonly outdated: boolean;
	/**
	 * 'proxy' for an xmrig-proxy (its last answer said so, even while it is down now, or the --rigs file does before
	 * it answers), else 'miner'.
	 */
	readonly kind: RigKind;
	/** A proxy's workers (its summary's count); null for a miner, or a proxy not read. */
	readonly workers: number | null;
	/** A proxy's upstreams in a few words ("1/1 up", "error 1/2"); null for a miner, or a proxy not read. */
	readonly upstream: string | null;
	/**
	 * null: nothing to show (never read, or down / error: the row says so instead). A proxy's are `[null, its 1 min
	 * rate, null]`: it has no 10 s or 15 m window; its 1 min one shows in the 60 s column.
	 */
	readonly rates: RateWindows | null;
	/** A proxy's 10 min rate, what sorting by 15m uses for it (the nearest window it has); null for a miner. */
	readonly proxyLong: number | null;
	readonly good: number | null;
	readonly total: number | null;
	readonly rejected: number | null;
	readonly pool: string | null;
	/** Miner uptime, seconds. */
	readonly uptime: number | null;
	/** Epoch ms of the last good poll. */
	readonly lastSeenAt: number | null;
	/** When it was last seen, as the "seen" column says it at the row's time ("just now", "4m"): the row compares it, not the time. */
	readonly seen: string;
	/** The alert to show on the row: an open trouble, else a recent one. */
	readonly alert: Alert | null;
	/**
	 * A warning or error still open (the `!` before the name, its colour, the state sort's "live with trouble"): not an
	 * alert that has no all-clear (restarted, a reject burst), which shows its words for a while but needs no look.
	 */
	readonly trouble: boolean;
	/** Its last hour from the history store (the fleet's history column), or null. */
	readonly hour: readonly HourPoint[] | null;
	/**
	 * The rig's own readings (a miner on this machine, source/sensors/), null for a rig on another machine or a proxy:
	 * its °C, H/W and W columns are blank. Its values are null where not read (down: "—").
	 */
	readonly sensors: RowSensors | null;
};

/** What the fleet shows of a local rig's readings: its hottest package's headline °C against its sensor's own limits, W and H/W. */
export type RowSensors = {
	readonly celsius: number | null;
	readonly level: TempLevel | null;
	/** The package watts; null before two polls, or where they are not read (`power` says why). */
	readonly watts: number | null;
	readonly power: 'ok' | 'denied' | 'lost' | 'none';
	readonly hashesPerWatt: number | null;
};

export type RigKind = 'miner' | 'proxy';

/** A rig's kind: what it answered last (a snapshot with proxy data is a proxy), else what the session was told. */
export function rigKind(state: Pick<MonitorState, 'snapshot'>, told: RigKind | null = null): RigKind {
	if (state.snapshot !== null) return state.snapshot.proxy !== null ? 'proxy' : 'miner';
	return told ?? 'miner';
}

/** A proxy's upstreams as the fleet's pool column says them: "1/1 up", "error 1/2" (any in error), "0/2 up"; null: unknown. */
export function upstreamState(upstreams: ProxyUpstreams | null): string | null {
	if (upstreams === null) return null;
	if (upstreams.error > 0) return `error ${formatInteger(upstreams.error)}/${formatInteger(upstreams.total)}`;
	return `${formatInteger(upstreams.active)}/${formatInteger(upstreams.total)} up`;
}

/** One column's total: the sum over the rigs that show a value in that column, and how many they are. */
export type ColumnTotal = {
	/** null when no rig shows a value in the column. */
	readonly sum: number | null;
	/** Rigs summed (≤ count): the column says "· 2 of 5" when it is not every rig. */
	readonly counted: number;
};

/**
 * The fleet's totals. The headline's rate is what the fleet's miners make now: each miner that answered its latest poll
 * counts with its freshest rate (10 s, else 60 s), so a rig started a minute ago is in it. Each column of the totals
 * row sums every miner that shows a value in that column (a stale rig's last values too, as its row shows them), and
 * counts them: a rig whose 15 m window has not filled yet is left out of the 15 m total alone, which says so ("· 2 of
 * 5"). An xmrig-proxy is in none of these sums: its rate and shares are those of the miners behind it, which may be
 * rows of this fleet too; the proxies' own total is apart (`proxies`), and the header says it is not in the total.
 */
export type FleetTotals = {
	/** Rigs in the table, proxies too. */
	readonly count: number;
	/** Rigs that answered their latest poll, proxies too. */
	readonly answered: number;
	/** The miners in the table (count less the proxies): what the column totals are of. */
	readonly miners: number;
	/** Miners that answered their latest poll. */
	readonly minersAnswered: number;
	/** The headline: the answering miners' freshest rates (10 s, else 60 s) summed; null when none has one yet. */
	readonly rate: number | null;
	/** Answering miners in `rate` (≤ minersAnswered: one that has neither window yet is not; a paused one counts as 0). */
	readonly rated: number;
	/** The 10 s, 60 s and 15 m columns, of the miners. */
	readonly windows: readonly [ColumnTotal, ColumnTotal, ColumnTotal];
	/** The shares column: good and total shares summed over `sharesCounted` miners (the reject rate is theirs too). */
	readonly good: number;
	readonly total: number;
	readonly sharesCounted: number;
	/** The proxies: how many, and their 1 min rates summed over those that answered (null when none has one). */
	readonly proxies: {readonly count: number; readonly rate: number | null; readonly rated: number};
	/** How many rigs are in each state word, for the header ("2 live · 1 down"). */
	readonly byState: ReadonlyMap<StatusBadge['word'], number>;
};

/** The larger unit of how long since `since`: "4m", "12s", "3d". */
function age(since: number, now: number): string {
	return formatDurationShort(Math.max(0, (now - since) / 1000));
}

function stateText(badge: StatusBadge, state: MonitorState, now: number, kind: RigKind): string {
	// A proxy's pools are its upstreams: with none active it says so in its own word.
	if (badge.word === 'no pool' && kind === 'proxy') return 'no upstream';
	if (badge.word === 'down' && state.failingSince !== null) return `down ${age(state.failingSince, now)}`;
	if (badge.word === 'stale') {
		const since = state.lastSuccessAt ?? state.failingSince;
		return since === null ? 'stale' : `stale ${age(since, now)}`;
	}

	return badge.word;
}

/** The alert for a row: the open trouble, else the newest alert while it is recent. */
export function rowAlert(alerts: RigAlerts | undefined, now: number): Alert | null {
	if (!alerts) return null;
	if (alerts.open) return alerts.open;
	const last = alerts.last;
	return last !== null && now - last.at < RECENT_ALERT_MS ? last : null;
}

/** A local rig's readings as its row shows them (none shown while it is down: each "—"); null for a rig elsewhere, or on a machine with nothing to read. */
function rowSensors(state: MonitorState, snapshot: MinerSnapshot | null): RowSensors | null {
	const reading = state.snapshot?.sensors;
	// A machine with nothing to read (a container, a VM: no hwmon, cpufreq or powercap) is as a rig elsewhere.
	if (!hasReadings(reading)) return null;
	if (snapshot === null) return {celsius: null, level: null, watts: null, power: 'none', hashesPerWatt: null};
	const hottest = hottestHeadline(reading);
	return {
		celsius: hottest?.celsius ?? null,
		level: hottest === null ? null : tempLevel(hottest),
		watts: reading.power.state === 'ok' ? reading.power.watts : null,
		power: reading.power.state,
		hashesPerWatt: reading.hashesPerWatt,
	};
}

/** The values a rig's row shows: its last read while it answers or is stale; none while down, in error or connecting. */
function shownSnapshot(state: MonitorState): MinerSnapshot | null {
	return state.status === 'live' || state.status === 'stale' ? state.snapshot : null;
}

export function fleetRow(
	state: MonitorState,
	index: number,
	now: number,
	alerts?: RigAlerts,
	tag: string | null = null,
	hour: readonly HourPoint[] | null = null,
	told: RigKind | null = null,
): FleetRow {
	const badge = statusBadge(state, now);
	const snapshot = shownSnapshot(state);
	const shown = snapshot !== null;
	const where = hostPort(state.url);
	const kind = rigKind(state, told);
	const proxy = shown ? snapshot.proxy : null;
	// The last one known, kept while the rig is down: it is who the rig is, not a value of the moment.
	const worker = workerBeside(state.name, state.snapshot?.workerId);
	return {
		index,
		name: state.name,
		where,
		tag,
		worker,
		// A proxy's pool is its upstreams': "proxy" finds the proxies.
		search: [state.name, worker ?? '', state.url, kind === 'proxy' ? 'proxy' : (state.snapshot?.connection.pool ?? '')]
			.join(' ')
			.toLowerCase(),
		state: stateText(badge, state, now, kind),
		word: badge.word,
		tone: badge.tone,
		outdated: state.status === 'stale',
		kind,
		workers: proxy?.workerCount ?? null,
		upstream: proxy === null ? null : upstreamState(proxy.upstreams),
		rates: shown ? snapshot.hashrate.total : null,
		proxyLong: proxy?.hashrate[1] ?? null,
		good: shown ? snapshot.results.good : null,
		total: shown ? snapshot.results.total : null,
		rejected: shown ? snapshot.results.rejected : null,
		pool: shown && proxy === null ? (snapshot.connection.connected ? snapshot.connection.pool : null) : null,
		uptime: shown ? snapshot.uptime : null,
		lastSeenAt: state.lastSuccessAt,
		seen: formatAgo(state.lastSuccessAt, now).replace(' ago', ''),
		alert: rowAlert(alerts, now),
		trouble: alerts?.open != null && alerts.open.severity !== 'info',
		hour,
		sensors: rowSensors(state, snapshot),
	};
}

/** The address of a URL split in host and port ("[::1]" and "8080"). */
function addressOf(url: string): {readonly host: string; readonly port: string} {
	const where = hostPort(url);
	const colon = where.lastIndexOf(':');
	return colon <= 0 ? {host: where, port: ''} : {host: where.slice(0, colon), port: where.slice(colon + 1)};
}

/**
 * What tells each rig from the others of its name: nothing for a name no other rig has; among rigs of one name on one
 * host, the port; else the host and port.
 */
export function rigTags(states: readonly Pick<MonitorState, 'name' | 'url'>[]): (string | null)[] {
	const byName = new Map<string, number[]>();
	states.forEach((state, index) => {
		byName.set(state.name, [...(byName.get(state.name) ?? []), index]);
	});
	const tags: (string | null)[] = states.map(() => null);
	for (const [name, indexes] of byName) {
		if (indexes.length < 2) continue;
		const addresses = indexes.map((index) => addressOf(states[index]?.url ?? ''));
		const oneHost = addresses.every((address) => address.host === addresses[0]?.host && address.port !== '');
		indexes.forEach((index, at) => {
			const address = addresses[at];
			const where = hostPort(states[index]?.url ?? '');
			// A rig named by its address (no worker id) needs no tag: its name is the address.
			if (!address || name === where) return;
			tags[index] = oneHost ? `:${address.port}` : where;
		});
	}

	return tags;
}

/** Every rig's row, in session order; rigs that share a name are tagged with what tells them apart. */
export function fleetRows(
	states: readonly MonitorState[],
	now: number,
	alerts?: readonly (RigAlerts | undefined)[],
	hours?: readonly (readonly HourPoint[] | null)[],
	kinds?: readonly (RigKind | null)[],
): FleetRow[] {
	const tags = rigTags(states);
	return states.map((state, index) =>
		fleetRow(state, index, now, alerts?.[index], tags[index] ?? null, hours?.[index] ?? null, kinds?.[index] ?? null),
	);
}

const known = (rate: number | null): rate is number => rate !== null && Number.isFinite(rate);

function columnTotal(values: readonly (number | null)[]): ColumnTotal {
	const summed = values.filter(known);
	return {sum: summed.length === 0 ? null : summed.reduce((sum, value) => sum + value, 0), counted: summed.length};
}

/** The totals of these rigs; `kinds` (as the rows have them) tells a proxy that never answered. */
export function fleetTotals(states: readonly MonitorState[], now: number, kinds?: readonly (RigKind | null)[]): FleetTotals {
	const byState = new Map<StatusBadge['word'], number>();
	const shown: MinerSnapshot[] = [];
	let answered = 0;
	let miners = 0;
	let minersAnswered = 0;
	let rate: number | null = null;
	let rated = 0;
	let proxyCount = 0;
	let proxyRate: number | null = null;
	let proxyRated = 0;
	states.forEach((state, index) => {
		const word = statusBadge(state, now).word;
		byState.set(word, (byState.get(word) ?? 0) + 1);
		const proxy = rigKind(state, kinds?.[index] ?? null) === 'proxy';
		if (proxy) proxyCount++;
		else miners++;
		const snapshot = shownSnapshot(state);
		if (snapshot !== null && !proxy) shown.push(snapshot);
		if (state.status !== 'live' || snapshot === null) return;
		answered++;
		if (proxy) {
			const minute = snapshot.proxy?.hashrate[0] ?? null;
			if (!known(minute)) return;
			proxyRated++;
			proxyRate = (proxyRate ?? 0) + minute;
			return;
		}

		minersAnswered++;
		const [r10, r60] = snapshot.hashrate.total;
		const freshest = known(r10 ?? null) ? r10 : known(r60 ?? null) ? r60 : snapshot.paused === true ? 0 : null;
		if (freshest === null || freshest === undefined) return;
		rated++;
		rate = (rate ?? 0) + freshest;
	});

	const window = (at: 0 | 1 | 2) => columnTotal(shown.map((snapshot) => snapshot.hashrate.total[at] ?? null));
	const withShares = shown.filter((snapshot) => known(snapshot.results.good) && known(snapshot.results.total));
	return {
		count: states.length,
		answered,
		miners,
		minersAnswered,
		rate,
		rated,
		windows: [window(0), window(1), window(2)],
		good: withShares.reduce((sum, snapshot) => sum + snapshot.results.good, 0),
		total: withShares.reduce((sum, snapshot) => sum + snapshot.results.total, 0),
		sharesCounted: withShares.length,
		proxies: {count: proxyCount, rate: proxyRate, rated: proxyRated},
		byState,
	};
}
