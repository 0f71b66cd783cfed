import {expect, test} from 'vitest';
import {createLimiter} from '../../source/monitor/limiter.js';

function deferred() {
	let resolve!: () => void;
	const promise = new Promise<void>((r) => {
		resolve = r;
	});
	return {promise, resolve};
}

test('runs at most N tasks at once, in order, and frees a slot when one fails', async () => {
	const limiter = createLimiter(2);
	const gates = [deferred(), deferred(), deferred(), deferred()];
	const started: number[] = [];
	const runs = gates.map(async (gate, index) =>
		limiter.run(async () => {
			started.push(index);
			await gate.promise;
			if (index === 0) throw new Error('boom');
			return index;
		}),
	);
	await Promise.resolve();
	expect(started).toEqual([0, 1]);
	expect([limiter.active, limiter.waiting]).toEqual([2, 2]);
	gates[0]!.resolve();
	await expect(runs[0]).rejects.toThrow('boom');
	expect(started).toEqual([0, 1, 2]);
	for (const gate of gates) gate.resolve();
	await expect(Promise.all(runs.slice(1))).resolves.toEqual([1, 2, 3]);
	expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
});

test('a task whose signal aborts while it waits leaves the queue without running', async () => {
	const limiter = createLimiter(1);
	const gate = deferred();
	const first = limiter.run(async () => gate.promise);
	const controller = new AbortController();
	let ran = false;
	const second = limiter.run(async () => {
		ran = true;
	}, controller.signal);
	expect(limiter.waiting).toBe(1);
	controller.abort(new Error('monitor stopped'));
	await expect(second).rejects.toThrow('monitor stopped');
	expect(limiter.waiting).toBe(0);
	gate.resolve();
	await first;
	expect(ran).toBe(false);
	await expect(limiter.run(async () => 'x', AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
	expect(() => createLimiter(0)).toThrow(RangeError);
});
