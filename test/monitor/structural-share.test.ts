import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {shareUnchanged} from '../../source/monitor/structural-share.js';
import {makeSnapshot} from '../helpers/snapshot.js';

describe('shareUnchanged', () => {
	it('returns the previous snapshot itself when nothing changed', () => {
		const prev = makeSnapshot();
		expect(shareUnchanged(prev, makeSnapshot())).toBe(prev);
	});

	it('keeps the identity of unchanged parts and takes the changed ones', () => {
		const prev = makeSnapshot();
		const next = makeSnapshot({uptime: 5424, hashrate: {total: [4830.1, 4810.02, 4790.5]}});
		const shared = shareUnchanged(prev, next);
		expect(shared).toEqual(next);
		expect(shared).not.toBe(prev);
		expect(shared.cpu).toBe(prev.cpu);
		expect(shared.connection).toBe(prev.connection);
		expect(shared.threads).toBe(prev.threads);
		expect(shared.backends).toBe(prev.backends);
		expect(shared.hashrate).not.toBe(prev.hashrate);
		expect(shared.hashrate.total).not.toBe(prev.hashrate.total);
	});

	it('shares the unchanged elements of a changed array', () => {
		const prev = makeSnapshot();
		const threads = prev.threads.map((thread) => ({...thread, hashrate: [...thread.hashrate] as const}));
		threads[2] = {...threads[2]!, hashrate: [900, 1100, 1190] as const};
		const shared = shareUnchanged(prev, makeSnapshot({threads}));
		expect(shared.threads).not.toBe(prev.threads);
		expect(shared.threads[0]).toBe(prev.threads[0]);
		expect(shared.threads[2]).not.toBe(prev.threads[2]);
		expect(shared.threads[2]?.hashrate).toEqual([900, 1100, 1190]);
	});

	it('handles added and removed keys and elements, and null on either side', () => {
		expect(shareUnchanged<unknown>({a: 1, b: 2}, {a: 1})).toEqual({a: 1});
		expect(shareUnchanged<unknown>({a: 1}, {a: 1, b: 2})).toEqual({a: 1, b: 2});
		expect(shareUnchanged<unknown>([1, 2, 3], [1, 2])).toEqual([1, 2]);
		expect(shareUnchanged<unknown>([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
		expect(shareUnchanged<unknown>({a: null}, {a: {b: 1}})).toEqual({a: {b: 1}});
		expect(shareUnchanged<unknown>({a: {b: 1}}, {a: null})).toEqual({a: null});
		expect(shareUnchanged<unknown>({a: [1]}, {a: {0: 1}})).toEqual({a: {0: 1}});
	});

	it('always gives a value deeply equal to next, and prev whenever the two are equal (property)', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.jsonValue(), (prev, next) => {
				expect(shareUnchanged(prev, next)).toEqual(next);
				expect(shareUnchanged(prev, structuredClone(prev))).toBe(prev);
			}),
		);
	});
});

describe('shareUnchanged with awkward keys', () => {
	it('keeps a "__proto__" key as data', () => {
		const prev = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as unknown;
		const next = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as unknown;
		const shared = shareUnchanged(prev, next) as Record<string, unknown>;
		expect(Object.getPrototypeOf(shared)).toBe(Object.prototype);
		expect(Object.keys(shared)).toEqual(['__proto__', 'a']);
		expect(Object.getOwnPropertyDescriptor(shared, '__proto__')?.value).toBe(Object.getOwnPropertyDescriptor(prev, '__proto__')?.value);
	});
});
