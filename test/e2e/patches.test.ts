import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';

// The versioned patches scripts/build.mjs applies (scripts/patches/): each patched module, bundled with the build's
// own settings, runs beside the original package from node_modules on the same inputs and must answer the same.

type Patch = {packageName: string; version: string; applied: number};
type StringWidth = (text: string, options?: {ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean}) => number;
type Meow = (
	help: string,
	options: Record<string, unknown>,
) => {input: string[]; flags: unknown; unnormalizedFlags: unknown; help: string; pkg: unknown};
type YogaNode = {
	setWidth(width: number): void;
	setHeight(height: number | 'auto'): void;
	setFlexDirection(direction: number): void;
	setFlexGrow(grow: number): void;
	setFlexShrink(shrink: number): void;
	setFlexWrap(wrap: number): void;
	setPadding(edge: number, value: number): void;
	setMargin(edge: number, value: number): void;
	setBorder(edge: number, value: number): void;
	setMinWidth(value: number): void;
	setJustifyContent(value: number): void;
	setAlignItems(value: number): void;
	setMeasureFunc(measure: (width: number, widthMode: number) => {width: number; height: number}): void;
	insertChild(child: YogaNode, index: number): void;
	getChildCount(): number;
	getChild(index: number): YogaNode;
	calculateLayout(width: number | undefined, height: number | undefined, direction: number): void;
	getComputedLayout(): {left: number; top: number; width: number; height: number};
	freeRecursive(): void;
};
type Yoga = {
	Node: {create(): YogaNode};
	[name: string]: unknown;
};
type Clip = {x1?: number; x2?: number; y1?: number; y2?: number};
type InkOutput = {
	readonly caches: {
		styledChars: Map<string, unknown>;
		widths: Map<string, number>;
		blockWidths: Map<string, number>;
		lines?: Map<string, unknown>;
	};
	write(x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
type InkOutputClass = new (options: {width: number; height: number}) => InkOutput;
type CreateElement = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => unknown;
type InkScreen = {
	renderToString: (node: unknown, options?: {columns?: number}) => string;
	Box: unknown;
	Text: unknown;
	createElement: CreateElement;
};

/** Ink's frame buffer (not among its package exports: imported by its file). */
const inkOutputFile = path.resolve('node_modules/ink/build/output.js');
/** Ink's line diff (the same). */
const inkLineUpdateFile = path.resolve('node_modules/ink/build/line-update.js');
type LineUpdate = (previous: string, next: string, columns: number) => string;

const work = mkdtempSync(path.join(tmpdir(), 'rigtop-patches-'));
let patches: Patch[];
type Modules = {stringWidth: StringWidth; meow: Meow; Yoga: Yoga; InkOutput: InkOutputClass; ink: InkScreen; lineUpdate: LineUpdate};
let patched: Modules;
let original: Modules;
let patchedFile: string;

const importFrom = async (specifier: string): Promise<Record<string, unknown>> => (await import(specifier)) as Record<string, unknown>;

beforeAll(async () => {
	{
		const entry = path.join(work, 'entry.mjs');
		writeFileSync(
			entry,
			`export {default as stringWidth} from 'string-width'; export {default as meow} from 'meow'; export {default as Yoga} from 'yoga-layout'; export {default as InkOutput} from ${JSON.stringify(inkOutputFile)};
export * as ink from './ink-screen.mjs'; export {default as lineUpdate} from ${JSON.stringify(inkLineUpdateFile)};`,
		);
		writeFileSync(path.join(work, 'ink-screen.mjs'), `export {renderToString, Box, Text} from 'ink'; export {createElement} from 'react';`);
		const {build} = await importFrom('esbuild');
		const buildModule = await importFrom(pathToFileURL(path.resolve('scripts/build.mjs')).href);
		patches = buildModule['patches'] as Patch[];
		const outfile = path.join(work, 'out', 'patched.js');
		// Split as the CLI is: Ink's devtools (never installed) stays in a chunk nothing loads.
		await (build as (options: object) => Promise<unknown>)({
			...(buildModule['common'] as object),
			entryPoints: {patched: entry},
			outdir: path.join(work, 'out'),
			splitting: true,
			nodePaths: [path.resolve('node_modules')],
		});
		original = {
			stringWidth: (await importFrom('string-width'))['default'] as StringWidth,
			meow: (await importFrom('meow'))['default'] as Meow,
			Yoga: (await importFrom('yoga-layout'))['default'] as Yoga,
			InkOutput: (await importFrom(pathToFileURL(inkOutputFile).href))['default'] as InkOutputClass,
			lineUpdate: (await importFrom(pathToFileURL(inkLineUpdateFile).href))['default'] as LineUpdate,
			ink: {
				...((await importFrom('ink')) as Pick<InkScreen, 'renderToString' | 'Box' | 'Text'>),
				createElement: (await importFrom('react'))['createElement'] as CreateElement,
			},
		};
		patchedFile = outfile;
		patched = (await importFrom(pathToFileURL(outfile).href)) as typeof patched;
	}
}, 60_000);

/** How many times a fresh Node process calls fetch() while it imports `specifier` (Ink's setup here has loaded yoga already). */
function fetchCallsWhileImporting(specifier: string): number {
	const script = `let calls = 0; const realFetch = globalThis.fetch; globalThis.fetch = (...a) => { calls++; return realFetch(...a); };
const module = await import(${JSON.stringify(specifier)}); if (!module.default && !module.Yoga) throw new Error('nothing loaded');
process.stdout.write(String(calls));`;
	return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', cwd: process.cwd()}));
}

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

it('the build applies each patch to the package version it names', () => {
	expect(patches.map((patch) => patch.packageName).sort()).toEqual(['ink', 'meow', 'string-width', 'yoga-layout']);
	for (const patch of patches) expect(patch.applied, patch.packageName).toBe(patch.packageName === 'ink' ? 3 : 1);
});

describe('ink output (the text caches carried from one frame to the next)', () => {
	/** Frames of a dashboard-like screen whose values change from one frame to the next, drawn by `Output`. */
	function drawFrames(Output: InkOutputClass, count: number): string[] {
		const frames: string[] = [];
		const red = (line: string) => `\u001B[31m${line}\u001B[39m`;
		for (let frame = 0; frame < count; frame++) {
			const output = new Output({width: 40, height: 8});
			output.write(0, 0, `╭─ Hashrate ${String(frame % 97).padStart(3)} H/s ─╮`, {transformers: []});
			output.write(1, 1, `\u001B[1mpool\u001B[22m 中文 ${frame % 13} 👍`, {transformers: [red]});
			output.clip({x1: 2, x2: 20, y1: 2, y2: 6});
			output.write(0, 2, `line one ${frame}\nline two ${frame % 7}\n中中中中中中中中中中中中`, {transformers: []});
			output.write(18, 3, '漢字が境界にまたがる', {transformers: []});
			output.unclip();
			output.write(0, 7, `${'x'.repeat(frame % 40)} ${frame}`, {transformers: [red]});
			frames.push(output.get().output);
		}

		return frames;
	}

	it('draws the same frames as the original', () => {
		// 3,000 frames whose strings change from frame to frame, some every frame, some now and then.
		const mine = drawFrames(patched.InkOutput, 3000);
		const theirs = drawFrames(original.InkOutput, 3000);
		const differences = mine.flatMap((frame, index) => (frame === theirs[index] ? [] : [index]));
		expect(differences.slice(0, 5)).toEqual([]);
		expect(new Set(mine).size).toBeGreaterThan(100);
	});

	it('carries what the last frame tokenized and measured over to the next, and nothing older', () => {
		const draw = (Output: InkOutputClass, text: string) => {
			const output = new Output({width: 12, height: 1});
			output.write(0, 0, text, {transformers: []});
			output.get();
			return output.caches;
		};

		const first = draw(patched.InkOutput, 'same text');
		const tokenized = first.styledChars.get('same text');
		expect(tokenized).toBeDefined();
		// The next frame finds the same tokens: not tokenized again.
		expect(draw(patched.InkOutput, 'same text').styledChars.get('same text')).toBe(tokenized);
		// Nor split into lines again.
		const lines = first.lines?.get('same text');
		expect(lines).toEqual(['same text']);
		expect(draw(patched.InkOutput, 'same text').lines?.get('same text')).toBe(lines);
		// The original starts each frame empty.
		draw(original.InkOutput, 'same text');
		expect(new original.InkOutput({width: 12, height: 1}).caches.styledChars.size).toBe(0);

		// A frame keeps what it used: a string two frames old is gone, and the caches never grow past two frames.
		for (let index = 0; index < 3000; index++) {
			const caches = draw(patched.InkOutput, `text ${index}`);
			expect(caches.styledChars.size + caches.widths.size + caches.blockWidths.size + (caches.lines?.size ?? 0)).toBeLessThan(40);
		}

		const later = draw(patched.InkOutput, 'other');
		expect(later.styledChars.has('text 2998')).toBe(false);
		expect(later.styledChars.has('same text')).toBe(false);
	});
	/** How many row strings `get()` builds (each is trimmed once: String.prototype.trimEnd is counted). */
	function rowsBuilt(output: InkOutput): {rows: number; text: string} {
		const trimEnd = String.prototype.trimEnd;
		let rows = 0;
		String.prototype.trimEnd = function (this: string) {
			rows++;
			return trimEnd.call(this);
		};
		try {
			const text = output.get().output;
			return {rows, text};
		} finally {
			String.prototype.trimEnd = trimEnd;
		}
	}

	it('builds again only the rows whose cells changed since the last frame', () => {
		const draw = (Output: InkOutputClass, texts: string[]) => {
			const output = new Output({width: 20, height: texts.length});
			for (const [y, text] of texts.entries()) output.write(0, y, text, {transformers: []});
			return output;
		};

		const texts = ['\u001B[32mmining\u001B[39m 中文', 'rate 1000 H/s 👍', '', 'last row'];
		for (const Output of [original.InkOutput, patched.InkOutput]) draw(Output, texts).get();
		const theirs = rowsBuilt(draw(original.InkOutput, texts));
		const mine = rowsBuilt(draw(patched.InkOutput, texts));
		expect(theirs.rows).toBe(4);
		expect(mine.rows).toBe(0);
		expect(mine.text).toBe(theirs.text);
		// A row that changed is built again, the others are not.
		const changed = rowsBuilt(draw(patched.InkOutput, ['\u001B[32mmining\u001B[39m 中文', 'rate 1001 H/s 👍', '', 'last row']));
		expect(changed.rows).toBe(1);
		expect(changed.text).toContain('rate 1001 H/s 👍');
	});
});

describe('ink text widths (each text node measured through the frame caches)', () => {
	/** A dashboard-like screen at `frame`: titles, a table, a sparkline, wrapped and cut text, wide characters and emoji. */
	function screen({renderToString, Box, Text, createElement: h}: InkScreen, frame: number, columns: number, color: boolean): string {
		const paint = (code: number, text: string) => (color ? `\u001B[${code}m${text}\u001B[39m` : text);
		const spark = '▁▂▃▄▅▆▇█'.repeat(12).slice(frame % 8, (frame % 8) + 40 + (frame % 30));
		const row = (label: string, value: string) =>
			h(Box, {key: label}, h(Box, {width: 12}, h(Text, {wrap: 'truncate-end'}, label)), h(Text, {wrap: 'truncate-end'}, value));
		return renderToString(
			h(
				Box,
				{flexDirection: 'column', width: columns, borderStyle: 'round', overflowY: 'hidden'},
				h(Text, {bold: color, color: color ? 'cyan' : undefined}, `rig-${frame % 5} · ${paint(32, 'mining')} · 中文 👍🏽`),
				row('hashrate', `${paint(33, String(1000 + (frame % 17)))} H/s  ${spark}`),
				row('pool', `pool.example.net:${3333 + (frame % 3)} 漢字が境界にまたがる ${'x'.repeat(frame % 50)}`),
				row('shares', `${frame % 11} accepted, 0 rejected ✓ 🇯🇵 e\u0301`),
				h(
					Box,
					{width: Math.max(8, columns - 20)},
					h(Text, {wrap: 'wrap'}, `event ${frame}: ${'a long line that has to wrap '.repeat(1 + (frame % 3))}界`),
				),
				h(Text, {wrap: 'truncate-middle'}, `${'長'.repeat(frame % 60)}|${paint(31, 'end')}\nsecond line ${frame}`),
			),
			{columns},
		);
	}

	it('draws the same screens as the original, colour or not, as they change from frame to frame', () => {
		const differences: string[] = [];
		let distinct = new Set<string>();
		for (const columns of [80, 200, 41, 12]) {
			for (const color of [true, false]) {
				for (let frame = 0; frame < 80; frame++) {
					const mine = screen(patched.ink, frame, columns, color);
					if (mine !== screen(original.ink, frame, columns, color)) differences.push(`${columns} columns, colour ${color}, frame ${frame}`);
					distinct = distinct.add(mine);
				}
			}
		}

		expect(differences.slice(0, 5)).toEqual([]);
		expect(distinct.size).toBeGreaterThan(400);
		// The screens hold what the patch measures: wide characters, emoji and (in colour) escapes.
		expect([...distinct].some((frame) => frame.includes('中文 👍🏽') && frame.includes('\u001B['))).toBe(true);
		expect([...distinct].some((frame) => frame.includes('中文 👍🏽') && !frame.includes('\u001B['))).toBe(true);
	});
	it('measures no text again when the next frame draws the same screen', () => {
		// string-width splits non-ASCII text into graphemes (Intl.Segmenter): count the splits of a repeated frame.
		const segment = Intl.Segmenter.prototype.segment;
		let splits = 0;
		const measuringSecondFrame = (ink: InkScreen) => {
			screen(ink, 7, 80, true);
			splits = 0;
			Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, text: string) {
				splits++;
				return segment.call(this, text);
			};
			try {
				screen(ink, 7, 80, true);
			} finally {
				Intl.Segmenter.prototype.segment = segment;
			}

			return splits;
		};

		expect(measuringSecondFrame(original.ink)).toBeGreaterThan(0);
		expect(measuringSecondFrame(patched.ink)).toBe(0);
	});
});

describe('ink line update (widths of the line diff kept)', () => {
	/** Rows of a screen at `frame`: box edges, a sparkline, a value that changes, wide characters and colours. */
	const row = (frame: number, index: number) =>
		[
			`│ 10s ${(10 + (frame % 7) / 10).toFixed(1)} kH/s  60s 10.0 │`,
			`\u001B[32m${'▁▂▃▄▅▆▇█'.repeat(8).slice(frame % 8, (frame % 8) + 30)}\u001B[39m ${frame % 5}`,
			`中文 rig-${frame % 3} 👍 ${'x'.repeat(frame % 9)} ─╮`,
			`plain ascii line ${frame % 4}`,
		][index % 4]!;

	it('writes the same changes as the original', () => {
		const differences: string[] = [];
		for (const columns of [80, 40, 12]) {
			for (let frame = 1; frame < 300; frame++) {
				for (let index = 0; index < 4; index++) {
					const previous = row(frame - 1, index);
					const next = row(frame, index);
					if (patched.lineUpdate(previous, next, columns) !== original.lineUpdate(previous, next, columns)) {
						differences.push(`${columns} columns, frame ${frame}, row ${index}`);
					}
				}
			}
		}

		expect(differences.slice(0, 5)).toEqual([]);
	});

	it('measures no part of a line again when the same change comes again', () => {
		const previous = row(3, 0);
		const next = row(4, 0);
		// string-width splits non-ASCII text into graphemes: count the splits of anything but the two whole lines
		// (the line diff splits those itself).
		const measures = (lineUpdate: LineUpdate) => {
			lineUpdate(previous, next, 80);
			const segment = Intl.Segmenter.prototype.segment;
			let count = 0;
			Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, text: string) {
				if (text !== previous && text !== next) count++;
				return segment.call(this, text);
			};
			try {
				lineUpdate(previous, next, 80);
			} finally {
				Intl.Segmenter.prototype.segment = segment;
			}

			return count;
		};

		expect(measures(original.lineUpdate)).toBeGreaterThan(0);
		expect(measures(patched.lineUpdate)).toBe(0);
	});
});

