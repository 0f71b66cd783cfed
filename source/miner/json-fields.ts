import {cleanText} from '../text/clean.js';
import type {Rate, RateWindows} from './model.js';

/**
 * Reading fields out of arbitrary JSON without ever throwing: a field that is missing or has the wrong type reads as
 * null. Only own properties are read, so keys such as "constructor" or "__proto__" can never reach the prototype.
 * Every string read here is cleaned (cleanText: every control and invisible character shown as its code, at most 200
 * characters): this is where a miner's and a proxy's text enters rigtop.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function field(value: unknown, key: string): unknown {
	return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

export function has(value: unknown, key: string): boolean {
	return isObject(value) && Object.hasOwn(value, key);
}

export function obj(value: unknown, key: string): JsonObject | null {
	const found = field(value, key);
	return isObject(found) ? found : null;
}

export function arr(value: unknown, key: string): readonly unknown[] | null {
	const found = field(value, key);
	return Array.isArray(found) ? found : null;
}

/** A finite number, else null. */
export function asNumber(value: unknown): number | null {
	return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function num(value: unknown, key: string): number | null {
	return asNumber(field(value, key));
}

/** A string, cleaned (cleanText). */
export function str(value: unknown, key: string): string | null {
	const found = field(value, key);
	return typeof found === 'string' ? cleanText(found) : null;
}

/** A string, cleaned, with "" read as null (XMRig sends "" for "not known yet"; text that cleans to "" is none either). */
export function text(value: unknown, key: string): string | null {
	const found = str(value, key);
	return found === null || found === '' ? null : found;
}

export function bool(value: unknown, key: string): boolean | null {
	const found = field(value, key);
	return typeof found === 'boolean' ? found : null;
}

/** A hashrate: a finite number ≥ 0 (0.0 stays 0: a paused 6.22.2+ miner), else null (window not filled). */
export function asRate(value: unknown): Rate {
	const found = asNumber(value);
	return found !== null && found >= 0 ? found : null;
}

/** The [10 s, 60 s, 15 min] windows from an array; missing or mistyped entries are null. null if not an array. */
export function asRateWindows(value: unknown): RateWindows | null {
	if (!Array.isArray(value)) {
		return null;
	}

	return [asRate(value[0]), asRate(value[1]), asRate(value[2])];
}

export const unknownWindows: RateWindows = Object.freeze([null, null, null] as const);

/** Strings of an array, cleaned (others dropped); [] when not an array. */
export function strings(value: unknown): string[] {
	if (!Array.isArray(value)) {
		return [];
	}

	const result: string[] = [];
	for (const item of value) {
		if (typeof item === 'string') {
			result.push(cleanText(item));
		}
	}

	return result;
}

/** A CPU index: -1, false, negative or non-integer numbers mean "not pinned" → null. */
export function asAffinity(value: unknown): number | null {
	const found = asNumber(value);
	return found !== null && Number.isInteger(found) && found >= 0 ? found : null;
}
