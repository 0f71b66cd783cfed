/**
 * `rigtop history [URL] [--since 24h] [--until …] [--json | --csv]`: a miner's stored series and events,
 * for reading in the shell, plotting or archiving elsewhere. `--list`: the miners in the store.
 *
 * The miner: URL / --url, else the one discovery finds (like the other modes). A miner that answers is
 * found by its identity (the store's rules, writer.ts); one that does not, by the URL it was last seen
 * at; with nothing given and no miner running, the miner seen most recently. Reads only: never creates,
 * changes or sets aside the store.
 */
import {resolveTargets} from '../../discovery/discover.js';
import type {DiscoveryInput} from '../../discovery/types.js';
import {MinerClient} from '../../miner/client.js';
import {MinerReader} from '../../miner/reader.js';
import {parseDuration} from '../../text/duration.js';
import {UsageError} from '../../session/errors.js';
import {formatDuration, formatHashrate, formatInteger, formatSensor, type SensorUnit} from '../../text/format.js';
import {looksLikeUrl, normalizeMinerUrl, TargetError} from '../../miner/target.js';
import {hostPort, withoutCredentials} from '../../monitor/name.js';
import {defaultStoreFile} from '../../history/attach.js';
import {HistoryReader, type StoredEvent, type StoredMiner, type StoredRow} from '../../history/read.js';
import {HistoryStore} from '../../history/store.js';
import {padText, textWidth} from '../../text/cells.js';
import {linkName, type SensorStatName, type SensorStats, type Stat} from '../../history/tiers.js';
import type {Command} from '../command.js';
import {cleanText} from '../../text/clean.js';
import {jsonText} from '../../text/json-out.js';

export type HistoryCommandOptions = {
	/** URL arguments and --url values, as typed. */
	readonly urls: readonly string[];
	readonly since: string | undefined;
	readonly until: string | undefined;
	readonly json: boolean;
	readonly csv: boolean;
	readonly list: boolean;
	/** --worker NAME: that worker of the proxy, not the proxy. */
	readonly worker?: string | undefined;
	readonly tokenFile: string | undefined;
	readonly tokenEnv: string | undefined;
	readonly tokenFlag: string | undefined;
	readonly configPath: string | undefined;
	// ---- for tests ----
	readonly file?: string;
	readonly now?: number;
	readonly stdout?: {write(text: string): unknown};
	readonly stderr?: {write(text: string): unknown};
	readonly discovery?: Pick<DiscoveryInput, 'procRoot' | 'homeDir' | 'cwd' | 'passwdPath' | 'selfPid'>;
	/** How long to wait for the miner's answer (its identity), default 3 s. */
	readonly probeTimeoutMs?: number;
};

