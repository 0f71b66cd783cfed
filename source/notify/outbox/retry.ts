/**
 * How long the outbox waits before trying a channel again, and when it gives up (docs/notify-delivery.md).
 */

export type RetryLimits = {
	/** The first wait after a failed try (ms); it doubles after each. */
	readonly firstMs: number;
	/** The longest wait between two tries (ms). */
	readonly maxMs: number;
	/** Tries of one notice before giving up. */
	readonly attempts: number;
	/** Giving up too when the next try would come later than this after the first (ms). */
	readonly maxAgeMs: number;
	/** One request's bound (ms): a channel that has not answered by then is aborted and tried again. */
	readonly timeoutMs: number;
};

/** 10 s, 20 s, 40 s … 5 min, 12 tries: about 35 minutes of trying (10+20+40+80+160 s, then 6 × 5 min), at most an hour. */
export const DEFAULT_RETRY: RetryLimits = {firstMs: 10_000, maxMs: 5 * 60_000, attempts: 12, maxAgeMs: 60 * 60_000, timeoutMs: 10_000};

/** The wait after the `failures`-th failed try in a row (1-based); a service's Retry-After wins (within an hour). */
export function retryDelay(limits: RetryLimits, failures: number, retryAfterMs?: number): number {
	if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return Math.min(retryAfterMs, limits.maxAgeMs);
	return Math.min(limits.maxMs, limits.firstMs * 2 ** Math.max(0, Math.min(30, failures - 1)));
}

/** Whether a notice first tried at `firstTry`, tried `attempts` times, is given up rather than tried at `nextTry`. */
export function givesUp(limits: RetryLimits, attempts: number, firstTry: number, nextTry: number): boolean {
	return attempts >= limits.attempts || nextTry - firstTry > limits.maxAgeMs;
}
