/**
 * Reading the history back: for the screens (a chart from 10 minutes to 7 days, the sparkline filled at
 * start, the fleet's last-hour column, the event view) and for `rigtop history`.
 *
 * The two questions the screens ask are answered with a few indexed range reads, whatever is being
 * written meanwhile (in this process, on the same connection; in another, through WAL snapshots):
 * - series(M, {from, to, points}): the span cut into `points` equal buckets, each with the 10 s
 *   hashrate's min / avg / max and what the link did, from the finest tier that holds each part of the
 *   span — empty buckets are gaps (nothing stored: rigtop was not watching), buckets whose polls all
 *   failed are outages;
 * - events(M, {since}): the stored events, oldest first.
 */
import type {MinerEvent} from '../monitor/types.js';
import {cleanOrNull, cleanText} from '../text/clean.js';
import type {HistoryStore} from './store.js';
import {
	builder,
	EVENT_TEXT_MAX,
	finish,
	linkName,
	mergeInto,
	MINUTE_TIER,
	sampleAsSummary,
	sampleColumnsSql,
	sampleFromColumns,
	summaryColumnsSql,
	summaryFromColumns,
	summaryTable,
	TEN_MINUTE_TIER,
	type Builder,
	type SampleColumns,
	type SampleRow,
	type SensorStats,
	type SummaryColumns,
	type SummaryRow,
} from './tiers.js';
import {identify, type IdentityFacts} from './identity.js';

/**
 * A stored miner as shown: its texts cleaned on read (cleanText) — rows written before rigtop cleaned what miners send
 * may hold raw bytes — except its URL, the key it is found by (rigtop made it, from an address it checked).
 */
export type StoredMiner = {
	/** The store's id of the miner (what series() and events() take). */
	readonly id: number;
	readonly name: string;
	/** The URL it was last seen at (no credentials), as stored. */
	readonly url: string;
	readonly apiId: string | null;
	readonly workerId: string | null;
	/** XMRig's kind ('miner', 'cpu', 'proxy'…), where it said. */
	readonly kind: string | null;
	readonly firstSeen: number;
	readonly lastSeen: number;
};

export type SeriesPoint = {
	/** Start of the bucket, epoch ms. */
	readonly t: number;
	/** Polls stored in the bucket; 0: nothing stored (rigtop was not watching): a gap. */
	readonly samples: number;
	/** Polls the miner answered; 0 while `samples` > 0: an outage. */
	readonly live: number;
	/** The 10 s hashrate over the answered polls, H/s; null when none had one. */
	readonly min: number | null;
	readonly avg: number | null;
	readonly max: number | null;
	/** Averages of the miner's own 60 s and 15 min windows. */
	readonly avg60: number | null;
	readonly avg15: number | null;
	/** Share of the answered polls with a pool connection, 0–1; null without answered polls. */
	readonly pool: number | null;
	/** Share of the answered polls while paused, 0–1. */
	readonly paused: number | null;
	/** The worst link state in the bucket; null for an empty bucket. */
	readonly link: 'live' | 'stale' | 'down' | 'error' | null;
	/** Share counters at the bucket's last answered poll. */
	readonly good: number | null;
	readonly total: number | null;
	readonly rejected: number | null;
	/** A local miner's sensor readings over the answered polls (min / avg / max); absent where none was read. */
	readonly sensors?: SensorStats;
};

export type Series = {
	readonly miner: number;
	readonly from: number;
	readonly to: number;
	/** Width of each bucket, ms. */
	readonly step: number;
	readonly points: readonly SeriesPoint[];
};

/**
 * The texts of a rigtop's own token refused (HTTP 401 / 403, monitor/link.ts's errorEvent), which rigtops before
 * 2026-11-26 stored as the rig's 'error' events: never read as the rig's (docs/history.md).
 */
const LEGACY_WATCHER_TEXTS = ['error: not authorized (HTTP 401)', 'error: forbidden (HTTP 403)'] as const;

export type StoredEvent = {
	/** Epoch ms. */
	readonly t: number;
	readonly kind: string;
	readonly severity: string;
	/** Cleaned on read (cleanText), as the worker: rows from before rigtop cleaned what miners send may hold raw bytes. */
	readonly text: string;
	/** A proxy's worker the event is about (its name), where it is one. */
	readonly worker?: string;
	/** This session's own access trouble (MinerEvent's `watcher`): never stored, merged in by its recorder alone. */
	readonly watcher?: true;
};

