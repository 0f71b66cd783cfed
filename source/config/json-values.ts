import type {Node as JsonNode} from 'jsonc-parser';
import type {ConfigPath, JsonScalar, JsonValue, ValueKind} from './types.js';
import {escapeUnsafe} from '../text/escape.js';
import {jsonText} from '../text/json-out.js';

/** The kind of a JSON value as the config tree shows it. */
export function kindOf(value: JsonValue): ValueKind {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	switch (typeof value) {
		case 'boolean':
			return 'boolean';
		case 'number':
			return 'number';
		case 'string':
			return 'string';
		default:
			return 'object';
	}
}

/** Deep equality of two JSON values (object key order does not matter; array order does). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
	if (a === b) return true;
	if (a === undefined || b === undefined || a === null || b === null) return false;
	if (typeof a !== 'object' || typeof b !== 'object') return false;
	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b)) return false;
		const left: readonly JsonValue[] = a;
		const right: readonly JsonValue[] = b;
		return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
	}

	const left = a as {readonly [key: string]: JsonValue};
	const right = b as {readonly [key: string]: JsonValue};
	const leftKeys = Object.keys(left);
	if (leftKeys.length !== Object.keys(right).length) return false;
	return leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/** The value at a path of a parsed document, or undefined when the path does not exist. */
export function valueAt(root: JsonValue, path: ConfigPath): JsonValue | undefined {
	let current: JsonValue | undefined = root;
	for (const segment of path) {
		if (current === null || typeof current !== 'object') return undefined;
		if (Array.isArray(current)) {
			if (typeof segment !== 'number') return undefined;
			const list: readonly JsonValue[] = current;
			current = list[segment];
		} else {
			if (typeof segment !== 'string') return undefined;
			const object = current as {readonly [key: string]: JsonValue};
			current = Object.hasOwn(object, segment) ? object[segment] : undefined;
		}
	}

	return current;
}

/** `pools.0.tls` from ['pools', 0, 'tls']. */
export function formatPath(path: ConfigPath): string {
	return path.map(String).join('.');
}

/**
 * A path (or a key, or a dotted id) as a message or the tree shows it: a control or invisible character in a key
 * written as its `\uXXXX` escape (text/escape.ts), as the values are (showValue), so keys `donate-level` and
 * `donate-level\u200b` read differently. Only for showing: the key stays the key edited and written back.
 */
export function showPath(path: ConfigPath | string): string {
	return escapeUnsafe(typeof path === 'string' ? path : formatPath(path));
}

/** Whether two paths are the same. */
export function samePath(a: ConfigPath, b: ConfigPath): boolean {
	return a.length === b.length && a.every((segment, index) => segment === b[index]);
}

/** Whether `prefix` is a proper or equal prefix of `path`. */
export function isPrefix(prefix: ConfigPath, path: ConfigPath): boolean {
	return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}

/**
 * A JSON value as one line of text (what `JSON.stringify` gives, a control or invisible character in a string written
 * as its `\uXXXX` escape: text/json-out.ts; "(absent)" for a key that is absent).
 */
export function showValue(value: JsonValue | undefined): string {
	return value === undefined ? '(absent)' : jsonText(value);
}

/**
 * The value of a parsed JSON tree (jsonc-parser's), read as XMRig reads its config with rapidjson:
 * where a key appears twice the first one counts (FindMember), which is also the one an edit changes.
 * A key such as "__proto__" stays a plain key.
 */
export function valueOfTree(node: JsonNode): JsonValue {
	switch (node.type) {
		case 'object': {
			const object: Record<string, JsonValue> = {};
			for (const property of node.children ?? []) {
				const [keyNode, valueNode] = property.children ?? [];
				if (!keyNode || !valueNode) continue;
				const key = String(keyNode.value);
				if (Object.hasOwn(object, key)) continue;
				Object.defineProperty(object, key, {value: valueOfTree(valueNode), enumerable: true, writable: true, configurable: true});
			}

			return object;
		}

		case 'array':
			return (node.children ?? []).map((child) => valueOfTree(child));
		case 'string':
		case 'number':
		case 'boolean':
			return node.value as JsonScalar;
		default:
			return null;
	}
}
