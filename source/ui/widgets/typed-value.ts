/**
 * What the text typed in the inline editor means for a key. JSON when it parses (`30`, `true`,
 * `null`, `"x"`), else the text as a string; a number-looking text for a key that takes strings
 * (`rig-id` 123) stays the string typed. A secret is always taken as typed.
 */
import {assignmentValue} from '../../config/edits.js';
import {formatPath} from '../../config/json-values.js';
import type {ConfigPath, JsonValue} from '../../config/types.js';

export type TypedValue = {readonly kind: 'value'; readonly value: JsonValue} | {readonly kind: 'unchanged'};

export function typedValue(path: ConfigPath, text: string, current: JsonValue | undefined, secret: boolean): TypedValue {
	if (secret) return text === '' ? {kind: 'unchanged'} : {kind: 'value', value: text};
	if (text.trim() === '') {
		// Nothing typed: an empty string for a string key (validation says whether that is allowed), else null.
		return {kind: 'value', value: typeof current === 'string' ? '' : null};
	}

	let value: JsonValue;
	try {
		value = JSON.parse(text) as JsonValue;
	} catch {
		value = text;
	}

	return {kind: 'value', value: assignmentValue(path, {path: formatPath(path), value, raw: text}, current)};
}

/** The text the editor starts with: a string's own text, a number as written, nothing for null or a secret. */
export function editorStartText(value: JsonValue | undefined, raw: string, secret: boolean): string {
	if (secret || value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	return raw;
}