/** A monitor's event as the panes list it. */
export function storedEventOf(event: MinerEvent): StoredEvent {
	const stored: StoredEvent = {t: event.at, kind: event.kind, severity: event.severity, text: event.message};
	return event.watcher === true ? {...stored, watcher: true} : stored;
}

/** A proxy's stored worker. */
export type StoredWorker = {
	/** The store's id of the worker (what series() and rows() take). */
	readonly id: number;
	/** Its name as shown: cleaned on read (cleanText). */
	readonly name: string;
	/** Its name as stored, the key its events are found by (`events(…, {worker})`): never shown. */
	readonly stored: string;
	readonly firstSeen: number;
	readonly lastSeen: number;
};

/** A stored row as `rigtop history` prints it: one poll, or one summary bucket. */
export type StoredRow = SummaryRow & {
	/** 0 for one poll, else the bucket width in ms. */
	readonly resolution: number;
};

/** A stored row's accepted count (countRun): a poll's (resolution 0) or a summary's, its bucket's last poll's. */
export type CountRow = {readonly t: number; readonly good: number; readonly resolution: number};

type TierName = 'sample' | '1m' | '10m';
type Coverage = {
	readonly tier: TierName;
	readonly resolution: number;
	readonly lo: number;
	readonly hi: number;
	/**
	 * The resolutions of the coarser tiers whose bucket holding `lo` this tier holds whole (every poll that bucket
	 * summarizes is here too: a young miner, whose first polls are all still kept).
	 */
	readonly wholeIn?: readonly number[];
};
type Segment = {readonly tier: TierName; readonly resolution: number; readonly from: number; readonly to: number};

/** A summary tier's rows of a miner in a span (with the sensor columns where the store has them: version 3). */
const summarySql = (resolution: number, sensors: boolean) =>
	`SELECT ${summaryColumnsSql(sensors)} FROM ${summaryTable(resolution)} WHERE miner = ? AND t >= ? AND t < ? ORDER BY t`;
const sampleSql = (sensors: boolean) => `SELECT ${sampleColumnsSql(sensors)} FROM sample WHERE miner = ? AND t >= ? AND t < ? ORDER BY t`;

export class HistoryReader {
	readonly #store: HistoryStore;
	/** #holdsWhole's answers: the same while the tiers' first times are (pruning moves them, and so the key). */
	readonly #whole = new Map<string, boolean>();
	readonly #pending: (miner: number) => readonly SampleRow[];
	readonly #pendingEvents: (miner: number) => readonly StoredEvent[];

	/**
	 * In a live session the recorder passes `pending` (the polls of a miner not written yet, at most the last 5 s) and
	 * `pendingEvents` (its events not written yet, at most the last 50 ms, as they will be stored): reads include them
	 * from memory, so a read never writes and never waits for a commit.
	 */
	constructor(
		store: HistoryStore,
		hooks: {
			readonly pending?: (miner: number) => readonly SampleRow[];
			readonly pendingEvents?: (miner: number) => readonly StoredEvent[];
		} = {},
	) {
		this.#store = store;
		this.#pending = hooks.pending ?? (() => []);
		this.#pendingEvents = hooks.pendingEvents ?? (() => []);
	}