describe('string-width (the RGI emoji regex built on first need)', () => {
	it('gives every single code point the width the original gives it', () => {
		const differences: number[] = [];
		// Planes 0 and 1 (every emoji, symbol and script with a width of its own; planes 2 and 3 hold CJK ideographs,
		// none an emoji) and plane 14's tags and variation selectors.
		const codePoints = function* () {
			for (let codePoint = 0; codePoint <= 0x1_ff_ff; codePoint++) if (codePoint < 0xd8_00 || codePoint > 0xdf_ff) yield codePoint;
			for (let codePoint = 0xe_00_00; codePoint <= 0xe_01_ef; codePoint++) yield codePoint;
		};
		for (const codePoint of codePoints()) {
			const text = String.fromCodePoint(codePoint);
			if (patched.stringWidth(text) !== original.stringWidth(text)) differences.push(codePoint);
		}

		expect(differences.slice(0, 5)).toEqual([]);
	});

	it('measures generated text (emoji sequences, marks, CJK, escapes) as the original does', () => {
		const pieces = [
			'a',
			' ',
			'─',
			'│',
			'●',
			'✓',
			'é',
			'\u0301',
			'\u200D',
			'\uFE0F',
			'\uFE0E',
			'👍',
			'🏽',
			'🇩',
			'🇪',
			'👨‍👩‍👧',
			'☺',
			'♥',
			'⌚',
			'1\uFE0F\u20E3',
			'#\u20E3',
			'한',
			'\u1100',
			'\u1161',
			'中',
			'ｶ',
			'ﾞ',
			'\u001B[31m',
			'\u001B[39m',
			'\t',
			'\u00AD',
		];
		let seed = 7;
		const next = (n: number) => {
			seed = (seed * 1_103_515_245 + 12_345) & 0x7f_ff_ff_ff;
			return seed % n;
		};

		const differences: string[] = [];
		for (let index = 0; index < 20_000; index++) {
			let text = '';
			for (let length = 1 + next(12); length > 0; length--) text += pieces[next(pieces.length)] ?? '';
			const options = {ambiguousIsNarrow: next(2) === 0, countAnsiEscapeCodes: next(4) === 0};
			if (patched.stringWidth(text, options) !== original.stringWidth(text, options)) differences.push(JSON.stringify(text));
		}

		expect(differences.slice(0, 5)).toEqual([]);
	});
});

