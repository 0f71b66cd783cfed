/**
 * Writes polls and events into the store under the miner's identity, and makes the summary tiers.
 *
 * Identity (which stored miner a watched one is): the API's `id`; where the id is new, a stored miner of
 * the same worker id on the same host that was last seen before this miner process started (its uptime
 * says when) — XMRig derives its id from the API port unless `api.id` is set, so a miner restarted on a
 * new random port has a new id and continues its history this way, while two miners running at once
 * on one host never merge (nor does another miner that now answers at a session's address: a new id is
 * the same miner only when the uptime shows the same process, `api.id` changed live); without an id, the
 * worker id and host; without both, the URL. Before the
 * first answer, polls go to the miner last seen at the URL (or a new one, merged into the real one as
 * soon as the miner says who it is).
 *
 * Two rigtops on the same miner: a poll within ¾ of an interval of one already stored is not stored
 * again, and an event of the miner's state (or of the same text) that another rigtop stored within a minute
 * is not stored twice, unless an event that ends it lies between the two (ENDED_BY). A rigtop's own access trouble (its token refused: an event's `watcher`) is not stored at all. Summaries are made from the stored polls and replace themselves, so whoever
 * makes them, they are the same.
 */
import {EVENT_KINDS, kindRow, kindsWhere, type EventKind, type KindRow} from '../monitor/event-kinds.js';
import {hostOf} from '../monitor/name.js';
import {cleanText} from '../text/clean.js';
import {identify, type IdentityFacts} from './identity.js';
import type {HistoryStore} from './store.js';
import {
	EVENT_MAX_ROWS,
	EVENT_TEXT_MAX,
	SAMPLE_TIER,
	SUMMARY_TIERS,
	encodeSampleSensors,
	encodeSummarySensors,
	sampleAsSummary,
	sampleColumnsSql,
	sampleFromColumns,
	summarizeSummaries,
	summaryColumnsSql,
	summaryFromColumns,
	type SampleColumns,
	type SampleRow,
	type SummaryColumns,
	type SummaryRow,
	type SummaryTier,
	type Tier,
} from './tiers.js';

/** One poll of one watched miner (`slot`: its place in the session). */
export type Observation = {
	readonly slot: number;
	/** Base URL, without credentials. */
	readonly url: string;
	/** The rig's name (monitor/name.ts, rigName): the rigs file's, else host:port. */
	readonly name: string;
	/**
	 * The name is the rigs file's. A rig written without one (host:port) keeps the name a rigs file gave it before, so
	 * a run without the file does not rename it; a name given replaces any other.
	 */
	readonly named?: boolean;
	/** Null for a failed poll. */
	readonly facts: IdentityFacts | null;
	readonly sample: SampleRow;
	/** A poll closer than this to one already stored (by any rigtop) is not stored (¾ of the poll interval). */
	readonly spacingMs: number;
	/**
	 * A proxy's worker (its name): the sample is the worker's, stored under the worker of that name of the slot's proxy
	 * (written after the proxy's own poll in the same batch; never waiting for an answer: the proxy answered).
	 */
	readonly worker?: string;
};

export type EventRecord = {
	readonly slot: number;
	readonly url: string;
	/** As an observation's. */
	readonly name: string;
	readonly named?: boolean;
	readonly t: number;
	readonly kind: string;
	readonly severity: string;
	readonly text: string;
	/**
	 * Who the miner is, for an event written without a poll of this writer before it (`rigtop config set`): the
	 * event goes to the miner these facts identify. Without them, to the miner last seen at the URL.
	 */
	readonly facts?: IdentityFacts | null;
	/** The proxy's worker the event is about (stored with the proxy's events, named); absent for the miner's own. */
	readonly worker?: string | null;
	/** About the watching rigtop's own access (MinerEvent's `watcher`): kept by its recorder, never written. */
	readonly watcher?: true;
};

/** How often the summaries are made (and the bounds applied) per miner. */
const SUMMARIZE_EVERY_MS = 10 * 60_000;

/** A miner's row (last seen, URL, name) is written at most this often while nothing about it changes. */
const TOUCH_EVERY_MS = 60_000;

/** Events from another rigtop within this window are taken as the same happening. */
export const EVENT_DEDUPE_MS = 60_000;

