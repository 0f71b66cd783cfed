/**
 * JSON Merge Patch (RFC 7386, same text as RFC 7396): the fleet template of `rigtop config apply PATCH.json`. A null
 * removes a key, an object merges into an object, anything else (an array, a scalar, an object onto a non-object)
 * replaces. `mergePatch` is the RFC's MergePatch on values; `patchChanges` is the same merge as the changes it makes
 * to one document, leaf by leaf, so `patchText` can make them in place in the miner's text (every other byte, comment
 * and key order kept, as `config set` does) and the apply can read each one back.
 */
import {applyEdits as applyTextEdits, modify} from 'jsonc-parser';
import {ConfigDocument} from './document.js';
import {jsonEqual} from './json-values.js';
import type {ConfigPath, JsonObject, JsonValue} from './types.js';

/** One change a patch makes to a document: `after` undefined removes the key. */
export type PatchChange = {
	readonly path: ConfigPath;
	readonly before: JsonValue | undefined;
	readonly after: JsonValue | undefined;
};

function isObject(value: JsonValue | undefined): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386 section 2's MergePatch(Target, Patch). */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
	if (!isObject(patch)) return patch;
	const result: Record<string, JsonValue> = isObject(target) ? {...target} : {};
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) delete result[key];
		else Object.defineProperty(result, key, {value: mergePatch(result[key], value), enumerable: true, writable: true, configurable: true});
	}

	return result;
}

/**
 * The changes a patch makes to a document's value, deepest first where objects merge; a key the patch removes that
 * is not there, or a value it already has, is no change.
 */
export function patchChanges(target: JsonValue, patch: JsonObject, path: ConfigPath = []): PatchChange[] {
	const changes: PatchChange[] = [];
	const here = isObject(target) ? target : {};
	for (const [key, value] of Object.entries(patch)) {
		const at = [...path, key];
		const before = Object.hasOwn(here, key) ? here[key] : undefined;
		if (value === null) {
			if (before !== undefined) changes.push({path: at, before, after: undefined});
		} else if (isObject(value) && isObject(before)) {
			changes.push(...patchChanges(before, value, at));
		} else {
			const after = mergePatch(undefined, value);
			if (!jsonEqual(before, after)) changes.push({path: at, before, after});
		}
	}

	return changes;
}

/** The document's text with the changes made in place (each on the text the one before left). */
export function patchText(text: string, changes: readonly PatchChange[]): string {
	let current = text;
	for (const change of changes) {
		if (change.after === undefined) {
			const edits = modify(current, [...change.path], undefined, {formattingOptions: formattingOf(current)});
			current = applyTextEdits(current, edits);
		} else {
			current = new ConfigDocument(current).set(change.path, change.after);
		}
	}

	return current;
}

function formattingOf(text: string): {insertSpaces: boolean; tabSize: number; eol: string} {
	const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '    ';
	return {
		insertSpaces: !indent.startsWith('\t'),
		tabSize: indent.startsWith('\t') ? 1 : indent.length,
		eol: text.includes('\r\n') ? '\r\n' : '\n',
	};
}
