/**
 * One thread's hash-count samples, and XMRig's window arithmetic over them (src/backend/common/Hashrate.cpp):
 * a window of W seconds has a value only once a sample older than now − W exists; the value is the
 * hashes between the oldest sample inside the window and the newest one, over their time apart.
 */

/** Enough 1-second samples for the 15-minute window plus slack. */
const CAPACITY = 1024;

export class SampleRing {
	private readonly times = new Float64Array(CAPACITY);
	private readonly counts = new Float64Array(CAPACITY);
	private size = 0;
	private top = 0;

	push(time: number, count: number): void {
		this.times[this.top] = time;
		this.counts[this.top] = count;
		this.top = (this.top + 1) % CAPACITY;
		if (this.size < CAPACITY) this.size++;
	}

	clear(): void {
		this.size = 0;
		this.top = 0;
	}

	get length(): number {
		return this.size;
	}

	/** Hashes per second over the last `window` seconds as of `now`, or null while the window has not filled. */
	rate(window: number, now: number): number | null {
		if (this.size < 2) return null;
		const limit = now - window;
		const newest = (this.top - 1 + CAPACITY) % CAPACITY;
		let idx = newest;
		for (let seen = 0; seen < this.size; seen++) {
			if (this.times[idx]! < limit) {
				if (idx === newest) return null;
				const earliest = (idx + 1) % CAPACITY;
				const span = this.times[newest]! - this.times[earliest]!;
				if (span <= 0) return null;
				return (this.counts[newest]! - this.counts[earliest]!) / span;
			}
			idx = (idx - 1 + CAPACITY) % CAPACITY;
		}
		return null;
	}
}