	/**
	 * Every stored miner (a proxy's workers are not: workers()), the one seen most recently first. Its last seen is the
	 * newest poll stored (the miner's row is written once a minute at most: writer.ts, TOUCH_EVERY_MS), or the row's
	 * when that is newer (an event written without a poll: `rigtop config set`).
	 */
	miners(): StoredMiner[] {
		return this.#store.read(
			() =>
				this.#store
					.all<MinerColumns>(
						`SELECT miner, name, url, api_id, worker, kind, first_seen, ${LAST_SEEN_SQL} AS last_seen FROM miner m
						WHERE kind IS NOT 'proxy-worker' ORDER BY last_seen DESC`,
					)
					.map(minerFromColumns),
			[],
		);
	}

	/** A stored proxy's workers, by name; none for a miner (or a store from before workers were kept). */
	workers(proxy: number): StoredWorker[] {
		if (!this.#store.hasWorkers) return [];
		return this.#store.read(
			() =>
				this.#store
					.all<{miner: number; name: string; first_seen: number; last_seen: number}>(
						'SELECT w.miner, w.name, m.first_seen, m.last_seen FROM proxy_worker w JOIN miner m ON m.miner = w.miner WHERE w.proxy = ? ORDER BY w.name',
						proxy,
					)
					.map((row) => ({
						id: row.miner,
						name: cleanText(row.name),
						stored: row.name,
						firstSeen: row.first_seen,
						lastSeen: row.last_seen,
					})),
			[],
		);
	}

	/** The stored worker `name` of a stored proxy; null when none. */
	workerOf(proxy: number, name: string): number | null {
		if (!this.#store.hasWorkers) return null;
		return this.#store.read(
			() => this.#store.get<{miner: number}>('SELECT miner FROM proxy_worker WHERE proxy = ? AND name = ?', proxy, name)?.miner ?? null,
			null,
		);
	}

	miner(id: number): StoredMiner | null {
		return this.#store.read(() => {
			const row = this.#store.get<MinerColumns>(
				`SELECT miner, name, url, api_id, worker, kind, first_seen, ${LAST_SEEN_SQL} AS last_seen FROM miner m WHERE miner = ?`,
				id,
			);
			return row ? minerFromColumns(row) : null;
		}, null);
	}

	/** The stored miner a live one is (from what its answer says), without writing anything; null when none. */
	identify(url: string, facts: IdentityFacts, at: number): number | null {
		const clean: IdentityFacts = {...facts, apiId: blankToNull(facts.apiId), workerId: blankToNull(facts.workerId)};
		return this.#store.read(() => identify(this.#store, {url, name: '', facts: clean, at}), null);
	}

	/** The miner last seen at a URL; null when none. */
	byUrl(url: string): number | null {
		return this.#store.read(
			() => this.#store.get<{miner: number}>('SELECT miner FROM miner WHERE url = ? ORDER BY last_seen DESC LIMIT 1', url)?.miner ?? null,
			null,
		);
	}

	/** The first and last stored times of a miner (any tier), or null when nothing is stored. */
	span(miner: number): {readonly first: number; readonly last: number} | null {
		return this.#store.read(() => {
			const coverage = this.#coverage(miner);
			// A summary's time is its bucket's start: where a finer tier still holds every poll of a tier's first bucket
			// (a young miner), the first time is the finer tier's first poll, not the start of that minute or ten.
			const heldWhole = (c: Coverage) =>
				coverage.some(
					(finer) =>
						finer.resolution < c.resolution &&
						finer.wholeIn?.includes(c.resolution) === true &&
						Math.floor(finer.lo / c.resolution) * c.resolution === c.lo,
				);
			const pending = this.#pending(miner).map((row) => row.t);
			const firsts = [...coverage.filter((c) => !heldWhole(c)).map((c) => c.lo), ...pending];
			const lasts = [...coverage.map((c) => c.hi - Math.max(1, c.resolution)), ...pending];
			return firsts.length === 0 ? null : {first: Math.min(...firsts), last: Math.max(...lasts)};
		}, null);
	}

	/**
	 * The span [from, to) of a miner in `points` equal buckets (see SeriesPoint). Each part of the span is read from
	 * the coarsest tier whose buckets are no wider than the chart's, and where that tier has nothing (yet, or any
	 * more), from the finer or coarser one that does: the last minutes come from the polls, days ago from the
	 * 10-minute summaries. A stored bucket wider than a chart bucket fills every chart bucket it covers; one that begins
	 * before its part of the span (the span starts inside it) counts from the part's start.
	 */
	series(miner: number, options: {readonly from: number; readonly to: number; readonly points: number}): Series {
		const points = Math.max(1, Math.floor(options.points));
		const {from, to} = options;
		const step = Math.max(1, (to - from) / points);
		const empty = (): Series => ({miner, from, to, step, points: Array.from({length: points}, (_, i) => emptyPoint(from + i * step))});
		if (!(to > from)) return empty();
		return this.#store.read(() => {
			const builders: (Builder | null)[] = Array.from({length: points}, () => null);
			const bucketAt = (i: number): Builder => {
				let bucket = builders[i];
				if (!bucket) {
					bucket = builder(from + i * step);
					builders[i] = bucket;
				}

				return bucket;
			};

			const index = (t: number) => Math.min(points - 1, Math.max(0, Math.floor((t - from) / step)));
			for (const segment of segmentsFor(this.#coverage(miner), from, to, step)) {
				if (segment.tier === 'sample') {
					for (const row of this.#store
						.all<SampleColumns>(sampleSql(this.#store.hasSensors), miner, segment.from, segment.to)
						.map(sampleFromColumns)) {
						mergeInto(bucketAt(index(row.t)), sampleAsSummary(row));
					}

					continue;
				}

				const rows = this.#store
					.all<SummaryColumns>(
						summarySql(segment.resolution, this.#store.hasSensors),
						miner,
						segment.from - segment.resolution + 1,
						segment.to,
					)
					.map(summaryFromColumns);
				for (const row of rows) {
					if (segment.resolution <= step) {
						mergeInto(bucketAt(index(row.t)), row);
						continue;
					}

					// A stored bucket wider than the chart's: it stands for each chart bucket that starts inside it.
					const first = index(Math.max(row.t, segment.from));
					const last = index(Math.min(row.t + segment.resolution, segment.to) - 1);
					for (let i = first; i <= last; i++) mergeInto(bucketAt(i), row);
				}
			}

			for (const row of this.#pending(miner)) {
				if (row.t >= from && row.t < to) mergeInto(bucketAt(index(row.t)), sampleAsSummary(row));
			}

			return {miner, from, to, step, points: builders.map((bucket, i) => (bucket ? toPoint(finish(bucket)) : emptyPoint(from + i * step)))};
		}, empty());
	}

	/**
	 * Stored events of a miner from `since` (to `until`), oldest first; the newest `limit` (default 1000) when more. A
	 * proxy's include its workers' (each naming its worker); with `worker`, that worker's alone.
	 */
	events(
		miner: number,
		options: {readonly since: number; readonly until?: number; readonly limit?: number; readonly worker?: string},
	): StoredEvent[] {
		const until = options.until ?? Number.MAX_SAFE_INTEGER;
		const limit = Math.max(1, Math.floor(options.limit ?? 1000));
		const {worker} = options;
		if (worker !== undefined && !this.#store.hasWorkers) return this.#pendingEvents(miner).filter((event) => event.worker === worker);
		const workerColumn = this.#store.hasWorkers ? 'worker' : 'NULL AS worker';
		// Not a rigtop's refused token stored by a rigtop before 2026-11-26 (LEGACY_WATCHER_TEXTS): another terminal's, not the rig's.
		const sql = `SELECT t, kind, severity, text, ${workerColumn} FROM event WHERE miner = ?${worker === undefined ? '' : ' AND worker = ?'} AND t >= ? AND t < ? AND NOT (kind = 'error' AND text IN (?, ?)) ORDER BY t DESC, id DESC LIMIT ?`;
		const range = [options.since, until, ...LEGACY_WATCHER_TEXTS, limit];
		const params = worker === undefined ? [miner, ...range] : [miner, worker, ...range];
		const stored = this.#store.read(
			() =>
				this.#store
					.all<StoredEvent & {worker: string | null}>(sql, ...params)
					.map(eventFromRow)
					.reverse(),
			[],
		);
		// The events waiting to be written (logged after every stored one of this session), merged by time.
		const pending = this.#pendingEvents(miner).filter(
			(event) => event.t >= options.since && event.t < until && (worker === undefined || event.worker === worker),
		);
		if (pending.length === 0) return stored;
		return [...stored, ...pending].sort((a, b) => a.t - b.t).slice(-limit);
	}

	/** The newest event row's id in the whole store (0 when none): one read of the table's last row. */
	lastEventId(): number {
		return this.#store.read(() => this.#store.get<{id: number | null}>('SELECT max(id) AS id FROM event')?.id ?? 0, 0);
	}

	/**
	 * The miners with an event of `kind` that another writer than `writer` stored in rows (`after`, `upTo`]: a range of
	 * row ids, so only the rows stored since the last look are read.
	 */
	minersWithOthers(options: {readonly after: number; readonly upTo: number; readonly writer: number; readonly kind: string}): number[] {
		return this.#store.read(
			() =>
				this.#store
					.all<{miner: number}>(
						'SELECT DISTINCT miner FROM event WHERE id > ? AND id <= ? AND writer <> ? AND kind = ?',
						options.after,
						options.upTo,
						options.writer,
						options.kind,
					)
					.map((row) => row.miner),
			[],
		);
	}

	/** A miner's stored events of `kind` from `since` that another writer than `writer` stored, oldest first; the newest `limit`. */
	othersEvents(
		miner: number,
		options: {readonly since: number; readonly writer: number; readonly kind: string; readonly limit: number},
	): StoredEvent[] {
		const workerColumn = this.#store.hasWorkers ? 'worker' : 'NULL AS worker';
		const sql = `SELECT t, kind, severity, text, ${workerColumn} FROM event WHERE miner = ? AND t >= ? AND writer <> ? AND kind = ? ORDER BY t DESC, id DESC LIMIT ?`;
		return this.#store.read(
			() =>
				this.#store
					.all<StoredEvent & {worker: string | null}>(sql, miner, options.since, options.writer, options.kind, options.limit)
					.map(eventFromRow)
					.reverse(),
			[],
		);
	}

	/**
	 * A mark of a miner's newest stored event (its row id), which changes when anyone — this rigtop or another, such
	 * as `rigtop config set` — stores a newer one; 0 when none. One indexed read.
	 */
	lastEvent(miner: number): number {
		return this.#store.read(
			() => this.#store.get<{id: number}>('SELECT id FROM event WHERE miner = ? ORDER BY t DESC, id DESC LIMIT 1', miner)?.id ?? 0,
			0,
		);
	}

	/**
	 * The stored rows of a miner in [from, to), oldest first, from the finest tier for each time (the polls of the
	 * last hour, minute summaries before them, 10-minute summaries before those): what `rigtop history` prints.
	 */
	rows(miner: number, options: {readonly from: number; readonly to: number}): StoredRow[] {
		return this.#store.read(() => {
			const out: StoredRow[] = [];
			for (const segment of segmentsFor(this.#coverage(miner), options.from, options.to, 0)) {
				if (segment.tier === 'sample') {
					for (const row of this.#store
						.all<SampleColumns>(sampleSql(this.#store.hasSensors), miner, segment.from, segment.to)
						.map(sampleFromColumns))
						out.push({...sampleAsSummary(row), resolution: 0});
				} else {
					for (const row of this.#store.all<SummaryColumns>(
						summarySql(segment.resolution, this.#store.hasSensors),
						miner,
						segment.from - segment.resolution + 1,
						segment.to,
					)) {
						out.push({...summaryFromColumns(row), resolution: segment.resolution});
					}
				}
			}

			return out;
		}, []);
	}

	/**
	 * The few stored rows of a miner in [from, to) that say since when its accepted count has been `good` (the monitor's
	 * last share, history/last-share.ts), oldest first, from the tiers rows() reads: walking back a tier's part at a
	 * time, its newest row with another count and the earliest row with `good` after it; the walk ends at the first
	 * part with another count. Two reads a part on the (miner, t) key, not a day of rows.
	 */
	countRun(miner: number, options: {readonly from: number; readonly to: number; readonly good: number}): CountRow[] {
		return this.#store.read(() => {
			const out: CountRow[] = [];
			const segments = segmentsFor(this.#coverage(miner), options.from, options.to, 0);
			for (const segment of segments.reverse()) {
				const {resolution} = segment;
				const table = segment.tier === 'sample' ? 'sample' : summaryTable(resolution);
				// A summary's bucket starts up to a bucket before the segment (as rows() reads it).
				const lo = segment.tier === 'sample' ? segment.from : segment.from - resolution + 1;
				const other = this.#store.get<{t: number; good: number}>(
					`SELECT t, good FROM ${table} WHERE miner = ? AND t >= ? AND t < ? AND good IS NOT NULL AND good != ? ORDER BY t DESC LIMIT 1`,
					miner,
					lo,
					segment.to,
					options.good,
				);
				const same = this.#store.get<{t: number | null}>(
					`SELECT min(t) AS t FROM ${table} WHERE miner = ? AND t >= ? AND t < ? AND good = ?`,
					miner,
					other ? other.t + 1 : lo,
					segment.to,
					options.good,
				);
				if (same?.t != null) out.unshift({t: same.t, good: options.good, resolution});
				if (other) {
					out.unshift({t: other.t, good: other.good, resolution});
					break;
				}
			}

			return out;
		}, []);
	}

	/** What each tier of a miner holds: [lo, hi) per tier, for the tiers that hold anything. */
	#coverage(miner: number): Coverage[] {
		const out: Coverage[] = [];
		const samples = this.#store.get<{lo: number | null; hi: number | null}>(
			'SELECT min(t) AS lo, max(t) AS hi FROM sample WHERE miner = ?',
			miner,
		);
		if (samples?.lo != null && samples.hi != null) out.push({tier: 'sample', resolution: 0, lo: samples.lo, hi: samples.hi + 1});
		for (const tier of [MINUTE_TIER, TEN_MINUTE_TIER]) {
			const row = this.#store.get<{lo: number | null; hi: number | null}>(
				`SELECT min(t) AS lo, max(t) AS hi FROM ${tier.table} WHERE miner = ?`,
				miner,
			);
			if (row?.lo != null && row.hi != null)
				out.push({tier: tier.name, resolution: tier.resolution, lo: row.lo, hi: row.hi + tier.resolution});
		}

		return out.map((finer) => {
			const wholeIn = out
				.filter((coarser) => coarser.resolution > finer.resolution && finer.lo >= coarser.lo && finer.lo < coarser.hi)
				.filter((coarser) => this.#holdsWhole(miner, finer, coarser))
				.map((coarser) => coarser.resolution);
			return wholeIn.length > 0 ? {...finer, wholeIn} : finer;
		});
	}

	/** Whether `finer` holds every poll of the `coarser` bucket that its first time falls in (by the polls counted). */
	#holdsWhole(miner: number, finer: Coverage, coarser: Coverage): boolean {
		const key = `${this.#store.generation}:${miner}:${finer.resolution}:${finer.lo}:${coarser.resolution}:${coarser.lo}`;
		const known = this.#whole.get(key);
		if (known !== undefined) return known;
		const start = Math.floor(finer.lo / coarser.resolution) * coarser.resolution;
		const end = start + coarser.resolution;
		const summarized =
			this.#store.get<{n: number | null}>(`SELECT n FROM ${summaryTable(coarser.resolution)} WHERE miner = ? AND t = ?`, miner, start)?.n ??
			0;
		const held =
			finer.tier === 'sample'
				? this.#store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ? AND t >= ? AND t < ?', miner, start, end)?.n
				: this.#store.get<{n: number | null}>(
						`SELECT sum(n) AS n FROM ${summaryTable(finer.resolution)} WHERE miner = ? AND t >= ? AND t < ?`,
						miner,
						start,
						end,
					)?.n;
		const whole = (held ?? 0) >= summarized;
		if (this.#whole.size >= 4096) this.#whole.clear();
		this.#whole.set(key, whole);
		return whole;
	}
}