/**
 * Which stored event of another rigtop an event is the same happening as (its row's `stored`, monitor/event-kinds.ts):
 * a kind of the miner's own state changes ('state'): two rigtops see the same one, with words that may differ ("down:
 * connection refused" / "down: timed out"), so any two within the window are one; other kinds ('text', and any kind
 * this rigtop does not know) count as the same only with the same text; a rigtop's own kinds ('own') never do.
 */
function storedAs(kind: string): KindRow['stored'] {
	return kindRow(kind)?.stored ?? 'text';
}

/**
 * What ends a state a kind begins (and the reverse): another rigtop's event is the same happening only while no such
 * event lies between the two. Without it, a rig that went down twice within the window (a flap, or a rigtop started
 * again after the first) lost its second outage: the first, stored by the rigtop before, was taken for it. Read from
 * the catalogue: among the state kinds, the kinds that end the trouble a kind begins and those that begin one it
 * ends (its pair), and its row's `endedBy`.
 */
export const ENDED_BY: ReadonlyMap<string, readonly EventKind[]> = new Map<string, readonly EventKind[]>(
	kindsWhere((row) => row.stored === 'state').flatMap((kind) => {
		const row: KindRow = EVENT_KINDS[kind];
		const pair = kindsWhere(
			(other) =>
				other.stored === 'state' &&
				((row.begins !== undefined && (other.ends ?? []).includes(row.begins)) ||
					(other.begins !== undefined && (row.ends ?? []).includes(other.begins))),
		);
		const ended = [...pair, ...((row.endedBy ?? []) as readonly EventKind[])];
		return ended.length === 0 ? [] : [[kind, ended] as const];
	}),
);

/**
 * Another rigtop's event `e` of the same miner (and worker, where the query says) is this event's happening: within
 * EVENT_DEDUPE_MS, the same text or (for a state kind) the same kind, and nothing between the two that ends it
 * (ENDED_BY, passed as a JSON list). Parameters: #sameHappening.
 */
const SAME_HAPPENING = `e.t BETWEEN ? - ? AND ? + ? AND e.writer <> ? AND (e.text = ? OR (? AND e.kind = ?))
	AND NOT EXISTS (SELECT 1 FROM event x WHERE x.miner = e.miner AND x.worker IS e.worker
		AND x.kind IN (SELECT value FROM json_each(?)) AND x.t > min(e.t, ?) AND x.t < max(e.t, ?))`;

/** The text as stored: cleaned (source/text/clean.ts), no secret of the session in it, at most EVENT_TEXT_MAX characters. */
function storedEventText(text: string, secrets: readonly string[]): string {
	return cleanText(text, EVENT_TEXT_MAX, secrets);
}

type Slot = {
	readonly miner: number;
	readonly generation: number;
	/** Resolved from the URL alone (no good poll yet). */
	readonly provisional: boolean;
	readonly apiId: string | null;
	readonly workerId: string | null;
	/** The last good poll's uptime (s) and time: whether a new id still comes from the same process. */
	readonly uptimeS: number | null;
	readonly at: number;
};

/** What waits for a miner's first answer (see the top). */
type Waiting = {readonly observations: Observation[]; readonly events: EventRecord[]};

/**
 * What waits, within bounds: the polls of the last span the store keeps polls for (older ones would be pruned
 * unsummarized as soon as they were written) and at most as many as it keeps; the newest events it keeps.
 */
function bounded(entry: Waiting): Waiting {
	const newest = entry.observations.at(-1)?.sample.t ?? 0;
	const observations = entry.observations.filter((observation) => observation.sample.t >= newest - SAMPLE_TIER.keepMs);
	return {observations: observations.slice(-SAMPLE_TIER.maxRows), events: entry.events.slice(-EVENT_MAX_ROWS)};
}

export type HistoryWriterOptions = {
	/** Tells the events of this process from other rigtops' (random by default). */
	readonly writerId?: number;
	readonly now?: () => number;
	/** Strings never stored (the access tokens of the session): replaced by "***" in event texts. */
	readonly secrets?: readonly string[];
};

