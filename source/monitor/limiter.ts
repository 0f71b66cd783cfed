/**
 * A bound on how many polls run at once, shared by every monitor of a session. Each monitor keeps
 * its own schedule and backoff; the limiter only makes a poll wait for a free slot when many are
 * due together (a fleet starting, a burst of polls falling due at once).
 *
 * A slot is held for one task, and for `holdMs` at most: a task still running then (a miner that
 * accepts connections and never answers, or whose packets are dropped, takes up to the client's
 * deadline) goes on outside the bound and frees its slot. Otherwise enough slow miners, each
 * retried every interval, would hold every slot and the healthy ones would wait behind them.
 * Tasks outside the bound are still bounded in number: a monitor runs one poll at a time.
 * A task whose signal aborts while it waits leaves the queue at once.
 */
export type Limiter = {
	/** Runs `task` once a slot is free; rejects with the signal's reason if it aborts while waiting. */
	run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
	/** Tasks holding a slot now. */
	readonly active: number;
	/** Tasks still running that gave their slot back after `holdMs`. */
	readonly overdue: number;
	/** Tasks waiting for a slot. */
	readonly waiting: number;
};

type Waiter = {readonly start: () => void};

/** Default most time a task holds a slot. */
export const defaultHoldMs = 1000;

export function createLimiter(maxConcurrent: number, holdMs = defaultHoldMs): Limiter {
	if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1)
		throw new RangeError(`maxConcurrent must be a positive integer, got ${maxConcurrent}`);
	let active = 0;
	let overdue = 0;
	const queue: Waiter[] = [];

	const release = () => {
		active--;
		const next = queue.shift();
		if (next) next.start();
	};

	const runNow = async <T>(task: () => Promise<T>): Promise<T> => {
		active++;
		let holding = true;
		const timer = setTimeout(() => {
			holding = false;
			overdue++;
			release();
		}, holdMs);
		timer.unref?.();
		try {
			return await task();
		} finally {
			clearTimeout(timer);
			if (holding) release();
			else overdue--;
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
		get overdue() {
			return overdue;
		},
		get waiting() {
			return queue.length;
		},
	};
}