describe('yoga-layout (the wasm read without fetch)', () => {
	it('loads without calling fetch, where the original calls it', () => {
		expect(fetchCallsWhileImporting('yoga-layout')).toBeGreaterThan(0);
		expect(fetchCallsWhileImporting(pathToFileURL(patchedFile).href)).toBe(0);
	});

	/** A tree like the dashboard's (columns of bordered, padded boxes with text), laid out at `width`. */
	function layout(Yoga: Yoga, width: number, variant: number): number[] {
		const constant = (name: string) => Yoga[name] as number;
		const root = Yoga.Node.create();
		root.setWidth(width);
		root.setFlexDirection(constant('FLEX_DIRECTION_COLUMN'));
		for (let pane = 0; pane < 4; pane++) {
			const box = Yoga.Node.create();
			box.setFlexDirection(constant(pane % 2 === 0 ? 'FLEX_DIRECTION_ROW' : 'FLEX_DIRECTION_COLUMN'));
			box.setFlexWrap(constant(variant % 3 === 0 ? 'WRAP_WRAP' : 'WRAP_NO_WRAP'));
			box.setBorder(constant('EDGE_ALL'), 1);
			box.setPadding(constant('EDGE_HORIZONTAL'), (variant + pane) % 3);
			box.setMargin(constant('EDGE_TOP'), pane % 2);
			box.setJustifyContent(constant(variant % 2 === 0 ? 'JUSTIFY_SPACE_BETWEEN' : 'JUSTIFY_FLEX_START'));
			box.setAlignItems(constant('ALIGN_FLEX_START'));
			for (let item = 0; item < 3 + ((variant + pane) % 4); item++) {
				const text = Yoga.Node.create();
				const length = 3 + ((variant * 7 + pane * 5 + item * 11) % 40);
				text.setFlexShrink(1);
				text.setFlexGrow(item === 0 ? 1 : 0);
				text.setMinWidth(item % 2);
				text.setMeasureFunc((available, mode) => {
					const fits = mode === constant('MEASURE_MODE_UNDEFINED') ? length : Math.max(1, Math.floor(available));
					return {width: Math.min(length, fits), height: Math.ceil(length / fits)};
				});
				box.insertChild(text, item);
			}

			root.insertChild(box, pane);
		}

		root.calculateLayout(width, undefined, constant('DIRECTION_LTR'));
		const out: number[] = [];
		const walk = (node: YogaNode) => {
			const {left, top, width: w, height: h} = node.getComputedLayout();
			out.push(left, top, w, h);
			for (let index = 0; index < node.getChildCount(); index++) walk(node.getChild(index));
		};

		walk(root);
		root.freeRecursive();
		return out;
	}

	it('lays out the same trees at every width as the original', () => {
		for (let width = 10; width <= 220; width += 3) {
			for (let variant = 0; variant < 6; variant++) {
				expect(layout(patched.Yoga, width, variant), `width ${width}, variant ${variant}`).toEqual(layout(original.Yoga, width, variant));
			}
		}
	});
});

