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

test('a task that runs past holdMs gives its slot back and goes on outside the bound', async () => {
	const limiter = createLimiter(2, 50);
	const hung = [deferred(), deferred(), deferred()];
	// Three slow tasks (miners that never answer) against two slots.
	const slow = hung.map(async (gate, index) => limiter.run(async () => gate.promise.then(() => index)));
	await Promise.resolve();
	expect([limiter.active, limiter.waiting, limiter.overdue]).toEqual([2, 1, 0]);
	let healthyRan = false;
	const healthy = limiter.run(async () => {
		healthyRan = true;
		return 'healthy';
	});
	expect(healthyRan).toBe(false);
	// After holdMs the first two give their slots back: the third slow one and the healthy one run.
	await expect(healthy).resolves.toBe('healthy');
	expect(limiter.overdue).toBeGreaterThanOrEqual(2);
	// A slow task that ends after giving its slot back frees nothing twice.
	for (const gate of hung) gate.resolve();
	await expect(Promise.all(slow)).resolves.toEqual([0, 1, 2]);
	expect([limiter.active, limiter.waiting, limiter.overdue]).toEqual([0, 0, 0]);
});

test('a task that ends within holdMs keeps the bound exact', async () => {
	const limiter = createLimiter(1, 10_000);
	const gate = deferred();
	const first = limiter.run(async () => gate.promise);
	let secondRan = false;
	const second = limiter.run(async () => {
		secondRan = true;
	});
	await new Promise((resolve) => setTimeout(resolve, 30));
	expect(secondRan).toBe(false);
	gate.resolve();
	await first;
	await second;
	expect(secondRan).toBe(true);
	expect([limiter.active, limiter.overdue]).toEqual([0, 0]);
});