/**
 * The series of polls held elsewhere than in the store (a session's memory, with history off), cut into buckets as
 * `HistoryReader.series` cuts the stored ones: the screens draw either the same way.
 */
export function seriesOfSamples(
	miner: number,
	samples: Iterable<SampleRow>,
	options: {readonly from: number; readonly to: number; readonly points: number},
): Series {
	const points = Math.max(1, Math.floor(options.points));
	const {from, to} = options;
	const step = Math.max(1, (to - from) / points);
	const builders: (Builder | null)[] = Array.from({length: points}, () => null);
	if (to > from) {
		for (const row of samples) {
			if (row.t < from || row.t >= to) continue;
			const i = Math.min(points - 1, Math.floor((row.t - from) / step));
			let bucket = builders[i];
			if (!bucket) {
				bucket = builder(from + i * step);
				builders[i] = bucket;
			}

			mergeInto(bucket, sampleAsSummary(row));
		}
	}

	return {miner, from, to, step, points: builders.map((bucket, i) => (bucket ? toPoint(finish(bucket)) : emptyPoint(from + i * step)))};
}

/**
 * Which tier each part of [from, to) is read from. The preferred tier is the coarsest whose resolution is within
 * `step`; after its last bucket the finer tiers take over (the coarsest one that holds the time), before its first
 * the coarser ones (the finest one that holds it). Exported for tests.
 */
