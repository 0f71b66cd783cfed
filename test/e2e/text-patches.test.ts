import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';

// scripts/build.mjs patches Ink's text packages for start-up time (lazy Intl.Segmenter, no segmenter
// for text of single-character graphemes, the RGI emoji regex only for possible emoji). The patched
// functions must answer exactly as the packages do: bundle them with the build's own settings and
// compare them with the unpatched packages on generated text.

type TextFunctions = {
	sliceAnsi: (text: string, from: number, to?: number) => string;
	stringWidth: (text: string) => number;
	tokenize: (text: string, endChar?: number) => unknown[];
	wrapAnsi: (text: string, columns: number, options: {hard: boolean; trim: boolean}) => string;
};

const work = mkdtempSync(path.join(tmpdir(), 'rigtop-text-patches-'));
let patched: TextFunctions;
let original: TextFunctions;

const importFrom = async (specifier: string): Promise<Record<string, unknown>> => (await import(specifier)) as Record<string, unknown>;

beforeAll(async () => {
	const entry = path.join(work, 'entry.mjs');
	writeFileSync(
		entry,
		"export {default as sliceAnsi} from 'slice-ansi'; export {default as stringWidth} from 'string-width'; export {tokenize} from '@alcalzone/ansi-tokenize'; export {default as wrapAnsi} from 'wrap-ansi';",
	);
	const {build} = await importFrom('esbuild');
	const {common} = await importFrom(pathToFileURL(path.resolve('scripts/build.mjs')).href);
	const outfile = path.join(work, 'patched.mjs');
	await (build as (options: object) => Promise<unknown>)({
		...(common as object),
		entryPoints: [entry],
		outfile,
		nodePaths: [path.resolve('node_modules')],
	});
	patched = (await importFrom(pathToFileURL(outfile).href)) as TextFunctions;
	original = {
		sliceAnsi: (await importFrom('slice-ansi'))['default'] as TextFunctions['sliceAnsi'],
		stringWidth: (await importFrom('string-width'))['default'] as TextFunctions['stringWidth'],
		tokenize: (await importFrom('@alcalzone/ansi-tokenize'))['tokenize'] as TextFunctions['tokenize'],
		wrapAnsi: (await importFrom('wrap-ansi'))['default'] as TextFunctions['wrapAnsi'],
	};
}, 30_000);

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

// The first pieces are single-character graphemes (the patched fast path); the rest are not.
const SIMPLE = [
	'a',
	'Z',
	' ',
	'1',
	'─',
	'│',
	'┌',
	'·',
	'…',
	'▁',
	'█',
	'●',
	'✓',
	'↑',
	'é',
	'©',
	'™',
	'⌚',
	'\u001B[31m',
	'\u001B[39m',
	'\u001B[1m',
	'\u001B[38;5;12m',
	'\u001B]8;;http://x\u0007',
	'\u001B]8;;\u0007',
];
const OTHER = [
	'\u0301',
	'\u200D',
	'\uFE0F',
	'👍',
	'🏽',
	'🇩',
	'🇪',
	'👨‍👩‍👧',
	'한',
	'\u1100',
	'\u1161',
	'中',
	'ｶ',
	'ﾞ',
	'\r',
	'\n',
	'\t',
	'\u009B31m',
	'\u00AD',
	'\u20DD',
	'1\uFE0F\u20E3',
];

describe('the build patches of Ink text packages', () => {
	it('measure, slice, tokenize and wrap every generated text as the unpatched packages do', () => {
		let seed = 1;
		const next = (n: number) => {
			seed = (seed * 1_103_515_245 + 12_345) & 0x7f_ff_ff_ff;
			return seed % n;
		};

		const differences: string[] = [];
		for (let index = 0; index < 8000; index++) {
			const pool = index % 2 === 0 ? SIMPLE : [...SIMPLE, ...OTHER];
			let text = '';
			for (let length = 1 + next(30); length > 0; length--) text += pool[next(pool.length)] ?? '';
			const from = next(20);
			const to = from + next(40);
			const endChar = next(3) === 0 ? next(25) : Number.POSITIVE_INFINITY;
			const columns = 1 + next(20);
			const checks: Array<[string, unknown, unknown]> = [
				['sliceAnsi', patched.sliceAnsi(text, from, to), original.sliceAnsi(text, from, to)],
				['stringWidth', patched.stringWidth(text), original.stringWidth(text)],
				['tokenize', JSON.stringify(patched.tokenize(text, endChar)), JSON.stringify(original.tokenize(text, endChar))],
				[
					'wrapAnsi',
					patched.wrapAnsi(text, columns, {hard: true, trim: false}),
					original.wrapAnsi(text, columns, {hard: true, trim: false}),
				],
			];
			for (const [name, got, want] of checks) if (got !== want) differences.push(`${name}(${JSON.stringify(text)})`);
		}

		expect(differences.slice(0, 5)).toEqual([]);
	});

	it('give single code points the width string-width gives them (the RGI emoji shortcut)', () => {
		const differences: number[] = [];
		// Where the symbols and emoji are: the BMP up to CJK, and the emoji planes' blocks.
		for (const [first, last] of [
			[0x20, 0x2f_ff],
			[0x1_f0_00, 0x1_fa_ff],
		] as const) {
			for (let codePoint = first; codePoint <= last; codePoint++) {
				const text = String.fromCodePoint(codePoint);
				if (patched.stringWidth(text) !== original.stringWidth(text)) differences.push(codePoint);
			}
		}

		expect(differences.slice(0, 5)).toEqual([]);
	});
});
