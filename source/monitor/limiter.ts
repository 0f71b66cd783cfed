/**
 * A bound on how many polls run at once, shared by every monitor of a session. Each monitor keeps
 * its own schedule and backoff; the limiter only makes a poll wait for a free slot when many are
 * due together. A slot is held for one read at most, and a read always ends (the client has an
 * overall deadline), so a hung miner holds one slot for a few seconds and never the others.
 * A task whose signal aborts while it waits leaves the queue at once.
 */
export type Limiter = {
	/** Runs `task` once a slot is free; rejects with the signal's reason if it aborts while waiting. */
	run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
	/** Tasks running now. */
	readonly active: number;
	/** Tasks waiting for a slot. */
	readonly waiting: number;
};

type Waiter = {readonly start: () => void};

export function createLimiter(maxConcurrent: number): Limiter {
	if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
	let active = 0;
	const queue: Waiter[] = [];

	const release = () => {
		active--;
		const next = queue.shift();
		if (next) next.start();
	};

	const runNow = async <T>(task: () => Promise<T>): Promise<T> => {
		active++;
		try {
			return await task();
		} finally {
			release();
		}
	};

	return {
		async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
			signal?.throwIfAborted();
			if (active < maxConcurrent) return runNow(task);
			return new Promise<T>((resolve, reject) => {
				const onAbort = () => {
					const index = queue.indexOf(waiter);
					if (index !== -1) queue.splice(index, 1);
					reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
				};

				const waiter: Waiter = {
					start() {
						signal?.removeEventListener('abort', onAbort);
						runNow(task).then(resolve, reject);
					},
				};
				queue.push(waiter);
				signal?.addEventListener('abort', onAbort, {once: true});
			});
		},
		get active() {
			return active;
		},
		get waiting() {
			return queue.length;
		},
	};
}
