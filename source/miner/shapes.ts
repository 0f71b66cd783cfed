import {arr, field, isObject, obj, str} from './json-fields.js';

/**
 * Telling XMRig payloads apart by their shape. A 200 alone proves nothing: 2.4–2.14 miners answer every GET path with
 * the summary, and some other server may answer 200 to anything.
 */

/** A summary: an object with an object `hashrate` holding an array `total`, and a `results` or `connection` object. */
export function isSummaryShape(value: unknown): boolean {
	const hashrate = obj(value, 'hashrate');
	return hashrate !== null && arr(hashrate, 'total') !== null && (obj(value, 'results') !== null || obj(value, 'connection') !== null);
}

/** `/2/backends`: a non-empty array of objects, each with a string `type` (every 3.x–6.x build has the cpu backend). */
export function isBackendsShape(value: unknown): boolean {
	return Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && typeof field(item, 'type') === 'string');
}

/** `/1/threads` (2.6.0-beta3 – 2.16 and the GPU forks): an object with an array `threads`. */
export function isThreadsShape(value: unknown): boolean {
	return arr(value, 'threads') !== null;
}

/** xmrig-proxy's summary (any path): a summary whose `kind` is "proxy". */
export function isProxySummaryShape(value: unknown): boolean {
	return isSummaryShape(value) && str(value, 'kind') === 'proxy';
}

/**
 * xmrig-proxy's `/1/workers` (2.5+): an object with an array `workers` (the summary has a count there, and 2.4 answers
 * this path with the summary). Whether its rows are what a proxy sends is checked when they are read.
 */
export function isProxyWorkersShape(value: unknown): boolean {
	return arr(value, 'workers') !== null;
}
