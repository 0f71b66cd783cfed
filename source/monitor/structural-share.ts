/**
 * Structural sharing for plain JSON-like data: returns `next`, except that every part deeply equal
 * to the same part of `prev` is `prev`'s object. Returns `prev` itself when the two are deeply equal.
 * Nothing is allocated for parts that did not change, so panes keyed on sub-objects (the CPU, the
 * backends) see the same identity from poll to poll until their data really changes.
 */
export function shareUnchanged<T>(prev: T, next: T): T {
	return share(prev, next) as T;
}

function share(prev: unknown, next: unknown): unknown {
	if (Object.is(prev, next)) return prev;
	if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
	if (Array.isArray(prev)) return Array.isArray(next) ? shareArray(prev, next) : next;
	if (Array.isArray(next) || !isPlain(prev) || !isPlain(next)) return next;
	return shareObject(prev as Record<string, unknown>, next as Record<string, unknown>);
}

function shareArray(prev: readonly unknown[], next: readonly unknown[]): unknown {
	let out: unknown[] | null = null;
	for (let i = 0; i < next.length; i++) {
		const value = i < prev.length ? share(prev[i], next[i]) : next[i];
		if (out === null && (i >= prev.length || value !== prev[i])) out = prev.slice(0, i);
		out?.push(value);
	}

	// Every element matched: next is prev, or a shorter prefix of it.
	if (out === null) return prev.length === next.length ? prev : prev.slice(0, next.length);
	return out;
}

function shareObject(prev: Record<string, unknown>, next: Record<string, unknown>): unknown {
	let out: Record<string, unknown> | null = null;
	let count = 0;
	for (const key in next) {
		if (!Object.hasOwn(next, key)) continue;
		count++;
		const had = Object.hasOwn(prev, key);
		const value = had ? share(prev[key], next[key]) : next[key];
		if (out === null && (!had || value !== prev[key])) {
			out = {};
			for (const earlier in next) {
				if (earlier === key) break;
				if (Object.hasOwn(next, earlier)) setOwn(out, earlier, prev[earlier]);
			}
		}

		if (out !== null) setOwn(out, key, value);
	}

	if (out !== null) return out;
	// Every key of next matched; prev is reusable only if it has no extra keys.
	return Object.keys(prev).length === count ? prev : copyFrom(prev, next);
}

function copyFrom(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(next)) setOwn(out, key, prev[key]);
	return out;
}

/** Assignment, except that a key named "__proto__" (valid JSON) becomes an own property too. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	if (key === '__proto__') Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true});
	else target[key] = value;
}

function isPlain(value: object): boolean {
	const proto = Object.getPrototypeOf(value) as unknown;
	return proto === Object.prototype || proto === null;
}