/** `--since` / `--until`: a duration back from `now`, or a date; throws UsageError. */
export function parseTime(text: string, now: number, flag: string): number {
	const trimmed = text.trim();
	if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
		const time = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00` : trimmed);
		if (Number.isFinite(time)) return time;
	} else {
		// A bare number is hours: --since 6 is the last six hours.
		const ms = parseDuration(trimmed, {bareUnitMs: 3_600_000});
		if (ms !== null) return now - ms;
	}

	throw new UsageError(
		`${flag} takes a duration back from now (90m, 24h, 7d) or a date (2026-11-20T22:00), not ${jsonText(text.slice(0, 40))}`,
	);
}

export const run: Command<HistoryCommandOptions> = async (options) => runHistoryCommand(options);

/** Runs `rigtop history …`; resolves to the exit code. */
export async function runHistoryCommand(options: HistoryCommandOptions): Promise<number> {
	const stdout = options.stdout ?? process.stdout;
	const stderr = options.stderr ?? process.stderr;
	const now = options.now ?? Date.now();
	if (options.json && options.csv) throw new UsageError('give --json or --csv, not both');
	if (options.urls.length > 1) throw new UsageError(`history shows one miner at a time (got ${options.urls.length} addresses)`);

	const from = parseTime(options.since ?? '24h', now, '--since');
	const to = options.until === undefined ? now + 1 : parseTime(options.until, now, '--until');
	if (!(to > from)) {
		if (options.until !== undefined) throw new UsageError('--since must be before --until');
		throw new UsageError(`--since is in the future (${localTime(from)}); it takes a time back from now (90m, 24h, 7d) or a past date`);
	}

	const store = HistoryStore.open({file: options.file ?? defaultStoreFile(), readOnly: true});
	try {
		if (!store.enabled) {
			stderr.write(`rigtop: ${store.offReason ?? 'the history store cannot be read'}\n`);
			return 1;
		}

		const reader = new HistoryReader(store);
		if (options.worker !== undefined && options.list) throw new UsageError('give --list or --worker, not both');
		if (options.worker !== undefined && options.worker.trim() === '') throw new UsageError("--worker takes a worker's name");
		if (options.list) {
			stdout.write(options.json ? `${jsonText(reader.miners().map(minerJson), 2)}\n` : listText(reader.miners()));
			return 0;
		}

		// A word that is a stored rig's name (monitor/name.ts, rigName) is that rig, even when it parses as an address (a
		// rig named `3` is not 127.0.0.1:3); else a word that is no address is a name or worker id (findByName says which).
		const [word] = options.urls;
		const stored = reader.miners();
		const byName =
			word === undefined
				? null
				: stored.some((miner) => miner.name === word && miner.name !== hostPort(miner.url)) || !isAddress(word)
					? word
					: null;
		const found = byName === null ? await findMiner(reader, options, now, stderr) : findByName(reader, byName, stderr);
		if (found === null) return 1;
		const miner = reader.miner(found);
		if (!miner) return 1;
		const others = reader.miners().filter((other) => other.id !== found && other.url === miner.url);
		if (others.length > 0) stderr.write(othersNote(miner, others));
		const workers = reader.workers(found);
		/** The worker's name as stored: what its events are found by. */
		let workerKey: string | null = null;
		let subject: Subject = {
			miner,
			worker: null,
			id: found,
			rates: miner.kind === 'proxy' || workers.length > 0 ? PROXY_RATES : MINER_RATES,
		};
		if (options.worker !== undefined) {
			const name = options.worker;
			// The name as shown (cleaned on read) or as stored, as given or cleaned: a name pasted with its raw invisible
			// character (`rig-01\u200b`) finds the worker shown as `rig-01<200B>`, as typing what is shown does.
			const cleaned = cleanText(name);
			const worker =
				workers.find((each) => each.name === name) ??
				workers.find((each) => each.stored === name) ??
				workers.find((each) => each.name === cleaned || each.stored === cleaned);
			if (!worker) {
				const stored = workers.length === 0 ? 'none is stored for it' : `stored: ${namesText(workers.map((each) => each.name))}`;
				stderr.write(`rigtop: no history is stored for a worker ${jsonText(name)} of ${whoAt(miner)}; ${stored}\n`);
				return 1;
			}

			subject = {miner, worker: worker.name, id: worker.id, rates: PROXY_RATES};
			workerKey = worker.stored;
		}

		const rows = reader.rows(subject.id, {from, to});
		const events = reader.events(found, {
			since: from,
			until: to,
			limit: 100_000,
			...(workerKey === null ? {} : {worker: workerKey}),
		});
		if (options.json) stdout.write(`${jsonText(toJson(subject, from, to, rows, events), 2)}\n`);
		else if (options.csv) stdout.write(toCsv(subject, rows, events));
		else {
			const note = subject.worker === null && workers.length > 0 ? workersNote(workers.map((each) => each.name)) : null;
			stdout.write(toText(subject, from, Math.min(to, now), rows, events, note));
		}

		return 0;
	} finally {
		store.close();
	}
}

/** Whether a word is a miner's address (host:port, a URL); a TargetError that is no address's shape is a name. */
function isAddress(word: string): boolean {
	try {
		normalizeMinerUrl(word);
		return true;
	} catch (error) {
		if (!(error instanceof TargetError)) throw error;
		// A URL, or host:port with a port that is not one, is an address typed wrong: said as such.
		if (looksLikeUrl(word) || word.includes(':')) throw new UsageError(error.message);
		return false;
	}
}

/**
 * The stored rig of this name (its rigs-file name, or host:port), else of this worker id; null (said on stderr) when
 * none is, or more than one is (each then named with its address).
 */
function findByName(reader: HistoryReader, name: string, stderr: {write(text: string): unknown}): number | null {
	const miners = reader.miners();
	// As given, else cleaned (a name pasted with its raw invisible character finds the one shown with its code).
	const byName = (wanted: string) => miners.filter((miner) => miner.name === wanted);
	const byWorker = (wanted: string) => miners.filter((miner) => miner.workerId === wanted);
	const cleaned = cleanText(name);
	const found = [byName(name), byWorker(name), byName(cleaned), byWorker(cleaned)].find((list) => list.length > 0);
	const matches = found ?? [];
	const [only] = matches;
	if (only && matches.length === 1) return only.id;
	if (matches.length > 1) {
		stderr.write(
			`rigtop: ${matches.length} rigs stored are called ${jsonText(name)}: ${matches.map((miner) => `${whoAt(miner)}, last seen ${localTime(miner.lastSeen)}`).join('; ')}; give its address\n`,
		);
		return null;
	}

	const names = [...new Set(miners.map((miner) => miner.name))];
	const stored = names.length === 0 ? 'no rig is stored yet' : `stored: ${namesText(names)}`;
	stderr.write(
		`rigtop: no history is stored for a rig called ${jsonText(name)}; ${stored} (rigtop history --list shows them; an address takes its port: 127.0.0.1:8080)\n`,
	);
	return null;
}

async function findMiner(
	reader: HistoryReader,
	options: HistoryCommandOptions,
	now: number,
	stderr: {write(text: string): unknown},
): Promise<number | null> {
	const result = await resolveTargets({
		urls: options.urls,
		...(options.tokenFile === undefined ? {} : {tokenFile: options.tokenFile}),
		...(options.tokenEnv === undefined ? {} : {tokenEnv: options.tokenEnv}),
		...(options.tokenFlag === undefined ? {} : {tokenFlag: options.tokenFlag}),
		...(options.configPath === undefined ? {} : {configPath: options.configPath}),
		...options.discovery,
	});
	if (result.targets.length > 1) {
		throw new UsageError(
			`history shows one miner at a time, and ${result.targets.length} were found: ${result.targets.map((target) => target.url).join(', ')}; give one as the URL argument`,
		);
	}

	const [target] = result.targets;
	if (!target) {
		// Nothing running here (the night's outage may be why the user asks): the miner seen last.
		const [last] = reader.miners();
		if (!last) {
			stderr.write('rigtop: no history is stored yet\n');
			return null;
		}

		stderr.write(`rigtop: no running miner found; showing ${whoAt(last)}, the miner seen last (rigtop history --list shows them all)\n`);
		return last.id;
	}

	const url = withoutCredentials(target.url);
	const client = new MinerClient({url: target.url, token: target.token});
	try {
		const snapshot = await new MinerReader(client).read(AbortSignal.timeout(options.probeTimeoutMs ?? 3000), {perThread: false});
		const byIdentity = reader.identify(
			url,
			{apiId: snapshot.id, workerId: snapshot.workerId, kind: snapshot.kind, uptimeS: snapshot.uptime},
			now,
		);
		if (byIdentity !== null) return byIdentity;
	} catch {
		// Not answering: the miner last seen at this address.
	} finally {
		await client.close();
	}

	const byUrl = reader.byUrl(url);
	if (byUrl === null) stderr.write(`rigtop: no history is stored for ${url} (rigtop history --list shows the miners stored)\n`);
	return byUrl;
}

/**
 * What is printed: a miner (or proxy), or a proxy's worker. A proxy's and a worker's rows hold its 1 min rate where a
 * miner's hold the 10 s one and its 10 min rate where they hold the 15 min (history/samples.ts): named so.
 */
type Subject = {
	readonly miner: StoredMiner;
	readonly worker: string | null;
	/** The stored rows' subject (the worker's own id for a worker). */
	readonly id: number;
	readonly rates: RateNames;
};

type RateNames = {readonly medium: '60s' | null; readonly long: '15m' | '10m'; readonly drawn: string};
const MINER_RATES: RateNames = {medium: '60s', long: '15m', drawn: '10 s'};
const PROXY_RATES: RateNames = {medium: null, long: '10m', drawn: '1 min'};

function namesText(names: readonly string[]): string {
	return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')} and ${names.length - 12} more`;
}