export function segmentsFor(coverage: readonly Coverage[], from: number, to: number, step: number): Segment[] {
	if (coverage.length === 0 || !(to > from)) return [];
	const sorted = [...coverage].sort((a, b) => a.resolution - b.resolution);
	// Where a finer tier begins inside a bucket of the next coarser one, that whole bucket is the coarser tier's (it
	// summarizes the polls the finer tier no longer has): the finer tier starts at the bucket's end. But where the finer
	// tier still holds every poll of that bucket (a young miner), the bucket is the finer tier's, from its start: its
	// polls, not their summary. Either way nothing counts twice.
	const byFineness = sorted.map((tier, i) => {
		const coarser = sorted.slice(i + 1).find((c) => c.resolution > tier.resolution && tier.lo >= c.lo && tier.lo < c.hi);
		if (!coarser) return tier;
		if (tier.wholeIn?.includes(coarser.resolution)) return {...tier, lo: Math.floor(tier.lo / coarser.resolution) * coarser.resolution};
		const aligned = Math.ceil(tier.lo / coarser.resolution) * coarser.resolution;
		return {...tier, lo: Math.min(aligned, tier.hi)};
	});
	const acceptable = byFineness.filter((c) => c.resolution <= step);
	const preferred = acceptable.at(-1) ?? byFineness[0];
	if (!preferred) return [];
	const owner = (t: number): Coverage | null => {
		if (t >= preferred.lo && t < preferred.hi) return preferred;
		if (t >= preferred.hi) {
			// Newer than the preferred tier holds: the coarsest finer tier holding t.
			const finer = byFineness.filter((c) => c.resolution < preferred.resolution && t >= c.lo && t < c.hi);
			return finer.at(-1) ?? null;
		}

		// Older: the finest coarser tier holding t.
		const coarser = byFineness.filter((c) => c.resolution > preferred.resolution && t >= c.lo && t < c.hi);
		return coarser[0] ?? null;
	};

	const cuts = new Set<number>([from, to]);
	for (const c of byFineness) {
		for (const t of [c.lo, c.hi]) if (t > from && t < to) cuts.add(t);
	}

	const edges = [...cuts].sort((a, b) => a - b);
	const segments: Segment[] = [];
	for (let i = 0; i + 1 < edges.length; i++) {
		const a = edges[i] ?? from;
		const b = edges[i + 1] ?? to;
		const tier = owner(a);
		if (!tier) continue;
		const last = segments.at(-1);
		if (last && last.tier === tier.tier && last.to === a) segments[segments.length - 1] = {...last, to: b};
		else segments.push({tier: tier.tier, resolution: tier.resolution, from: a, to: b});
	}

	return segments;
}