describe('meow (normalize-package-data set up on first use)', () => {
	const help = `
	Usage
	  $ tool [URL…]

	Options
	  --interval, -i SECONDS  poll interval
	`;
	const flags = {
		url: {type: 'string', isMultiple: true},
		interval: {type: 'number', shortFlag: 'i', default: 2},
		once: {type: 'boolean', default: false},
		color: {type: 'boolean', default: true},
		tokenFile: {type: 'string'},
	};
	const pkg = {name: 'tool', version: '1.2.3', description: 'A tool.', bin: {tool: 'cli.js'}};

	it('parses the same command lines into the same flags, input and help', () => {
		const commandLines = [
			[],
			['127.0.0.1:8080'],
			['a:1', 'b:2', '--once'],
			['--url', 'x:1', '--url', 'y:2', '-i', '0.5'],
			['--no-color', '--token-file', '/tmp/t', 'host:1'],
			['--interval=3', '--', '--once'],
			['config', 'get', 'http.port', '--once'],
		];
		for (const argv of commandLines) {
			const options = {importMeta: import.meta, argv, pkg, flags, allowUnknownFlags: false, booleanDefault: undefined};
			const got = patched.meow(help, options);
			const want = original.meow(help, options);
			expect({input: got.input, flags: got.flags, unnormalizedFlags: got.unnormalizedFlags, help: got.help}, argv.join(' ')).toEqual({
				input: want.input,
				flags: want.flags,
				unnormalizedFlags: want.unnormalizedFlags,
				help: want.help,
			});
		}
	});

	it('normalizes package data read from package.json as the original does (the patched, lazy path)', () => {
		const options = {importMeta: import.meta, argv: [], flags};
		const got = patched.meow(help, options).pkg as Record<string, unknown>;
		const want = original.meow(help, options).pkg as Record<string, unknown>;
		// normalize-package-data ran: it adds _id = name@version.
		expect(got['_id']).toBe(`${String(want['name'])}@${String(want['version'])}`);
		expect(got).toEqual(want);
	});

	it('loads no node:child_process (the original does, for a promisify(execFile) it throws away)', () => {
		const loads = (specifier: string) => {
			const script = `await import(${JSON.stringify(specifier)}); process.stdout.write(String(process.moduleLoadList.includes('NativeModule child_process')));`;
			return execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', cwd: process.cwd()});
		};

		expect(loads('meow')).toBe('true');
		expect(loads(pathToFileURL(patchedFile).href)).toBe('false');
	});
});
