import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {RingBuffer} from '../../source/monitor/ring-buffer.js';

describe('RingBuffer', () => {
	it('keeps the newest values up to its capacity, oldest first', () => {
		const ring = new RingBuffer<number>(3);
		expect(ring.toArray()).toEqual([]);
		expect(ring.last()).toBeUndefined();
		for (const value of [1, 2]) ring.push(value);
		expect(ring.toArray()).toEqual([1, 2]);
		for (const value of [3, 4, 5]) ring.push(value);
		expect(ring.toArray()).toEqual([3, 4, 5]);
		expect(ring.size).toBe(3);
		expect([...ring]).toEqual([3, 4, 5]);
		expect(ring.at(0)).toBe(3);
		expect(ring.at(-1)).toBe(5);
		expect(ring.last()).toBe(5);
		expect(ring.at(3)).toBeUndefined();
		expect(ring.at(-4)).toBeUndefined();
	});

	it('hands out a new array each time, unaffected by later pushes', () => {
		const ring = new RingBuffer<number | null>(2);
		ring.push(1);
		const before = ring.toArray();
		ring.push(null);
		ring.push(3);
		expect(before).toEqual([1]);
		expect(ring.toArray()).toEqual([null, 3]);
		expect(ring.toArray()).not.toBe(ring.toArray());
	});

	it('empties on clear and fills again', () => {
		const ring = new RingBuffer<string>(2);
		ring.push('a');
		ring.push('b');
		ring.push('c');
		ring.clear();
		expect(ring.size).toBe(0);
		expect(ring.toArray()).toEqual([]);
		ring.push('d');
		expect(ring.toArray()).toEqual(['d']);
	});

	it('refuses a capacity that is not a positive integer', () => {
		expect(() => new RingBuffer(0)).toThrow(RangeError);
		expect(() => new RingBuffer(2.5)).toThrow(RangeError);
	});

	it('always equals the last `capacity` values pushed (property)', () => {
		fc.assert(
			fc.property(fc.integer({min: 1, max: 20}), fc.array(fc.integer(), {maxLength: 100}), (capacity, values) => {
				const ring = new RingBuffer<number>(capacity);
				for (const value of values) ring.push(value);
				const expected = values.slice(-capacity);
				expect(ring.toArray()).toEqual(expected);
				expect(ring.size).toBe(expected.length);
				expect(ring.last()).toBe(expected.at(-1));
			}),
		);
	});
});
