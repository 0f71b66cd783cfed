/**
 * A miner's config document, kept as the exact text the miner sent. Reading walks a jsonc-parser
 * tree; writing edits the text in place (jsonc-parser `modify` + `applyEdits`), so everything rigtop
 * does not touch — unknown keys, key order, number forms such as `1.0`, unicode, spacing — stays
 * byte for byte the same. Re-serializing a parsed object would not do that.
 */
import {applyEdits, findNodeAtLocation, modify, parseTree, printParseErrorCode} from 'jsonc-parser';
import type {Edit, FormattingOptions, Node as JsonNode, ParseError} from 'jsonc-parser';
import {formatPath, jsonEqual, showPath, valueOfTree} from './json-values.js';
import {isApiGuarded, isSecret} from './schema.js';
import {SECRET_MASK} from './types.js';
import type {ConfigPath, JsonObject, JsonScalar, JsonValue, PathSegment, ValueKind} from './types.js';
import {escapeUnsafe} from '../text/escape.js';

/** One key of the config tree, as the config view lists it. */
export type ConfigEntry = {
	readonly path: ConfigPath;
	/** Dotted form, e.g. `pools.0.tls`. */
	readonly id: string;
	/** The key within its parent (an index inside a list). */
	readonly key: PathSegment;
	/** 0 for a top-level key. */
	readonly depth: number;
	readonly kind: ValueKind;
	/** Number of keys / items of an object or list; 0 for a plain value. */
	readonly childCount: number;
	/** The value of a plain (scalar) key; undefined for objects, lists and secrets. */
	readonly value: JsonScalar | undefined;
	/** What to show: the value's JSON text as the miner wrote it (`1.0` stays `1.0`), the mask for a secret, `{…}` / `[…]` for containers. */
	readonly display: string;
	readonly secret: boolean;
	/** A change here can cut rigtop off from the miner's API. */
	readonly guarded: boolean;
};

/** The text is not a JSON object. */
export class ConfigParseError extends Error {
	override readonly name = 'ConfigParseError';
}

/** A path that does not lead to a key that can be set. */
export class ConfigPathError extends Error {
	override readonly name = 'ConfigPathError';
}

/** How the document is indented, for the few edits that write new lines (a new key, a list value). */
export function inferFormatting(text: string): FormattingOptions {
	const eol = text.includes('\r\n') ? '\r\n' : '\n';
	let smallest = Number.POSITIVE_INFINITY;
	for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
		const indent = match[1] ?? '';
		if (indent.startsWith('\t')) return {tabSize: 4, insertSpaces: false, eol};
		smallest = Math.min(smallest, indent.length);
	}

	return {tabSize: Number.isFinite(smallest) ? smallest : 4, insertSpaces: true, eol};
}

function nodeKind(node: JsonNode): ValueKind {
	// A value node is never a 'property' node; that type only wraps key + value.
	return node.type === 'property' ? 'null' : node.type;
}

function isScalar(value: JsonValue): value is JsonScalar {
	return value === null || typeof value !== 'object';
}

/** An immutable view of one config text. `set` returns the new text; the document itself never changes. */
export class ConfigDocument {
	/** Never let a log, JSON dump or inspect print the document: it holds the token and pool passwords. */
	toJSON(): string {
		return '[config document]';
	}

	[Symbol.for('nodejs.util.inspect.custom')](): string {
		return 'ConfigDocument [config document]';
	}

	readonly text: string;
	readonly formatting: FormattingOptions;
	readonly #root: JsonNode;
	#value: JsonObject | undefined;
	#entries: readonly ConfigEntry[] | undefined;

	/** Throws ConfigParseError when the text is not a JSON object. */
	constructor(text: string) {
		const errors: ParseError[] = [];
		const root = parseTree(text, errors, {allowTrailingComma: true, disallowComments: false});
		const first = errors[0];
		if (first) {
			throw new ConfigParseError(`the config is not valid JSON (${printParseErrorCode(first.error)} at character ${first.offset})`);
		}

		if (root?.type !== 'object') throw new ConfigParseError('the config is not a JSON object');
		this.text = text;
		this.#root = root;
		this.formatting = inferFormatting(text);
	}

	/** The parsed document. */
	get value(): JsonObject {
		this.#value ??= valueOfTree(this.#root) as JsonObject;
		return this.#value;
	}

	/** Every key, depth first, in document order. */
	entries(): readonly ConfigEntry[] {
		if (!this.#entries) {
			const list: ConfigEntry[] = [];
			this.#collect(this.#root, [], list);
			this.#entries = list;
		}

		return this.#entries;
	}

	/** The keys directly under a path ([] for the top level). */
	children(path: ConfigPath): readonly ConfigEntry[] {
		return this.entries().filter(
			(entry) => entry.path.length === path.length + 1 && path.every((segment, index) => entry.path[index] === segment),
		);
	}

	/** The entry at a path, or undefined. */
	entry(path: ConfigPath): ConfigEntry | undefined {
		const id = formatPath(path);
		return this.entries().find((entry) => entry.id === id && entry.path.length === path.length);
	}

	has(path: ConfigPath): boolean {
		return this.#node(path) !== undefined;
	}

	/** The value at a path, or undefined when there is no such key. */
	get(path: ConfigPath): JsonValue | undefined {
		const node = this.#node(path);
		return node ? valueOfTree(node) : undefined;
	}

	/** Where the value at a path sits in the text. */
	locate(path: ConfigPath): {readonly offset: number; readonly length: number} | undefined {
		const node = this.#node(path);
		return node ? {offset: node.offset, length: node.length} : undefined;
	}

