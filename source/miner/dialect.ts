import type {MinerClient} from './client.js';
import {MinerError} from './errors.js';
import type {Dialect, DialectName} from './model.js';
import {isBackendsShape, isProxySummaryShape, isProxyWorkersShape, isSummaryShape, isThreadsShape} from './shapes.js';

/**
 * Which endpoints a miner answers, found from the SHAPE of its payloads (never from a 200 alone: 2.4 – 2.14 answer
 * every GET path with the summary, and another server may answer 200 to anything).
 *
 * 1. `/2/summary` + `/2/backends` (in parallel): both the right shape → 'v2' (2.99 – 6.x).
 *    Only the backends → `/1/summary` must be a summary → 'v2-legacy-summary'.
 * 2. Otherwise `/1/summary` + `/1/threads` (in parallel): `/1/summary` must be a summary; `/1/threads` the threads
 *    object → 'v1' (2.6 – 2.16, GPU forks); a 404 or another shape (2.4 – 2.5 answer the summary) → 'v1-summary-only'.
 * A 404 or a wrong shape means "not this dialect"; any other failure (auth, timeout…) ends detection with its error.
 * A summary with `kind: "proxy"`, from whichever path answered it, is xmrig-proxy → 'proxy': `/1/summary` and
 * `/1/workers` are read (in parallel); a `/1/workers` that answers 404 or something else (2.4 answers every path with
 * the summary) is a proxy that lists no workers.
 */

export const dialects: Readonly<Record<DialectName, Dialect>> = {
	v2: {name: 'v2', summaryPath: '/2/summary', threadsPath: '/2/backends'},
	'v2-legacy-summary': {name: 'v2-legacy-summary', summaryPath: '/1/summary', threadsPath: '/2/backends'},
	v1: {name: 'v1', summaryPath: '/1/summary', threadsPath: '/1/threads'},
	'v1-summary-only': {name: 'v1-summary-only', summaryPath: '/1/summary', threadsPath: null},
	proxy: {name: 'proxy', summaryPath: '/1/summary', threadsPath: '/1/workers'},
};

/** A dialect and the documents read while finding it (so the first read costs no extra requests). */
export type Detection = {readonly dialect: Dialect; readonly summary: unknown; readonly perThread: unknown};

/** The outcome of one GET: a value, 'missing' (404), or an error to report. Never rejects. */
export type Probe = {readonly value: unknown} | {readonly missing: true} | {readonly error: unknown};

export async function probe(client: MinerClient, path: string, signal?: AbortSignal): Promise<Probe> {
	try {
		return {value: await client.getJson(path, signal)};
	} catch (error) {
		return error instanceof MinerError && error.kind === 'not-found' ? {missing: true} : {error};
	}
}

/** Throws the probe's error, if it has one. */
export function raiseProbeError(result: Probe): void {
	if ('error' in result) {
		throw result.error;
	}
}

export function probeValue(result: Probe, isShape: (value: unknown) => boolean): {ok: true; value: unknown} | {ok: false} {
	return 'value' in result && isShape(result.value) ? {ok: true, value: result.value} : {ok: false};
}

function notASummary(path: string, result: Probe): MinerError {
	return 'missing' in result
		? new MinerError('not-found', `no XMRig summary at this address (${path} answers 404)`, {status: 404})
		: new MinerError('incompatible', `the answer from ${path} is not an XMRig summary`);
}

/**
 * xmrig-proxy, found from `found` (a proxy summary from any path): its `/1/summary` (2.x sends the upstreams in full
 * there only; `found` stands in when that path does not answer one) and its `/1/workers`, or null when it lists none.
 */
async function detectProxy(client: MinerClient, found: unknown, signal?: AbortSignal): Promise<Detection> {
	const [summary, workers] = await Promise.all([probe(client, '/1/summary', signal), probe(client, '/1/workers', signal)]);
	raiseProbeError(summary);
	raiseProbeError(workers);
	const v1 = probeValue(summary, isProxySummaryShape);
	const list = probeValue(workers, isProxyWorkersShape);
	return {dialect: dialects.proxy, summary: v1.ok ? v1.value : found, perThread: list.ok ? list.value : null};
}

export async function detectDialect(client: MinerClient, signal?: AbortSignal): Promise<Detection> {
	const [summary2, backends] = await Promise.all([probe(client, '/2/summary', signal), probe(client, '/2/backends', signal)]);
	raiseProbeError(summary2);
	const v2Summary = probeValue(summary2, isSummaryShape);
	const v2Proxy = probeValue(summary2, isProxySummaryShape);
	if (v2Proxy.ok) {
		return detectProxy(client, v2Proxy.value, signal);
	}

	raiseProbeError(backends);
	const v2Backends = probeValue(backends, isBackendsShape);
	if (v2Backends.ok) {
		if (v2Summary.ok) {
			return {dialect: dialects.v2, summary: v2Summary.value, perThread: v2Backends.value};
		}

		const summary1 = await probe(client, '/1/summary', signal);
		raiseProbeError(summary1);
		const legacy = probeValue(summary1, isSummaryShape);
		if (!legacy.ok) {
			throw notASummary('/1/summary', summary1);
		}

		if (isProxySummaryShape(legacy.value)) {
			return detectProxy(client, legacy.value, signal);
		}

		return {dialect: dialects['v2-legacy-summary'], summary: legacy.value, perThread: v2Backends.value};
	}

	const [summary1, threads] = await Promise.all([probe(client, '/1/summary', signal), probe(client, '/1/threads', signal)]);
	raiseProbeError(summary1);
	const v1Summary = probeValue(summary1, isSummaryShape);
	if (!v1Summary.ok) {
		throw notASummary('/1/summary', summary1);
	}

	if (isProxySummaryShape(v1Summary.value)) {
		return detectProxy(client, v1Summary.value, signal);
	}

	raiseProbeError(threads);
	const v1Threads = probeValue(threads, isThreadsShape);
	return v1Threads.ok
		? {dialect: dialects.v1, summary: v1Summary.value, perThread: v1Threads.value}
		: {dialect: dialects['v1-summary-only'], summary: v1Summary.value, perThread: null};
}