export class HistoryWriter {
	readonly #store: HistoryStore;
	readonly #writerId: number;
	readonly #now: () => number;
	readonly #secrets: readonly string[];
	#slots = new Map<number, Slot>();
	/** Per miner: the minute / ten-minute bucket up to which summaries are made. */
	#rolled = new Map<string, number>();
	#lastPrune = new Map<number, number>();
	/** When each miner's row was last written, and what it said; the newest poll time per miner. */
	#touched = new Map<number, {at: number; url: string; name: string}>();
	#seen = new Map<number, number>();
	/** Per slot: the polls and events of a miner that has not answered yet and is not in the store (see the top). */
	#waiting = new Map<number, Waiting>();
	/** A proxy's stored workers by proxy and name (workerKey). */
	#workers = new Map<string, number>();
	#generation: number;

	constructor(store: HistoryStore, options: HistoryWriterOptions = {}) {
		this.#store = store;
		this.#writerId = options.writerId ?? Math.floor(Math.random() * 2 ** 31);
		this.#now = options.now ?? Date.now;
		this.#secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4);
		this.#generation = store.generation;
	}

	get writerId(): number {
		return this.#writerId;
	}

	/** An event's text as it will be stored (the session's secrets replaced, cut to length). */
	storedText(text: string): string {
		return storedEventText(text, this.#secrets);
	}

	/** The stored miner a session's miner is written as, or null before its first write. */
	minerOf(slot: number): number | null {
		this.#checkGeneration();
		return this.#slots.get(slot)?.miner ?? null;
	}

	/**
	 * Writes polls and events in one transaction, then makes the summaries that became due. False when nothing
	 * was written (another rigtop held the store past the wait, or the store is off): keep them for the next try.
	 */
	write(observations: readonly Observation[], events: readonly EventRecord[]): boolean {
		if (!this.#store.enabled) return false;
		this.#checkGeneration();
		if (observations.length === 0 && events.length === 0) return true;
		const slots = new Map(this.#slots);
		const touched = new Set<number>();
		// What waits for a first answer after this write, and the slots whose waiting polls and events it writes.
		const waiting = new Map<number, Waiting>();
		const released = new Set<number>();
		const waitFor = (slot: number) => {
			let entry = waiting.get(slot);
			if (!entry) {
				const before = this.#waiting.get(slot);
				entry = {observations: [...(before?.observations ?? [])], events: [...(before?.events ?? [])]};
				waiting.set(slot, entry);
			}

			return entry;
		};

		const ok = this.#store.write(() => {
			for (const observation of observations) {
				if (observation.worker !== undefined) {
					const proxy = slots.get(observation.slot);
					if (!proxy || proxy.provisional || !this.#store.hasWorkers) continue;
					const worker = this.#workerMiner(proxy.miner, observation.worker, observation.url, observation.sample.t);
					touched.add(worker);
					this.#insertSample(worker, observation.sample, observation.spacingMs);
					continue;
				}

				const miner = this.#resolve(slots, observation.slot, observation.url, observation, observation.facts, observation.sample.t);
				if (miner === null) {
					waitFor(observation.slot).observations.push(observation);
					continue;
				}

				touched.add(miner);
				if (!released.has(observation.slot)) {
					released.add(observation.slot);
					const held = waiting.get(observation.slot) ?? this.#waiting.get(observation.slot);
					if (held) this.#release(miner, held);
				}

				this.#insertSample(miner, observation.sample, observation.spacingMs);
			}

			for (const event of events) {
				// A rigtop's own access trouble is not the rig's: never stored (its recorder keeps it for its session).
				if (event.watcher === true) continue;
				const miner = slots.get(event.slot)?.miner ?? this.#resolve(slots, event.slot, event.url, event, event.facts ?? null, event.t);
				if (miner === null) {
					waitFor(event.slot).events.push(event);
					continue;
				}

				touched.add(miner);
				this.#insertEvent(miner, event);
			}
		});
		if (!ok) return false;
		if (this.#store.generation !== this.#generation) return false; // the file was replaced while writing
		this.#slots = slots;
		for (const slot of released) this.#waiting.delete(slot);
		for (const [slot, entry] of waiting) if (!released.has(slot)) this.#waiting.set(slot, bounded(entry));
		this.summarize([...touched]);
		return true;
	}

	/**
	 * The stored worker of this name behind a stored proxy, as written (null before its first poll is written). Never
	 * writes or reads.
	 */
	workerOf(proxy: number, name: string): number | null {
		this.#checkGeneration();
		return this.#workers.get(workerKey(proxy, name)) ?? null;
	}

	/** Whether the slot's miner has never answered and is not in the store: its polls and events wait for an answer. */
	waits(slot: number): boolean {
		return this.#waiting.has(slot) && this.minerOf(slot) === null;
	}

	/**
	 * Every ten minutes per miner, makes the summaries of the complete minutes and ten-minute spans not made yet (and
	 * makes again the last one before, for polls another rigtop stored late), and applies the bounds. `force`: now,
	 * whatever was done before (closing, or a --once that writes one poll).
	 */
	summarize(miners: readonly number[], force = false): void {
		const now = this.#now();
		// Every ten minutes: a summary transaction dirties a few pages whatever it holds, so ten minutes of them go in
		// one (the reader takes the last minutes from the polls meanwhile).
		const round = Math.floor(now / SUMMARIZE_EVERY_MS);
		const due = miners.filter((miner) => force || this.#rolled.get(`round:${miner}`) !== round);
		if (due.length > 0) {
			const before = new Map(this.#rolled);
			const ok = this.#store.write(() => {
				for (const miner of due) {
					for (const tier of SUMMARY_TIERS) this.#roll(miner, tier, now);
					this.#rolled.set(`round:${miner}`, round);
				}
			});
			// Not made (another rigtop held the store): made at the next write.
			if (!ok) this.#rolled = before;
		}

		if (force) {
			// Closing: the miners' last-seen times to the last poll.
			const seen = miners.flatMap((miner) => {
				const at = this.#seen.get(miner);
				return at === undefined ? [] : [[miner, at] as const];
			});
			if (seen.length > 0) {
				this.#store.write(() => {
					for (const [miner, at] of seen) this.#store.run('UPDATE miner SET last_seen = max(last_seen, ?) WHERE miner = ?', at, miner);
				});
			}
		}

		const prune = miners.filter((miner) => force || now - (this.#lastPrune.get(miner) ?? 0) >= SUMMARIZE_EVERY_MS);
		if (prune.length > 0) {
			for (const miner of prune) this.#lastPrune.set(miner, now);
			this.#store.maintain(now, prune);
		}
	}

	#checkGeneration(): void {
		if (this.#store.generation === this.#generation) return;
		// A fresh file: the miner ids of the old one mean nothing in it.
		this.#generation = this.#store.generation;
		this.#slots = new Map();
		this.#rolled = new Map();
		this.#lastPrune = new Map();
		this.#touched = new Map();
		this.#seen = new Map();
		this.#workers = new Map();
	}

	/**
	 * The stored worker `name` of the stored proxy `proxy`: found, or made (a row of `miner` of kind 'proxy-worker',
	 * no ids and a URL of its own, so no miner is ever taken for it, tied to the proxy in `proxy_worker`).
	 */
	#workerMiner(proxy: number, name: string, proxyUrl: string, at: number): number {
		const key = workerKey(proxy, name);
		let miner = this.#workers.get(key) ?? null;
		if (miner === null) {
			miner = this.#store.get<{miner: number}>('SELECT miner FROM proxy_worker WHERE proxy = ? AND name = ?', proxy, name)?.miner ?? null;
			// A name stored raw before text was cleaned where it enters (text/clean.ts) is this worker: no split.
			miner ??=
				this.#store
					.all<{miner: number; name: string}>('SELECT miner, name FROM proxy_worker WHERE proxy = ? AND name <> ?', proxy, name)
					.find((row) => cleanText(row.name) === name)?.miner ?? null;
			if (miner === null) {
				const result = this.#store.run(
					'INSERT INTO miner (api_id, worker, host, url, name, kind, first_seen, last_seen) VALUES (NULL, NULL, ?, ?, ?, ?, ?, ?)',
					hostOf(proxyUrl),
					workerUrl(proxyUrl, name),
					name,
					WORKER_KIND,
					at,
					at,
				);
				miner = Number(result.lastInsertRowid);
				this.#store.run('INSERT INTO proxy_worker (miner, proxy, name) VALUES (?, ?, ?)', miner, proxy, name);
			}

			this.#workers.set(key, miner);
		}

		const touched = this.#touched.get(miner);
		if (!touched || at - touched.at >= TOUCH_EVERY_MS) {
			this.#touched.set(miner, {at, url: proxyUrl, name});
			this.#store.run('UPDATE miner SET last_seen = max(last_seen, ?) WHERE miner = ?', at, miner);
		}

		this.#seen.set(miner, Math.max(at, this.#seen.get(miner) ?? at));
		return miner;
	}

	// ---- identity ----

	/** The stored miner of the slot; null for a miner that has not answered and is not in the store (nothing written). */
	#resolve(
		slots: Map<number, Slot>,
		slot: number,
		url: string,
		who: Pick<Observation, 'name' | 'named'>,
		facts: IdentityFacts | null,
		at: number,
	): number | null {
		const {name} = who;
		const named = who.named === true;
		const current = slots.get(slot);
		const apiId = facts ? nonEmpty(facts.apiId) : null;
		const workerId = facts ? nonEmpty(facts.workerId) : null;
		if (current && (facts === null || (!current.provisional && current.apiId === apiId && current.workerId === workerId))) {
			if (facts !== null && facts.uptimeS !== null) slots.set(slot, {...current, uptimeS: facts.uptimeS, at});
			// The miner row changes once a minute at most while nothing about it changes: a poll then dirties one page, not two.
			const touched = this.#touched.get(current.miner);
			if (!touched || touched.url !== url || touched.name !== name || at - touched.at >= TOUCH_EVERY_MS) {
				this.#touch(current.miner, url, name, named, facts, at);
			}

			this.#seen.set(current.miner, Math.max(at, this.#seen.get(current.miner) ?? at));
			return current.miner;
		}

		if (facts === null) {
			const known = this.#store.get<{miner: number}>('SELECT miner FROM miner WHERE url = ? ORDER BY last_seen DESC LIMIT 1', url);
			if (known === undefined) return null;
			slots.set(slot, {
				miner: known.miner,
				generation: this.#generation,
				provisional: true,
				apiId: null,
				workerId: null,
				uptimeS: null,
				at,
			});
			this.#touch(known.miner, url, name, named, null, at);
			return known.miner;
		}

		const preferred = current && !current.provisional ? current.miner : null;
		// A new id from the process this session was reading (its uptime went on): `api.id` changed, the same miner.
		const sameProcess = current !== undefined && !current.provisional && continues(current, facts.uptimeS, at);
		const miner =
			identify(this.#store, {url, name, facts: {...facts, apiId, workerId}, at, preferred, sameProcess, claimed: claimedBy(slots, slot)}) ??
			this.#insertMiner(url, name, {...facts, apiId, workerId}, at);
		slots.set(slot, {miner, generation: this.#generation, provisional: false, apiId, workerId, uptimeS: facts.uptimeS, at});
		this.#touch(miner, url, name, named, {...facts, apiId, workerId}, at);
		return miner;
	}

	#insertMiner(url: string, name: string, facts: IdentityFacts | null, at: number): number {
		const result = this.#store.run(
			'INSERT INTO miner (api_id, worker, host, url, name, kind, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
			facts?.apiId ?? null,
			facts?.workerId ?? null,
			hostOf(url),
			url,
			name,
			facts?.kind ?? null,
			at,
			at,
		);
		return Number(result.lastInsertRowid);
	}

	#touch(miner: number, url: string, name: string, named: boolean, facts: IdentityFacts | null, at: number): void {
		this.#touched.set(miner, {at, url, name});
		if (facts === null) {
			this.#store.run('UPDATE miner SET last_seen = max(last_seen, ?) WHERE miner = ?', at, miner);
			return;
		}

		// Plain `?` placeholders, each value passed where it is used: Node before 22.21 cannot bind `?NNN` by position.
		this.#store.run(
			// The name: a rigs file's when one is given; without one (host:port), a rigs file's name stored before (named)
			// is kept, whatever it looks like (a rig named after its worker id keeps that name).
			`UPDATE miner SET last_seen = max(last_seen, ?), url = ?, host = ?,
				name = CASE WHEN ? OR NOT named THEN ? ELSE name END, named = max(named, ?),
				worker = coalesce(?, worker), kind = coalesce(?, kind),
				api_id = CASE WHEN ? IS NULL OR EXISTS (SELECT 1 FROM miner WHERE api_id = ? AND miner <> ?) THEN api_id ELSE ? END
			WHERE miner = ?`,
			at,
			url,
			hostOf(url),
			named ? 1 : 0,
			name,
			named ? 1 : 0,
			facts.workerId,
			facts.kind,
			facts.apiId,
			facts.apiId,
			miner,
			facts.apiId,
			miner,
		);
	}

	/** Writes what waited for the miner's first answer under the miner, which was seen since the first of it. */
	#release(miner: number, held: Waiting): void {
		for (const early of held.observations) this.#insertSample(miner, early.sample, early.spacingMs);
		for (const early of held.events) this.#insertEvent(miner, early);
		let first = Number.POSITIVE_INFINITY;
		for (const early of held.observations) first = Math.min(first, early.sample.t);
		for (const early of held.events) first = Math.min(first, early.t);
		if (Number.isFinite(first)) this.#store.run('UPDATE miner SET first_seen = min(first_seen, ?) WHERE miner = ?', first, miner);
	}

	// ---- rows ----

	#insertSample(miner: number, row: SampleRow, spacingMs: number): void {
		const spacing = Math.max(1, Math.round(spacingMs));
		this.#store.run(
			`INSERT OR IGNORE INTO sample (miner, t, link, hr10, hr60, hr15, good, total, rejected, pool, paused, sensors)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
			WHERE NOT EXISTS (SELECT 1 FROM sample WHERE miner = ? AND t > ? - ? AND t < ? + ?)`,
			miner,
			row.t,
			row.link,
			row.hr10,
			row.hr60,
			row.hr15,
			row.good,
			row.total,
			row.rejected,
			row.pool,
			row.paused,
			encodeSampleSensors(row),
			miner,
			row.t,
			spacing,
			row.t,
			spacing,
		);
	}

	#insertEvent(miner: number, event: EventRecord): void {
		const worker = event.worker ?? null;
		if (worker !== null) {
			if (!this.#store.hasWorkers) return;
			// A worker's event: the same dedupe as the proxy's own, among that worker's events.
			const text = storedEventText(event.text, this.#secrets);
			this.#store.run(
				`INSERT INTO event (miner, t, kind, severity, text, writer, worker)
				SELECT ?, ?, ?, ?, ?, ?, ?
				WHERE NOT EXISTS (SELECT 1 FROM event e WHERE e.miner = ? AND e.worker = ? AND ${SAME_HAPPENING})`,
				miner,
				event.t,
				event.kind,
				event.severity,
				text,
				this.#writerId,
				worker,
				miner,
				worker,
				...this.#sameHappening(event, text),
			);
			return;
		}

		if (storedAs(event.kind) === 'own') {
			this.#store.run(
				'INSERT INTO event (miner, t, kind, severity, text, writer) VALUES (?, ?, ?, ?, ?, ?)',
				miner,
				event.t,
				event.kind,
				event.severity,
				storedEventText(event.text, this.#secrets),
				this.#writerId,
			);
			return;
		}

		const text = storedEventText(event.text, this.#secrets);
		this.#store.run(
			`INSERT INTO event (miner, t, kind, severity, text, writer)
			SELECT ?, ?, ?, ?, ?, ?
			WHERE NOT EXISTS (SELECT 1 FROM event e WHERE e.miner = ? AND e.worker IS NULL AND ${SAME_HAPPENING})`,
			miner,
			event.t,
			event.kind,
			event.severity,
			text,
			this.#writerId,
			miner,
			...this.#sameHappening(event, text),
		);
	}

	/** SAME_HAPPENING's parameters for this event, in order. */
	#sameHappening(event: EventRecord, text: string): readonly (number | string)[] {
		return [
			event.t,
			EVENT_DEDUPE_MS,
			event.t,
			EVENT_DEDUPE_MS,
			this.#writerId,
			text,
			storedAs(event.kind) === 'state' ? 1 : 0,
			event.kind,
			JSON.stringify(ENDED_BY.get(event.kind) ?? []),
			event.t,
			event.t,
		];
	}

	// ---- summaries ----

	/**
	 * Makes the tier's buckets that are complete at `now` and not made yet, from the rows of its source tier (the polls,
	 * or the finer summaries): from the last bucket made (by this writer, else the newest stored) again, for rows
	 * another rigtop stored late, and never from before what the source tier keeps.
	 */
	#roll(miner: number, tier: SummaryTier, now: number): void {
		const key = `${tier.name}:${miner}`;
		const res = tier.resolution;
		const bucket = Math.floor(now / res) * res;
		let from =
			this.#rolled.get(key) ??
			this.#store.get<{t: number | null}>(`SELECT max(t) AS t FROM ${tier.table} WHERE miner = ?`, miner)?.t ??
			null;
		from = Math.max((from ?? 0) - res, bucket - tier.source.keepMs);
		if (from < bucket) {
			for (const summary of summarizeSummaries(this.#sourceRows(tier.source, miner, from, bucket), res)) {
				this.#upsertSummary(miner, tier, summary);
			}
		}

		this.#rolled.set(key, bucket);
	}

	/** A tier's rows of [from, to), oldest first, as summary rows (a poll is a summary of one). */
	#sourceRows(tier: Tier, miner: number, from: number, to: number): SummaryRow[] {
		if (tier.resolution === 0) {
			return this.#store
				.all<SampleColumns>(
					`SELECT ${sampleColumnsSql(true)} FROM ${tier.table} WHERE miner = ? AND t >= ? AND t < ? ORDER BY t`,
					miner,
					from,
					to,
				)
				.map((row) => sampleAsSummary(sampleFromColumns(row)));
		}

		return this.#store
			.all<SummaryColumns>(
				`SELECT ${summaryColumnsSql(true)} FROM ${tier.table} WHERE miner = ? AND t >= ? AND t < ? ORDER BY t`,
				miner,
				from,
				to,
			)
			.map(summaryFromColumns);
	}

	#upsertSummary(miner: number, tier: SummaryTier, row: SummaryRow): void {
		this.#store.run(
			`INSERT OR REPLACE INTO ${tier.table} (miner, t, n, live, hr_n, pool, paused, link, hr_min, hr_avg, hr_max, hr60, hr15, good, total, rejected, sensors)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			miner,
			row.t,
			row.n,
			row.live,
			row.hrN,
			row.pool,
			row.paused,
			row.link,
			row.hrMin,
			row.hrAvg,
			row.hrMax,
			row.hr60,
			row.hr15,
			row.good,
			row.total,
			row.rejected,
			encodeSummarySensors(row.sensors),
		);
	}
}

/** The miners the other slots hold, by their last good poll: a rig beside this one in a fleet is another miner. */
function claimedBy(slots: ReadonlyMap<number, Slot>, slot: number): Set<number> {
	const claimed = new Set<number>();
	for (const [other, held] of slots) if (other !== slot && !held.provisional) claimed.add(held.miner);
	return claimed;
}

/** Whether a poll at `at` with this uptime comes from the process last read at `slot.at` (its uptime went on by the time between). */
function continues(slot: Slot, uptimeS: number | null, at: number): boolean {
	if (slot.uptimeS === null || uptimeS === null) return false;
	const elapsedS = (at - slot.at) / 1000;
	return uptimeS >= slot.uptimeS && Math.abs(uptimeS - slot.uptimeS - elapsedS) <= 5 + elapsedS * 0.02;
}

/** The kind of a stored proxy's worker (its row of `miner`). */
export const WORKER_KIND = 'proxy-worker';

function workerKey(proxy: number, name: string): string {
	return `${proxy}\n${name}`;
}

/** A worker's own URL: the proxy's with the worker's name as its fragment, which no miner's base URL ever equals. */
export function workerUrl(proxyUrl: string, name: string): string {
	return `${proxyUrl}#worker=${encodeURIComponent(name)}`;
}

function nonEmpty(value: string | null): string | null {
	return value === null || value.trim() === '' ? null : value;
}

export type {IdentityFacts} from './identity.js';
