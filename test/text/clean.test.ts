import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {cleanOrNull, cleanText} from '../../source/text/clean.js';

/** Anything a terminal could act on, or that hides: C0/C1 controls, DEL, bidi controls. */
// eslint-disable-next-line no-control-regex -- what must never come out.
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C\u2028\u2029]/u;

describe('cleanText: terminal control', () => {
	it('removes whole OSC sequences (clipboard write, window title), not just the ESC byte', () => {
		expect(cleanText('wk\u001B]52;c;SEFDS0VE\u0007\u001B]0;PWNTITLE\u0007')).toBe('wk');
		expect(cleanText('a\u001B]0;title\u001B\\b')).toBe('ab');
		expect(cleanText('a\u009D0;title\u009Cb')).toBe('ab');
	});

	it('removes whole CSI sequences, 7-bit and 8-bit', () => {
		expect(cleanText('6.26.0\u001B[2J\u001B[H\u009B31m')).toBe('6.26.0');
		expect(cleanText('bad\u001B[31m red\u001B[0m')).toBe('bad red');
		expect(cleanText('x\u001B[?1049h\u001B[38;2;1;2;3my')).toBe('xy');
	});

	it('removes DCS, SOS, PM and APC strings up to ST, and two-character ESC sequences', () => {
		expect(cleanText('a\u001BPq#0;1\u001B\\b\u001BX sos \u001B\\c\u001B^pm\u001B\\d\u001B_apc\u009Ce')).toBe('abcde');
		expect(cleanText('a\u0090dcs\u009Cb\u001B(Bc\u001B7d\u001Bc')).toBe('abcd');
	});

	it('turns other controls, tabs, newlines, line/paragraph separators and Unicode spaces into one space, trimmed', () => {
		expect(cleanText(' bad\r\n\tthing\u0007!\u0085x\u2028y\u2029z\u00A0w\u3000v ')).toBe('bad thing ! x y z w v');
		expect(cleanText('\u0000\u007F\u0001')).toBe('');
	});
});

describe('cleanText: invisible characters', () => {
	it('shows bidi controls as their code', () => {
		expect(cleanText('abc\u202Efdp.exe')).toBe('abc<202E>fdp.exe');
		expect(cleanText('\u200E\u200F\u2066\u2069\u061C')).toBe('<200E><200F><2066><2069><061C>');
	});

	it('shows a stray zero-width or default-ignorable character as its code, so no name looks like another', () => {
		expect(cleanText('rig-01\u200B')).toBe('rig-01<200B>');
		expect(cleanText('rig\u200C-01\u200D')).toBe('rig<200C>-01<200D>');
		expect(cleanText('\uFEFFrig\u2060\u00AD\u034F\u180E\u3164\uFFA0')).toBe('<FEFF>rig<2060><00AD><034F><180E><3164><FFA0>');
		expect(cleanText('rig\uFE0F-01\u{E0041}')).toBe('rig<FE0F>-01<E0041>');
		expect(cleanText('a\uD800b')).toBe('a<D800>b');
		expect(cleanText('rig-01\u2800')).toBe('rig-01<2800>');
	});

	it('keeps ZWJ, variation selectors, modifiers and tags inside an emoji', () => {
		for (const emoji of ['👨‍👩‍👧', '❤️', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '👍🏽', '1️⃣', '🏳️‍🌈', '🧑🏽‍💻']) {
			expect(cleanText(`rig ${emoji} 01`)).toBe(`rig ${emoji} 01`);
		}
	});

	it('keeps ZWJ/ZWNJ between letters of a script that joins them, and only there', () => {
		expect(cleanText('می‌خواهم')).toBe('می‌خواهم'); // Persian: ZWNJ
		expect(cleanText('क्‍ष')).toBe('क्‍ष'); // Devanagari: ZWJ after a virama
		expect(cleanText('rig\u200Cمی')).toBe('rig<200C>می');
	});
});

describe('cleanText: look-alikes across scripts', () => {
	it('shows the Cyrillic or Greek letters of a word that mixes them with Latin ones', () => {
		expect(cleanText('r\u0456g-01')).toBe('r<0456>g-01');
		expect(cleanText('pool.ex\u0430mple.com:3333')).toBe('pool.ex<0430>mple.com:3333');
		expect(cleanText('rig-\u03BF1 rig-02')).toBe('rig-<03BF>1 rig-02');
	});

	it('keeps a word wholly in Cyrillic or Greek, and Cyrillic words beside Latin ones', () => {
		expect(cleanText('ферма-01')).toBe('ферма-01');
		expect(cleanText('Δέλτα 2')).toBe('Δέλτα 2');
		expect(cleanText('ферма rig-01')).toBe('ферма rig-01');
		expect(cleanText('ферма\u200B')).toBe('ферма<200B>');
	});
});

describe('cleanText: length, secrets, speed path', () => {
	it('cuts long text to the limit with an ellipsis', () => {
		const text = cleanText('x'.repeat(500));
		expect(text).toHaveLength(200);
		expect(text.endsWith('…')).toBe(true);
	});

	it('cuts on a grapheme boundary: never inside a surrogate pair or an emoji sequence', () => {
		expect(cleanText(`${'a'.repeat(8)}😀😀😀`, 10)).toBe('aaaaaaaa…');
		expect(cleanText(`${'a'.repeat(5)}👨‍👩‍👧`, 10)).toBe('aaaaa…');
	});

	it('masks the secret wherever it appears, also once whitespace collapsed', () => {
		expect(cleanText('token s3cret is wrong: s3cret', 200, 's3cret')).toBe('token *** is wrong: ***');
		expect(cleanText('a\u0000b s3 cr', 200, 's3 cr')).toBe('a b ***');
		expect(cleanText('x tok1 y tok2', 200, [null, 'tok1', 'tok2'])).toBe('x *** y ***');
	});

	it('returns plain printable ASCII as it is', () => {
		const name = 'rig-01 (x64) 6.26.0/msvc';
		expect(cleanText(name)).toBe(name);
		expect(cleanOrNull('   ')).toBeNull();
		expect(cleanOrNull(null)).toBeNull();
	});

	it('is idempotent and leaves nothing unsafe, for any text', () => {
		const hostile = fc.constantFrom(
			'\u001B',
			'\u001B[',
			'\u001B]',
			'\u009B',
			'\u009D',
			'\u0007',
			'\u009C',
			'\\',
			'[',
			'm',
			'\u200B',
			'\u200D',
			'\u200C',
			'\uFE0F',
			'\u202E',
			'👨',
			'👩',
			'\u{E0067}',
			'\u{E007F}',
			'🏴',
			'і',
			'а',
			'ο',
			'r',
			'م',
			'ی',
			' ',
			'\t',
			'<',
			'A',
			'>',
			'\uD800',
		);
		const text = fc.oneof(
			fc.string({unit: 'binary'}),
			fc.array(hostile, {maxLength: 60}).map((parts) => parts.join('')),
		);
		fc.assert(
			fc.property(text, fc.integer({min: 1, max: 60}), (input, max) => {
				const once = cleanText(input, max);
				expect(cleanText(once, max)).toBe(once);
				expect(once.length).toBeLessThanOrEqual(max);
				expect(UNSAFE.test(once)).toBe(false);
			}),
			{numRuns: 1000},
		);
	});
});