	/** The exact source text of the value at a path (secrets included: never show it). */
	raw(path: ConfigPath): string | undefined {
		const node = this.#node(path);
		return node ? this.text.slice(node.offset, node.offset + node.length) : undefined;
	}

	/**
	 * The text with one value set. Every other byte stays as it was: an existing plain value is
	 * replaced in place; a new key (under an existing object) or a list/object value is written with
	 * the document's own indentation and line ends. Setting the value a key already has (by meaning)
	 * returns the text unchanged, so `1.0` is not rewritten as `1`.
	 */
	set(path: ConfigPath, value: JsonValue): string {
		if (path.length === 0) throw new ConfigPathError('cannot replace the whole document');
		const node = this.#node(path);
		if (node) {
			if (jsonEqual(valueOfTree(node), value)) return this.text;
			if (isScalar(value) && node.type !== 'object' && node.type !== 'array') {
				return applyEdits(this.text, [{offset: node.offset, length: node.length, content: JSON.stringify(value)}]);
			}

			return this.#modify(path, value);
		}

		const parentPath = path.slice(0, -1);
		const parent = this.#node(parentPath);
		const last = path.at(-1);
		if (parent?.type !== 'object' || typeof last !== 'string') {
			throw new ConfigPathError(`${showPath(path)} does not exist in the miner's config`);
		}

		return this.#modify(path, value);
	}

	/** The text with every secret value (not null ones) replaced by the mask, as a JSON string. */
	maskedText(): string {
		const edits: Edit[] = [];
		for (const entry of this.entries()) {
			if (!entry.secret) continue;
			const node = this.#node(entry.path);
			if (!node || node.type === 'null') continue;
			// Nested secrets are covered by the outer one.
			if (edits.some((edit) => node.offset >= edit.offset && node.offset < edit.offset + edit.length)) continue;
			edits.push({offset: node.offset, length: node.length, content: JSON.stringify(SECRET_MASK)});
		}

		return applyEdits(this.text, edits);
	}

	/**
	 * Turns a dotted path (`cpu.huge-pages`, `pools.0.tls`) into segments by walking the document, so
	 * a key that itself holds a dot is still found. A last segment that does not exist yet under an
	 * existing object is kept as a new key. Null when the path leads nowhere.
	 */
	resolve(dotted: string): ConfigPath | null {
		const parts = dotted.split('.');
		if (parts.some((part) => part === '')) return null;
		const path: PathSegment[] = [];
		let node: JsonNode | undefined = this.#root;
		let index = 0;
		while (index < parts.length) {
			if (!node) return null;
			if (node.type === 'array') {
				const part = parts[index] ?? '';
				if (!/^\d+$/.test(part)) return null;
				const position = Number(part);
				node = node.children?.[position];
				if (!node) return null;
				path.push(position);
				index += 1;
				continue;
			}

			if (node.type !== 'object') return null;
			let found = false;
			// Longest key first: `a.b.c` prefers a key named "a.b" over "a" when both exist.
			for (let end = parts.length; end > index; end--) {
				const key = parts.slice(index, end).join('.');
				const child = findNodeAtLocation(node, [key]);
				if (child) {
					path.push(key);
					node = child;
					index = end;
					found = true;
					break;
				}
			}

			if (!found) {
				// Only the last segment may be a key that does not exist yet.
				if (index !== parts.length - 1) return null;
				path.push(parts[index] ?? '');
				return path;
			}
		}

		return path;
	}

	#node(path: ConfigPath): JsonNode | undefined {
		return path.length === 0 ? this.#root : findNodeAtLocation(this.#root, [...path]);
	}

	#modify(path: ConfigPath, value: JsonValue): string {
		// jsonc-parser re-formats the whole lines the edit touches. In a document laid out on one line
		// that would be the whole document, so there the new text is written without formatting.
		const multiLine = this.text.includes('\n');
		const edits = modify(this.text, [...path], value, multiLine ? {formattingOptions: this.formatting} : {});
		return applyEdits(this.text, edits);
	}

	#collect(node: JsonNode, path: PathSegment[], list: ConfigEntry[]): void {
		const children = node.children ?? [];
		if (node.type === 'object') {
			for (const property of children) {
				const [keyNode, valueNode] = property.children ?? [];
				if (!keyNode || !valueNode) continue;
				this.#add([...path, String(keyNode.value)], valueNode, list);
			}
		} else if (node.type === 'array') {
			for (const [index, child] of children.entries()) this.#add([...path, index], child, list);
		}
	}

	#add(path: PathSegment[], node: JsonNode, list: ConfigEntry[]): void {
		const kind = nodeKind(node);
		const secret = isSecret(path);
		const container = kind === 'object' || kind === 'array';
		let display: string;
		if (secret && kind !== 'null') display = SECRET_MASK;
		else if (kind === 'object') display = '{…}';
		else if (kind === 'array') display = '[…]';
		// The value's JSON as written, a control or invisible character inside a string as its escape (the same JSON).
		else display = escapeUnsafe(this.text.slice(node.offset, node.offset + node.length));
		const value = container || secret ? undefined : (valueOfTree(node) as JsonScalar);
		list.push({
			path,
			id: formatPath(path),
			key: path.at(-1) ?? '',
			depth: path.length - 1,
			kind,
			childCount: container ? (node.children?.length ?? 0) : 0,
			value,
			display,
			secret,
			guarded: isApiGuarded(path),
		});
		if (container && !secret) this.#collect(node, path, list);
	}
}
