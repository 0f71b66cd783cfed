import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import type {DialectName, MinerSnapshot, RateWindows} from '../../source/miner/model.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import {readProxyMinersDocument} from '../../source/miner/normalize-proxy.js';
import {isBackendsShape, isProxySummaryShape, isSummaryShape, isThreadsShape} from '../../source/miner/shapes.js';
import {captureJson, readSynthetic} from '../helpers/captures.js';

const dialectNames: DialectName[] = ['v2', 'v2-legacy-summary', 'v1', 'v1-summary-only', 'proxy'];

const realDocuments: unknown[] = [
	captureJson('v6.26/get_2_summary.txt'),
	captureJson('v6.26/get_1_summary.txt'),
	captureJson('v6.26/get_2_backends.txt'),
	captureJson('v2.16/get_1_summary.txt'),
	captureJson('v2.16/get_1_threads.txt'),
	readSynthetic('v6-live-summary.json'),
	readSynthetic('v6-live-backends.json'),
	readSynthetic('v2.14-summary.json'),
	readSynthetic('v2.14-threads.json'),
	readSynthetic('nvidia-2.14-summary.json'),
	readSynthetic('nvidia-2.14-threads.json'),
	captureJson('../xmrig-proxy/v6.26/get_1_summary.txt'),
	captureJson('../xmrig-proxy/v6.26/get_1_workers.txt'),
	captureJson('../xmrig-proxy/v6.26/get_1_miners.txt'),
];

/** A real document with random subtrees swapped for arbitrary JSON (the fields keep their names, the types go wild). */
const mutatedDocument = fc
	.tuple(fc.constantFrom(...realDocuments), fc.array(fc.tuple(fc.nat(), fc.jsonValue({maxDepth: 3})), {maxLength: 6}))
	.map(([document, swaps]) => {
		const copy = structuredClone(document);
		for (const [pick, replacement] of swaps) {
			const holders: Array<Record<string, unknown> | unknown[]> = [];
			const walk = (value: unknown): void => {
				if (typeof value === 'object' && value !== null) {
					holders.push(value as Record<string, unknown>);
					for (const child of Object.values(value)) walk(child);
				}
			};

			walk(copy);
			const holder = holders[pick % holders.length];
			if (holder === undefined) continue;
			const keys = Object.keys(holder);
			const key = keys[pick % Math.max(keys.length, 1)];
			if (key !== undefined) (holder as Record<string, unknown>)[key] = replacement;
		}

		return copy;
	});

const anyDocument = fc.oneof(fc.jsonValue({maxDepth: 6}), mutatedDocument);

function checkRates(windows: RateWindows | null): void {
	if (windows === null) return;
	expect(windows).toHaveLength(3);
	for (const rate of windows) {
		if (rate !== null) {
			expect(Number.isFinite(rate)).toBe(true);
			expect(rate).toBeGreaterThanOrEqual(0);
		}
	}
}

function checkSnapshot(snapshot: MinerSnapshot): void {
	checkRates(snapshot.hashrate.total);
	expect(snapshot.results.rejected).toBeGreaterThanOrEqual(0);
	expect(snapshot.results.total).toBeGreaterThanOrEqual(snapshot.results.good);
	expect(typeof snapshot.connection.connected).toBe('boolean');
	for (const thread of snapshot.threads) checkRates(thread.hashrate);
	for (const backend of snapshot.backends) checkRates(backend.hashrate);
	for (const feature of snapshot.features) expect(typeof feature).toBe('string');
	const proxy = snapshot.proxy;
	if (proxy !== null) {
		for (const rate of [...proxy.hashrate, proxy.sinceStart, ...(proxy.workers ?? []).flatMap((worker) => worker.hashrate)]) {
			if (rate !== null) expect(Number.isFinite(rate) && rate >= 0).toBe(true);
		}

		for (const worker of proxy.workers ?? []) expect(typeof worker.name).toBe('string');
	}

	// A snapshot is plain data: it must survive a clone and a JSON round trip.
	expect(() => structuredClone(snapshot)).not.toThrow();
	expect(() => JSON.stringify(snapshot)).not.toThrow();
}

describe('normalizeSnapshot on arbitrary JSON', () => {
	it('returns a sound snapshot or throws MinerError, never anything else', () => {
		fc.assert(
			fc.property(fc.constantFrom(...dialectNames), anyDocument, anyDocument, (dialect, summary, perThread) => {
				let snapshot: MinerSnapshot;
				try {
					snapshot = normalizeSnapshot(dialect, summary, perThread);
				} catch (error) {
					expect(error).toBeInstanceOf(MinerError);
					return;
				}

				checkSnapshot(snapshot);
			}),
			{numRuns: 1500},
		);
	});

	it('accepts every document the shape checks accept', () => {
		fc.assert(
			fc.property(mutatedDocument, mutatedDocument, (summary, perThread) => {
				if (!isSummaryShape(summary)) return;
				if (isBackendsShape(perThread)) checkSnapshot(normalizeSnapshot('v2', summary, perThread));
				if (isThreadsShape(perThread)) checkSnapshot(normalizeSnapshot('v1', summary, perThread));
				checkSnapshot(normalizeSnapshot('v1-summary-only', summary, perThread));
				if (isProxySummaryShape(summary)) checkSnapshot(normalizeSnapshot('proxy', summary, null));
			}),
			{numRuns: 800},
		);
	});
});

describe('reading /1/miners on arbitrary JSON', () => {
	it('returns miners or throws MinerError, and the pool password is in neither', () => {
		const password = 'fixture-pool-pass1';
		fc.assert(
			fc.property(anyDocument, (document) => {
				try {
					const miners = readProxyMinersDocument(document);
					expect(JSON.stringify(miners)).not.toContain(password);
				} catch (error) {
					expect(error).toBeInstanceOf(MinerError);
					expect(`${(error as MinerError).message} ${(error as MinerError).oneLine()}`).not.toContain(password);
				}
			}),
			{numRuns: 800},
		);
	});
});
