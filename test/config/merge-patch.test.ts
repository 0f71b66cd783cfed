/**
 * JSON Merge Patch (RFC 7386): the RFC's own examples (its Appendix A and section 3), both as values (`mergePatch`)
 * and made in place in a document's text (`patchChanges` + `patchText`), which must give the same value and keep
 * every other byte.
 */
import {describe, expect, it} from 'vitest';
import {ConfigDocument} from '../../source/config/document.js';
import {mergePatch, patchChanges, patchText} from '../../source/config/merge-patch.js';
import type {JsonObject, JsonValue} from '../../source/config/types.js';

// RFC 7386, Appendix A: ORIGINAL, PATCH, RESULT.
const APPENDIX_A: ReadonlyArray<readonly [JsonValue, JsonValue, JsonValue]> = [
	[{a: 'b'}, {a: 'c'}, {a: 'c'}],
	[{a: 'b'}, {b: 'c'}, {a: 'b', b: 'c'}],
	[{a: 'b'}, {a: null}, {}],
	[{a: 'b', b: 'c'}, {a: null}, {b: 'c'}],
	[{a: ['b']}, {a: 'c'}, {a: 'c'}],
	[{a: 'c'}, {a: ['b']}, {a: ['b']}],
	[{a: {b: 'c'}}, {a: {b: 'd', c: null}}, {a: {b: 'd'}}],
	[{a: [{b: 'c'}]}, {a: [1]}, {a: [1]}],
	[
		['a', 'b'],
		['c', 'd'],
		['c', 'd'],
	],
	[{a: 'b'}, ['c'], ['c']],
	[{a: 'foo'}, null, null],
	[{a: 'foo'}, 'bar', 'bar'],
	[{e: null}, {a: 1}, {e: null, a: 1}],
	[[1, 2], {a: 'b', c: null}, {a: 'b'}],
	[{}, {a: {bb: {ccc: null}}}, {a: {bb: {}}}],
];

const isObject = (value: JsonValue): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

describe('mergePatch (RFC 7386)', () => {
	it.each(APPENDIX_A.map((example, index) => [index + 1, ...example] as const))('Appendix A example %i', (_, original, patch, expected) => {
		expect(mergePatch(original, patch)).toEqual(expected);
	});

	it("section 3's example", () => {
		const original = {
			title: 'Goodbye!',
			author: {givenName: 'John', familyName: 'Doe'},
			tags: ['example', 'sample'],
			content: 'This will be unchanged',
		};
		const patch = {title: 'Hello!', phoneNumber: '+01-123-456-7890', author: {familyName: null}, tags: ['example']};
		expect(mergePatch(original, patch)).toEqual({
			title: 'Hello!',
			author: {givenName: 'John'},
			tags: ['example'],
			content: 'This will be unchanged',
			phoneNumber: '+01-123-456-7890',
		});
	});

	it('leaves the original alone', () => {
		const original = {a: {b: 'c'}};
		mergePatch(original, {a: {b: null}});
		expect(original).toEqual({a: {b: 'c'}});
	});
});

describe('a merge patch made in place in the text', () => {
	const objectExamples = APPENDIX_A.filter(([original, patch]) => isObject(original) && isObject(patch));

	it.each(objectExamples.map((example, index) => [index + 1, ...example] as const))(
		'object example %i gives the RFC result',
		(_, original, patch, expected) => {
			const text = `${JSON.stringify(original, null, 4)}\n`;
			const changed = patchText(text, patchChanges(original, patch as JsonObject));
			expect(new ConfigDocument(changed).value).toEqual(expected);
		},
	);

	it('keeps comments, key order and number spelling; lists one change per leaf', () => {
		const text =
			'{\n    // the CPU\n    "cpu": {"enabled": true, "huge-pages": true, "priority": 1.0},\n    "donate-level": 1,\n    "log-file": "x.log"\n}\n';
		const value = new ConfigDocument(text).value;
		const changes = patchChanges(value, {cpu: {'huge-pages': false}, 'log-file': null, 'donate-level': 1});
		expect(changes).toEqual([
			{path: ['cpu', 'huge-pages'], before: true, after: false},
			{path: ['log-file'], before: 'x.log', after: undefined},
		]);
		const changed = patchText(text, changes);
		expect(changed).toContain('// the CPU');
		expect(changed).toContain('"priority": 1.0');
		expect(new ConfigDocument(changed).value).toEqual(mergePatch(value, {cpu: {'huge-pages': false}, 'log-file': null}));
	});
});