function workersNote(names: readonly string[]): string {
	return `workers   ${names.length} stored: ${namesText(names)} (rigtop history --worker NAME prints one)`;
}

function iso(t: number): string {
	return new Date(t).toISOString();
}

function resolutionName(resolution: number): 'poll' | '1m' | '10m' {
	return resolution === 0 ? 'poll' : resolution === 60_000 ? '1m' : '10m';
}

function minerJson(miner: StoredMiner) {
	return {
		name: miner.name,
		url: miner.url,
		id: miner.apiId,
		workerId: miner.workerId,
		firstSeen: iso(miner.firstSeen),
		lastSeen: iso(miner.lastSeen),
	};
}

function share(count: number, of: number): number | null {
	return of > 0 ? Math.round((count / of) * 1000) / 1000 : null;
}

function toJson(subject: Subject, from: number, to: number, rows: readonly StoredRow[], events: readonly StoredEvent[]) {
	const {rates} = subject;
	return {
		miner: minerJson(subject.miner),
		...(subject.worker === null ? {} : {worker: subject.worker}),
		from: iso(from),
		to: iso(to),
		series: rows.map((row) => ({
			time: iso(row.t),
			resolution: resolutionName(row.resolution),
			polls: row.n,
			answered: row.live,
			hashrate: {
				min: row.hrMin,
				avg: row.hrAvg,
				max: row.hrMax,
				...(rates.medium === null ? {} : {[rates.medium]: row.hr60}),
				[rates.long]: row.hr15,
			},
			shares:
				subject.worker === null
					? {good: row.good, total: row.total, rejected: row.rejected}
					: {accepted: row.good, rejected: row.rejected, invalid: invalidOf(row)},
			pool: share(row.pool, row.live),
			paused: share(row.paused, row.live),
			link: linkName(row.link),
			sensors: sensorsJson(row.sensors),
		})),
		events: events.map((event) => ({
			time: iso(event.t),
			kind: event.kind,
			severity: event.severity,
			text: event.text,
			...(event.worker === undefined ? {} : {worker: event.worker}),
		})),
	};
}

