/**
 * A fixed-capacity FIFO: pushing onto a full buffer drops the oldest value. Storage is allocated once,
 * so a buffer that lives for days costs nothing per push beyond the write itself.
 */
export class RingBuffer<T> {
	readonly capacity: number;
	readonly #items: Array<T | undefined>;
	/** Index of the oldest value. */
	#head = 0;
	#size = 0;

	constructor(capacity: number) {
		if (!Number.isInteger(capacity) || capacity < 1) {
			throw new RangeError(`RingBuffer capacity must be a positive integer, got ${capacity}`);
		}

		this.capacity = capacity;
		this.#items = new Array<T | undefined>(capacity);
	}

	get size(): number {
		return this.#size;
	}

	/** Appends a value; when full, the oldest value is overwritten. */
	push(value: T): void {
		if (this.#size < this.capacity) {
			this.#items[(this.#head + this.#size) % this.capacity] = value;
			this.#size++;
			return;
		}

		this.#items[this.#head] = value;
		this.#head = (this.#head + 1) % this.capacity;
	}

	/** The value at `index`, 0 being the oldest; a negative index counts back from the newest (-1). */
	at(index: number): T | undefined {
		const i = index < 0 ? this.#size + index : index;
		if (!Number.isInteger(i) || i < 0 || i >= this.#size) return undefined;
		return this.#items[(this.#head + i) % this.capacity];
	}

	/** The newest value, or undefined when empty. */
	last(): T | undefined {
		return this.at(-1);
	}

	clear(): void {
		this.#items.fill(undefined);
		this.#head = 0;
		this.#size = 0;
	}

	/** A new array of the values, oldest first. */
	toArray(): T[] {
		const out = new Array<T>(this.#size);
		for (let i = 0; i < this.#size; i++) {
			out[i] = this.#items[(this.#head + i) % this.capacity] as T;
		}

		return out;
	}

	*[Symbol.iterator](): IterableIterator<T> {
		for (let i = 0; i < this.#size; i++) {
			yield this.#items[(this.#head + i) % this.capacity] as T;
		}
	}
}