function toPoint(row: SummaryRow): SeriesPoint {
	return {
		t: row.t,
		samples: row.n,
		live: row.live,
		min: row.hrMin,
		avg: row.hrAvg,
		max: row.hrMax,
		avg60: row.hr60,
		avg15: row.hr15,
		pool: row.live > 0 ? row.pool / row.live : null,
		paused: row.live > 0 ? row.paused / row.live : null,
		link: row.n > 0 ? linkName(row.link) : null,
		good: row.good,
		total: row.total,
		rejected: row.rejected,
		...(row.sensors ? {sensors: row.sensors} : {}),
	};
}

function emptyPoint(t: number): SeriesPoint {
	return {
		t,
		samples: 0,
		live: 0,
		min: null,
		avg: null,
		max: null,
		avg60: null,
		avg15: null,
		pool: null,
		paused: null,
		link: null,
		good: null,
		total: null,
		rejected: null,
	};
}

/** A miner's last seen: its newest poll stored (an indexed read: the sample table's key), or its row's if newer. */
const LAST_SEEN_SQL = 'max(m.last_seen, coalesce((SELECT max(s.t) FROM sample s WHERE s.miner = m.miner), 0))';

type MinerColumns = {
	miner: number;
	name: string;
	url: string;
	api_id: string | null;
	worker: string | null;
	kind: string | null;
	first_seen: number;
	last_seen: number;
};

/** An event row as shown: its text and worker cleaned (a row may be from before rigtop cleaned what miners send). */
function eventFromRow(row: StoredEvent & {worker: string | null}): StoredEvent {
	const event = {t: row.t, kind: cleanText(row.kind, 40), severity: cleanText(row.severity, 40), text: cleanText(row.text, EVENT_TEXT_MAX)};
	return row.worker === null ? event : {...event, worker: cleanText(row.worker)};
}

function minerFromColumns(row: MinerColumns): StoredMiner {
	return {
		id: row.miner,
		name: cleanText(row.name),
		url: row.url,
		apiId: cleanOrNull(row.api_id),
		workerId: cleanOrNull(row.worker),
		kind: cleanOrNull(row.kind),
		firstSeen: row.first_seen,
		lastSeen: row.last_seen,
	};
}

function blankToNull(value: string | null): string | null {
	return value === null || value.trim() === '' ? null : value;
}