/** A stat as JSON: min / avg / max, rounded as stored; null where not read. */
function statJson(stat: Stat | null) {
	return stat === null ? null : {min: round3(stat.min), avg: round3(stat.avg), max: round3(stat.max)};
}

function round3(value: number): number {
	return Math.round(value * 1000) / 1000;
}

/**
 * A row's sensor readings (a local miner's; null where none was read: a rig on another machine, a proxy, a row from
 * before they were kept): °C of the hottest package with its sensor's max, the clock in MHz, package watts, H/W.
 */
function sensorsJson(sensors: SensorStats | null) {
	if (sensors === null) return null;
	const temperature = statJson(sensors.temp);
	return {
		temperature: temperature === null ? null : {...temperature, limit: sensors.tempLimit},
		clockMHz: statJson(sensors.clock),
		watts: statJson(sensors.watts),
		hashesPerWatt: statJson(sensors.hpw),
	};
}

/** A row's sensor CSV fields, in SENSOR_CSV_HEADER's order (empty where not read). */
function sensorFields(sensors: SensorStats | null): (number | null)[] {
	const fields: (number | null)[] = [];
	for (const name of ['temp', 'clock', 'watts', 'hpw'] as const) {
		const stat = sensors?.[name] ?? null;
		fields.push(stat?.min ?? null, stat?.avg ?? null, stat?.max ?? null);
		if (name === 'temp') fields.push(stat === null ? null : (sensors?.tempLimit ?? null));
	}

	return fields;
}

