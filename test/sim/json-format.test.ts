import {readdirSync, statSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {isJsonObject, PARSE_ERRORS, parseRapidJson} from '../../source/sim/json-reader.js';
import {JsonDouble, STYLE_2, STYLE_6, writeDouble, writeJson, writeString} from '../../source/sim/json-writer.js';
import {FIXTURES, fixture, parseCapture} from './helpers.js';

function captures(folder: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(path.join(FIXTURES, folder))) {
		const relative = path.join(folder, entry);
		if (statSync(path.join(FIXTURES, relative)).isDirectory()) out.push(...captures(relative));
		else if (entry.endsWith('.txt') && !relative.includes('requests')) out.push(relative);
	}
	return out;
}

describe('JSON writer against the captures', () => {
	for (const [folder, style] of [
		['v6.26', STYLE_6],
		['v2.16', STYLE_2],
	] as const) {
		it(`re-writes every ${folder} answer body byte for byte`, () => {
			let checked = 0;
			for (const file of captures(folder)) {
				const {body} = parseCapture(fixture(file));
				if (body === '') continue;
				const parsed = parseRapidJson(body, {doubles: true});
				expect(parsed.ok, file).toBe(true);
				if (!parsed.ok) continue;
				expect(writeJson(parsed.value, style), file).toBe(body);
				checked++;
			}
			expect(checked).toBeGreaterThan(folder === 'v6.26' ? 100 : 60);
		});
	}

	it('re-writes the config files each miner saved', () => {
		for (const file of [
			'v6.26/configs/config_main_as_autosaved_on_start.json',
			'v6.26/configs/config_main_on_disk_after_put_modified.json',
		]) {
			const text = fixture(file);
			const parsed = parseRapidJson(text, {doubles: true});
			expect(parsed.ok).toBe(true);
			if (parsed.ok) expect(writeJson(parsed.value, STYLE_6)).toBe(text);
		}
		for (const file of ['v2.16/configs/config_main_as_autosaved_on_start.json', 'v2.14-configs/config_main_as_autosaved_on_start.json']) {
			const text = fixture(file);
			const parsed = parseRapidJson(text, {doubles: true});
			expect(parsed.ok).toBe(true);
			if (parsed.ok) expect(writeJson(parsed.value, STYLE_2).trimEnd()).toBe(text.trimEnd());
		}
	});

	it('puts scalars on one line but nested containers on their own lines (XMRig’s single-line-array patch)', () => {
		expect(writeJson({a: [1, [2, 3]], b: [], c: {}}, STYLE_6)).toBe(
			'{\n    "a": [1,\n        [2, 3]\n    ],\n    "b": [],\n    "c": {}\n}',
		);
		expect(writeJson([{x: 1}, 2], STYLE_6)).toBe('[\n    {\n        "x": 1\n    }, 2]');
		expect(writeJson({a: [1, 2]}, STYLE_2)).toBe('{\n    "a": [\n        1,\n        2\n    ]\n}');
	});

	it('writes doubles like rapidjson (always a point, at most 10 decimals, cut not rounded)', () => {
		expect(writeDouble(0)).toBe('0.0');
		expect(writeDouble(1138.9)).toBe('1138.9');
		expect(writeDouble(2)).toBe('2.0');
		expect(writeDouble(1 / 3)).toBe('0.3333333333');
		expect(writeDouble(Number.NaN)).toBe('null');
		expect(writeJson([new JsonDouble(5), 5], STYLE_6)).toBe('[5.0, 5]');
	});

	it('escapes strings like rapidjson', () => {
		expect(writeString('a"b\\c/d\u0001\n\u007f é')).toBe('"a\\"b\\\\c/d\\u0001\\n\u007f é"');
		expect(writeString('\u001f')).toBe('"\\u001F"');
	});

	it('leaves out undefined members', () => {
		expect(writeJson({a: 1, b: undefined, c: null}, STYLE_6)).toBe('{\n    "a": 1,\n    "c": null\n}');
	});
});

describe('rapidjson-compatible reader', () => {
	it('fails with the message the miner put in its 400 answer', () => {
		const result = parseRapidJson(fixture('v6.26/requests/put_body_badjson.txt'));
		const answer = JSON.parse(parseCapture(fixture('v6.26/put_1_config_badjson.txt')).body) as {error: string};
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toBe(answer.error);
	});

	it('accepts comments and trailing commas (kParseCommentsFlag | kParseTrailingCommasFlag)', () => {
		const result = parseRapidJson('/* head */ {"a": [1, 2,], // tail\n "b": {"c": true,},}\n');
		expect(result).toEqual({ok: true, value: {a: [1, 2], b: {c: true}}});
	});

	it('reports each error kind with rapidjson’s text', () => {
		const error = (text: string): string | null => {
			const result = parseRapidJson(text);
			return result.ok ? null : result.error;
		};
		expect(error('')).toBe(PARSE_ERRORS.documentEmpty);
		expect(error('  \n')).toBe(PARSE_ERRORS.documentEmpty);
		expect(error('{} {}')).toBe(PARSE_ERRORS.rootNotSingular);
		expect(error('{"a" 1}')).toBe(PARSE_ERRORS.objectMissColon);
		expect(error('{"a": 1 "b": 2}')).toBe(PARSE_ERRORS.objectMissCommaOrCurlyBracket);
		expect(error('[1 2]')).toBe(PARSE_ERRORS.arrayMissCommaOrSquareBracket);
		expect(error('nul')).toBe(PARSE_ERRORS.valueInvalid);
		expect(error('"abc')).toBe(PARSE_ERRORS.missQuotationMark);
		expect(error('"\\x"')).toBe(PARSE_ERRORS.escapeInvalid);
		expect(error('"\\u12G4"')).toBe(PARSE_ERRORS.unicodeEscapeInvalidHex);
		expect(error('"\\ud800x"')).toBe(PARSE_ERRORS.unicodeSurrogateInvalid);
		expect(error('1.')).toBe(PARSE_ERRORS.numberMissFraction);
		expect(error('1e')).toBe(PARSE_ERRORS.numberMissExponent);
		expect(error('/x')).toBe(PARSE_ERRORS.unspecificSyntaxError);
		expect(error('"a\u0001"')).toBe(PARSE_ERRORS.invalidEncoding);
		expect(error('['.repeat(10_000))).toBe(PARSE_ERRORS.termination);
	});

	it('keeps the first of duplicate keys and never touches the prototype', () => {
		const result = parseRapidJson('{"a": 1, "a": 2, "__proto__": {"polluted": true}}');
		expect(result.ok).toBe(true);
		if (!result.ok || !isJsonObject(result.value)) return;
		expect(result.value['a']).toBe(1);
		expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
	});

	it('stops at a NUL byte like the C string XMRig parses', () => {
		expect(parseRapidJson('{"a": 1}\u0000garbage')).toEqual({ok: true, value: {a: 1}});
	});

	it('marks numbers with a fraction or exponent as doubles on request', () => {
		expect(parseRapidJson('[1, 1.0, 1e2]', {doubles: true})).toEqual({ok: true, value: [1, new JsonDouble(1), new JsonDouble(100)]});
	});
});
