/**
 * The config tree as the view lists it: which keys are visible (every ancestor open), how a key is
 * labelled, what its value shows (the pending value when changed, secrets masked), and search.
 * Pure functions over the engine's ConfigDocument and PendingEdits.
 */
import type {ConfigDocument, ConfigEntry} from '../../config/document.js';
import {displayValue, type PendingEdits} from '../../config/edits.js';
import {formatPath, showPath} from '../../config/json-values.js';
import {cycleValues, specFor} from '../../config/schema.js';
import {SECRET_MASK} from '../../config/types.js';
import type {ConfigPath} from '../../config/types.js';
import {CONFIG_KEYMAP} from '../keys/bindings.js';

/** The ids (dotted paths) of every section around a key, outermost first. */
export function ancestorIds(path: ConfigPath): string[] {
	const ids: string[] = [];
	for (let length = 1; length < path.length; length++) ids.push(formatPath(path.slice(0, length)));
	return ids;
}

export function isContainer(entry: ConfigEntry): boolean {
	return (entry.kind === 'object' || entry.kind === 'array') && !entry.secret;
}

/** The keys shown: top-level keys, and the keys of every open section whose sections around it are open too. */
export function visibleEntries(document: ConfigDocument, expanded: ReadonlySet<string>): readonly ConfigEntry[] {
	return document.entries().filter((entry) => ancestorIds(entry.path).every((id) => expanded.has(id)));
}

/** Where the cursor is among the visible keys: its own row, else the nearest open section around it, else the first row. */
export function cursorIndex(rows: readonly ConfigEntry[], cursor: string | null, document: ConfigDocument | null): number {
	if (rows.length === 0) return -1;
	if (cursor === null) return 0;
	const own = rows.findIndex((row) => row.id === cursor);
	if (own !== -1) return own;
	const entry = document?.entries().find((item) => item.id === cursor);
	if (entry) {
		for (const id of ancestorIds(entry.path).reverse()) {
			const at = rows.findIndex((row) => row.id === id);
			if (at !== -1) return at;
		}
	}

	return 0;
}

/** Every key whose dotted path holds the text (any case), in document order. */
export function searchMatches(document: ConfigDocument, query: string): readonly ConfigEntry[] {
	return matchingKeys(document.entries(), query);
}

/** The keys (in their order) whose dotted path holds the text, any case: the search of the config views. */
export function matchingKeys<Key extends {readonly id: string}>(keys: readonly Key[], query: string): readonly Key[] {
	const needle = query.trim().toLowerCase();
	if (needle === '') return [];
	return keys.filter((key) => key.id.toLowerCase().includes(needle));
}

/**
 * The label of a key in the tree: its name (a control or invisible character in it escaped: showPath); a list item's
 * index as `[0]`; a list with its length, `pools [1]`.
 */
export function entryLabel(entry: ConfigEntry): string {
	const name = typeof entry.key === 'number' ? `[${entry.key}]` : showPath(entry.key);
	return entry.kind === 'array' && !entry.secret ? `${name} [${entry.childCount}]` : name;
}

/** What the value column shows: the pending value if changed, a mask for a secret, a summary for a section. */
export function entryValue(entry: ConfigEntry, edits: PendingEdits | null, document: ConfigDocument): string {
	const edit = edits?.get(entry.path);
	if (edit) return edit.secret ? SECRET_MASK : displayValue(entry.path, edit.after);
	if (entry.secret) return entry.display;
	if (entry.kind === 'object') {
		// A pool (or any list item) is easier to find by its url.
		if (typeof entry.key === 'number') {
			const url = document.get([...entry.path, 'url']);
			if (typeof url === 'string') return showPath(url);
		}

		return '';
	}

	if (entry.kind === 'array') return '';
	return entry.display;
}

/** What a changed key says after its value: `(was true)`, or `(changed)` for a secret. */
export function wasText(entry: ConfigEntry, edits: PendingEdits | null): string | null {
	const edit = edits?.get(entry.path);
	if (!edit) return null;
	if (edit.secret) return '(changed)';
	return `(was ${displayValue(entry.path, edit.before)})`;
}

/** The cycle hint for a key with a known set of values: `Space: auto fast light`; null for others (plain booleans too). */
export function cycleHint(entry: ConfigEntry): string | null {
	if (isContainer(entry) || entry.secret) return null;
	const spec = specFor(entry.path);
	if (!spec?.cycle) return null;
	const values = cycleValues(entry.path, entry.value);
	if (!values) return null;
	return `${CONFIG_KEYMAP.keyOf('toggle', 'browse')}: ${values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(' ')}`;
}

/** When a change to this key takes effect, where that is not "at once". */
export function keyNote(entry: ConfigEntry): string | null {
	return specFor(entry.path)?.note ?? null;
}
