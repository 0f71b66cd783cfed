import v8 from 'node:v8';

/**
 * Keeps V8's heap small for a long-running live session, where V8's defaults (tuned for throughput) let it grow far
 * past what rigtop keeps alive. Measured with `node bench/fleet.bench.mjs` (100 miners at 1 s), peak RSS:
 * Node 20 about 140 → 135 MB, Node 24 about 245 → 135–145 MB, for no measurable CPU (see the readme's Performance section).
 *
 * - Young generation. V8 doubles it whenever more bytes survived its scavenges since the last growth than it holds.
 *   A monitor keeps each poll's snapshot until the next poll, so snapshots always survive a scavenge or two, and with
 *   many miners the young generation grows to V8's maximum and stays there: 32 MB on Node 20, 128 MB on Node 24. Its
 *   maximum can only be set on node's command line, which a package's bin cannot do portably; the growth factor,
 *   though, is read whenever V8 grows the space, so growth is switched off once the space holds `maxSemiSpaceMb`
 *   per semi-space.
 * - Old generation. After each full collection V8 lets it grow to up to 4× what survived before the next one; rigtop
 *   keeps 15–25 MB alive, so `heapGrowingPercent` (read at every full collection) bounds the growth instead.
 *
 * Only on the V8 versions these flags were measured on (Node 20 to 24: V8 11 to 13), so a flag a later V8 renamed is
 * never set (V8 would print an error on the screen); and not when node was started with heap settings of its own.
 * Returns a function that stops watching the young generation.
 */
export type HeapLimits = {
	readonly maxSemiSpaceMb: number;
	readonly heapGrowingPercent: number;
};

export const liveHeapLimits: HeapLimits = {maxSemiSpaceMb: 4, heapGrowingPercent: 50};

const measuredV8 = {min: 11, max: 13};
const ownSettings = /^--(?:max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor|heap[-_]growing[-_]percent)/u;

export function keepHeapSmall(limits: HeapLimits = liveHeapLimits, checkEveryMs = 250): () => void {
	const v8Major = Number(process.versions.v8.split('.')[0]);
	const given = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/u)];
	if (!(v8Major >= measuredV8.min && v8Major <= measuredV8.max) || given.some((option) => ownSettings.test(option))) {
		return () => undefined;
	}

	v8.setFlagsFromString(`--heap-growing-percent=${limits.heapGrowingPercent}`);
	const limitBytes = 2 * limits.maxSemiSpaceMb * 1024 * 1024;
	const youngIsFull = (): boolean => {
		const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
		if (young === undefined || young.space_size < limitBytes) return false;
		v8.setFlagsFromString('--semi-space-growth-factor=1');
		return true;
	};

	if (youngIsFull()) return () => undefined;
	const timer = setInterval(() => {
		if (youngIsFull()) clearInterval(timer);
	}, checkEveryMs);
	timer.unref();
	return () => {
		clearInterval(timer);
	};
}
