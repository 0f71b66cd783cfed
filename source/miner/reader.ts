import type {MinerClient} from './client.js';
import {detectDialect, probe, probeValue, raiseProbeError, type Detection} from './dialect.js';
import type {Dialect, MinerSnapshot} from './model.js';
import {identityOf, normalizeSnapshot, type MinerIdentity} from './normalize.js';
import {normalizeProxySnapshot} from './normalize-proxy.js';
import {isBackendsShape, isProxySummaryShape, isProxyWorkersShape, isSummaryShape, isThreadsShape} from './shapes.js';

/** What one read fetches. */
export type ReadOptions = {
	/**
	 * Read the per-thread document too (default true). false reads the summary alone — the fleet view and the alerts
	 * need nothing more — and the snapshot's threads and backends are what the summary itself says (often nothing).
	 * Its `dialect` stays the miner's. Finding the dialect (first read, restart) reads both either way.
	 */
	readonly perThread?: boolean;
};

/**
 * Reads one miner: finds its dialect once, then each read() fetches the summary and the per-thread document (in
 * parallel) and normalizes them.
 *
 * The dialect is found again — once per change — when the miner restarted or was replaced: its uptime went down, its
 * id or version changed, or a path the dialect uses answered 404 or a document of the wrong shape. A failed read
 * (miner down, auth…) keeps the dialect.
 *
 * A fall back to a poorer dialect by the SAME miner process (e.g. /2/backends answered 404 for a while, so only the
 * summary could be read) is not final: until that process answers in the richer dialect again (or another process
 * takes its place), each read detects afresh, so the per-thread data comes back within one poll of the fault ending.
 */
export class MinerReader {
	readonly client: MinerClient;
	#dialect: Dialect | null = null;
	#identity: MinerIdentity | null = null;
	/** The richer dialect this miner process answered in before it fell back, while it has not answered in it again. */
	#degradedFrom: Dialect | null = null;

	constructor(client: MinerClient) {
		this.client = client;
	}

	get dialect(): Dialect | null {
		return this.#dialect;
	}

	/** One poll. Throws MinerError (or the abort reason when `signal` aborts). */
	async read(signal?: AbortSignal, options: ReadOptions = {}): Promise<MinerSnapshot> {
		const dialect = this.#dialect;
		if (dialect !== null && this.#degradedFrom === null) {
			const fetched = await this.#fetch(dialect, options.perThread !== false, signal);
			if (fetched !== null && !this.#changed(identityOf(fetched.summary))) {
				return this.#accept(fetched, dialect);
			}

			this.#dialect = null;
		}

		return this.#accept(await detectDialect(this.client, signal), dialect);
	}

	#accept(found: Detection | Fetched, previous: Dialect | null): MinerSnapshot {
		const summaryOnly = 'summaryOnly' in found && found.summaryOnly;
		const snapshot =
			found.dialect.name === 'proxy' && summaryOnly
				? normalizeProxySnapshot(found.summary, undefined)
				: summaryOnly
					? {...normalizeSnapshot('v1-summary-only', found.summary, null), dialect: found.dialect.name, perThreadRead: false}
					: normalizeSnapshot(found.dialect.name, found.summary, found.perThread);
		const sameProcess = !this.#changed(identityOf(found.summary));
		const richest = this.#degradedFrom ?? previous;
		this.#degradedFrom = sameProcess && richest !== null && richness(found.dialect) < richness(richest) ? richest : null;
		this.#dialect = found.dialect;
		this.#identity = identityOf(found.summary);
		return snapshot;
	}

	/** The documents of a known dialect, or null when the miner no longer answers in it (404 or a wrong shape). */
	async #fetch(dialect: Dialect, withThreads: boolean, signal?: AbortSignal): Promise<Fetched | null> {
		if (dialect.name === 'proxy') {
			return this.#fetchProxy(dialect, withThreads, signal);
		}

		const {summaryPath} = dialect;
		const threadsPath = withThreads ? dialect.threadsPath : null;
		const [summary, perThread] = await Promise.all([
			probe(this.client, summaryPath, signal),
			threadsPath === null ? Promise.resolve({value: null}) : probe(this.client, threadsPath, signal),
		]);
		raiseProbeError(summary);
		raiseProbeError(perThread);
		const summaryValue = probeValue(summary, isSummaryShape);
		const threadsShape = threadsPath === null ? () => true : threadsPath === '/1/threads' ? isThreadsShape : isBackendsShape;
		const threadsValue = probeValue(perThread, threadsShape);
		if (!summaryValue.ok || !threadsValue.ok) {
			return null;
		}

		return {dialect, summary: summaryValue.value, perThread: threadsValue.value, summaryOnly: !withThreads && dialect.threadsPath !== null};
	}

	/**
	 * xmrig-proxy's summary and, when asked, its `/1/workers` (in parallel). null when the summary is no longer a
	 * proxy's. A `/1/workers` that answers 404 or another document is a proxy that lists no workers (perThread null).
	 */
	async #fetchProxy(dialect: Dialect, withWorkers: boolean, signal?: AbortSignal): Promise<Fetched | null> {
		const [summary, workers] = await Promise.all([
			probe(this.client, dialect.summaryPath, signal),
			withWorkers ? probe(this.client, '/1/workers', signal) : Promise.resolve({value: null}),
		]);
		raiseProbeError(summary);
		raiseProbeError(workers);
		const summaryValue = probeValue(summary, isProxySummaryShape);
		if (!summaryValue.ok) {
			return null;
		}

		const list = probeValue(workers, isProxyWorkersShape);
		return {dialect, summary: summaryValue.value, perThread: list.ok ? list.value : null, summaryOnly: !withWorkers};
	}

	/** Whether this summary comes from another miner process than the last one read. */
	#changed(next: MinerIdentity): boolean {
		const last = this.#identity;
		if (last === null) {
			return false;
		}

		return (
			(last.id !== null && next.id !== null && last.id !== next.id) ||
			(last.version !== null && next.version !== null && last.version !== next.version) ||
			(last.uptime !== null && next.uptime !== null && next.uptime < last.uptime)
		);
	}
}

/** A read of a known dialect; `summaryOnly` when the per-thread document was left out on purpose. */
type Fetched = Detection & {readonly summaryOnly: boolean};

/** How much a dialect reads: per-thread detail from the modern endpoints, from the old ones, or the summary alone. */
function richness(dialect: Dialect): number {
	switch (dialect.name) {
		case 'v2':
		case 'proxy':
			return 3;
		case 'v2-legacy-summary':
		case 'v1':
			return 2;
		case 'v1-summary-only':
			return 1;
	}
}