/** A worker's invalid shares: its row's total is accepted + rejected + invalid (history/samples.ts, workerSample). */
function invalidOf(row: StoredRow): number | null {
	return row.total === null || row.good === null || row.rejected === null ? null : row.total - row.good - row.rejected;
}

const SENSOR_CSV_HEADER = [
	'temp_min',
	'temp_avg',
	'temp_max',
	'temp_limit',
	'clock_mhz_min',
	'clock_mhz_avg',
	'clock_mhz_max',
	'power_w_min',
	'power_w_avg',
	'power_w_max',
	'hpw_min',
	'hpw_avg',
	'hpw_max',
];

const CSV_HEADER = [
	'time',
	'record',
	'resolution',
	'polls',
	'answered',
	'hashrate_min',
	'hashrate_avg',
	'hashrate_max',
	'hashrate_60s',
	'hashrate_15m',
	'shares_good',
	'shares_total',
	'shares_rejected',
	'pool',
	'paused',
	'link',
	'event_kind',
	'event_severity',
	'event_text',
	// A local miner's sensor readings (empty where none was read), after the columns of before so scripts keep working.
	...SENSOR_CSV_HEADER,
];

/** RFC 4180: quoted when it holds a comma, a quote or a line break; a leading =+-@ is quoted too, for spreadsheets. */
function csvField(value: string | number | null): string {
	if (value === null) return '';
	const text = typeof value === 'number' ? String(Math.round(value * 1000) / 1000) : value;
	return /[",\r\n]|^[=+\-@]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One table, oldest first: the series rows (record "sample") and the events (record "event") by time. A proxy's and a
 * worker's rate columns are named for its windows (hashrate_10m, no 60 s); a worker's shares are accepted, rejected,
 * invalid.
 */
function toCsv(subject: Subject, rows: readonly StoredRow[], events: readonly StoredEvent[]): string {
	const worker = subject.worker !== null;
	const header = CSV_HEADER.map((name) => {
		if (name === 'hashrate_60s') return subject.rates.medium === null ? 'hashrate_1m' : name;
		if (name === 'hashrate_15m') return `hashrate_${subject.rates.long}`;
		if (!worker) return name;
		return name === 'shares_good' ? 'shares_accepted' : name === 'shares_total' ? 'shares_invalid' : name;
	});
	type Line = {t: number; order: number; fields: (string | number | null)[]};
	const lines: Line[] = [
		...rows.map((row) => ({
			t: row.t,
			order: 0,
			fields: [
				iso(row.t),
				'sample',
				resolutionName(row.resolution),
				row.n,
				row.live,
				row.hrMin,
				row.hrAvg,
				row.hrMax,
				subject.rates.medium === null ? row.hrAvg : row.hr60,
				row.hr15,
				row.good,
				worker ? invalidOf(row) : row.total,
				row.rejected,
				share(row.pool, row.live),
				share(row.paused, row.live),
				linkName(row.link),
				null,
				null,
				null,
				...sensorFields(row.sensors),
			],
		})),
		...events.map((event) => ({
			t: event.t,
			order: 1,
			fields: [
				iso(event.t),
				'event',
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				null,
				event.kind,
				event.severity,
				event.text,
				...sensorFields(null),
			],
		})),
	].sort((a, b) => a.t - b.t || a.order - b.order);
	return `${[header.join(','), ...lines.map((line) => line.fields.map(csvField).join(','))].join('\n')}\n`;
}

function localTime(t: number, withDate = true): string {
	const d = new Date(t);
	const pad = (n: number) => String(n).padStart(2, '0');
	const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
	return withDate ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}` : time;
}

/** A stored rig as every line names it: its name, the worker id beside it ("alpha (worker rig-07)"). */
function who(miner: StoredMiner): string {
	return miner.workerId !== null && miner.workerId !== miner.name ? `${miner.name} (worker ${miner.workerId})` : miner.name;
}

/** Its name, the worker id beside it, and its address: "alpha (worker rig-07, http://10.0.0.5:8080)". */
function whoAt(miner: StoredMiner): string {
	return miner.workerId !== null && miner.workerId !== miner.name
		? `${miner.name} (worker ${miner.workerId}, ${miner.url})`
		: `${miner.name} (${miner.url})`;
}

/**
 * Other miners stored at the address of the one shown (another machine or program answered there before): each has
 * a history of its own, and the one shown is the miner that answers there now (or was seen there last).
 */
function othersNote(shown: StoredMiner, others: readonly StoredMiner[]): string {
	const described = others.map(
		(other) => `${who(other)}${other.apiId ? ` (id ${other.apiId})` : ''}, last seen ${localTime(other.lastSeen)}`,
	);
	const which = others.length === 1 ? 'another miner was' : `${others.length} other miners were`;
	return `rigtop: showing ${who(shown)}${shown.apiId ? ` (id ${shown.apiId})` : ''}; ${which} seen at ${hostPort(shown.url)} before: ${described.join('; ')} (rigtop history --list shows them all)\n`;
}

/**
 * One line a rig, in columns measured in terminal cells (ui/cells.ts: a name in CJK or with emoji keeps them in line):
 * its name (the rigs file's, else host:port: what `rigtop history NAME` takes) with its worker id beside it, the
 * address, when it was first and last seen (its newest poll stored) and its API id.
 */
function listText(miners: readonly StoredMiner[]): string {
	if (miners.length === 0) return 'no miner stored yet\n';
	const names = miners.map(who);
	const nameWidth = Math.max(...names.map(textWidth));
	const urlWidth = Math.max(...miners.map((miner) => textWidth(miner.url)));
	return `${miners
		.map((miner, index) =>
			`${padText(names[index] ?? '', nameWidth)}  ${padText(miner.url, urlWidth)}  first seen ${localTime(miner.firstSeen)}, last seen ${localTime(miner.lastSeen)}${miner.apiId ? `  id ${miner.apiId}` : ''}`.trimEnd(),
		)
		.join('\n')}\n`;
}

/** For people: what the span held (hashrate, answered polls, time down) and its events with dates. */
function toText(
	subject: Subject,
	from: number,
	to: number,
	rows: readonly StoredRow[],
	events: readonly StoredEvent[],
	note: string | null,
): string {
	const {miner} = subject;
	const shown = subject.worker === null ? whoAt(miner) : `worker ${subject.worker} of ${whoAt(miner)}`;
	const lines = [`${shown}, ${localTime(from)} → ${localTime(to)}`];
	let hrSum = 0;
	let hrN = 0;
	let min: number | null = null;
	let max: number | null = null;
	let polls = 0;
	let live = 0;
	let downMs = 0;
	for (const row of rows) {
		polls += row.n;
		live += row.live;
		if (row.hrAvg !== null && row.hrN > 0) {
			hrSum += row.hrAvg * row.hrN;
			hrN += row.hrN;
		}

		if (row.hrMin !== null) min = min === null ? row.hrMin : Math.min(min, row.hrMin);
		if (row.hrMax !== null) max = max === null ? row.hrMax : Math.max(max, row.hrMax);
		if (row.resolution > 0 && row.n > 0) downMs += (row.resolution * (row.n - row.live)) / row.n;
	}

	const pollRows = rows.filter((row) => row.resolution === 0);
	// An outage still open at the last poll stored is told apart from the past ones, which are added up.
	let openFrom = pollRows.length;
	if (rows.at(-1)?.resolution === 0) while (openFrom > 0 && pollRows[openFrom - 1]?.live === 0) openFrom--;
	for (let i = 0; i < openFrom; i++) {
		const row = pollRows[i];
		const next = pollRows[i + 1];
		if (row && next && row.live === 0) downMs += next.t - row.t;
	}

	if (polls === 0) lines.push('nothing stored in this span');
	else {
		lines.push(
			`hashrate  ${subject.rates === PROXY_RATES ? '(1m) ' : ''}${hrN > 0 ? `avg ${formatHashrate(hrSum / hrN)}` : 'none'}${min === null ? '' : ` · min ${formatHashrate(min)}`}${max === null ? '' : ` · max ${formatHashrate(max)}`}`,
			`polls     ${polls} stored, ${Math.round((live / polls) * 1000) / 10} % answered${downMs >= 1000 ? ` · not answering for a total of about ${formatDuration(downMs / 1000)} in past outages` : ''}`,
		);
		const open = pollRows.slice(openFrom);
		const [first] = open;
		const last = open.at(-1);
		if (first && last) {
			const count = open.length === 1 ? 'its last poll stored' : `its last ${open.length} polls stored`;
			lines.push(`down      since ${localTime(first.t)}: ${count} (to ${localTime(last.t, false)}) went unanswered`);
		}
	}

	if (polls > 0) lines.push(...sensorLines(subject, rows));

	if (subject.worker !== null) {
		const last = rows.findLast((row) => row.good !== null);
		if (last) {
			lines.push(
				`shares    ${formatInteger(last.good ?? 0)} accepted · ${formatInteger(last.rejected ?? 0)} rejected · ${formatInteger(invalidOf(last) ?? 0)} invalid (at ${localTime(last.t)})`,
			);
		}
	}

	if (note !== null) lines.push(note);
	lines.push('', events.length === 0 ? 'no events' : `events (${events.length})`);
	for (const event of events) lines.push(`  ${localTime(event.t)}  ${event.severity.padEnd(5)}  ${event.text}`);
	lines.push('', 'rigtop history --json or --csv prints the series itself.');
	return `${lines.join('\n')}\n`;
}

/** The readings of a span, each over the polls that had it; null where none had it. */
function spanStat(rows: readonly StoredRow[], name: SensorStatName): Stat | null {
	let n = 0;
	let sum = 0;
	let min = Number.POSITIVE_INFINITY;
	let max = Number.NEGATIVE_INFINITY;
	for (const row of rows) {
		const stat = row.sensors?.[name] ?? null;
		if (stat === null) continue;
		n += stat.n;
		sum += stat.avg * stat.n;
		min = Math.min(min, stat.min);
		max = Math.max(max, stat.max);
	}

	return n === 0 ? null : {n, min, avg: sum / n, max};
}

const SENSOR_LINES: readonly {readonly name: SensorStatName; readonly label: string; readonly unit: SensorUnit}[] = [
	{name: 'temp', label: 'temp', unit: '°C'},
	{name: 'clock', label: 'clock', unit: 'GHz'},
	{name: 'watts', label: 'power', unit: 'W'},
	{name: 'hpw', label: 'H/W', unit: 'H/W'},
];

/**
 * The span's sensor readings, a line each (avg / min / max; the temperature with its sensor's max), for a miner on the
 * machine rigtop ran on; for another miner one line saying none was recorded (a proxy and its workers: nothing).
 */
function sensorLines(subject: Subject, rows: readonly StoredRow[]): string[] {
	const lines: string[] = [];
	for (const {name, label, unit} of SENSOR_LINES) {
		const stat = spanStat(rows, name);
		if (stat === null) continue;
		const limit = name === 'temp' ? rows.findLast((row) => row.sensors?.tempLimit != null)?.sensors?.tempLimit : null;
		lines.push(
			`${label.padEnd(10)}avg ${formatSensor(stat.avg, unit)} · min ${formatSensor(stat.min, unit)} · max ${formatSensor(stat.max, unit)}${limit == null ? '' : ` (the sensor's max ${formatSensor(limit, unit)})`}`,
		);
	}

	if (lines.length === 0 && subject.worker === null && subject.rates !== PROXY_RATES)
		lines.push('sensors   none recorded (temperature, clock and power are read only for a miner on the machine rigtop runs on)');
	return lines;
}
