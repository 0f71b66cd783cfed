import {describe, expect, it} from 'vitest';
import {escapeLabelValue} from '../../source/exporter/exposition.js';
import {escapeUnsafe} from '../../source/text/escape.js';
import {jsonText} from '../../source/text/json-out.js';

/** Any raw control a terminal acts on, or that hides or reorders text: what no output's bytes may hold. */
const RAW_CONTROL =
	// eslint-disable-next-line no-control-regex
	/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200B\u200C\u200E\u200F\u202A-\u202E\u2028\u2029\u2060\u2066-\u2069\uFEFF]/u;

const HOSTILE = {
	worker: 'wk\u001b]52;c;SEFDS0VE\u0007\u001b]0;PWNTITLE\u0007',
	version: '6.26.0\u001b[2J\u001b[H\u009b31m',
	bidi: 'invoice\u202Etxt.exe\u2066x\u2069\u061C\u200E',
	lines: 'a\u2028b\u2029c\u0085d',
	invisible: 'rig-01\u200b\u2060\uFEFF\u00AD\u200C',
	del: 'x\u007fy',
};

describe('the JSON writer (text/json-out.ts)', () => {
	it('escapes every C0, DEL, C1, bidi control, line separator and stray invisible, and means the same document', () => {
		const text = jsonText(HOSTILE, 2);
		expect(text).not.toMatch(RAW_CONTROL);
		expect(JSON.parse(text)).toEqual(HOSTILE);
		expect(text).toContain('"version": "6.26.0\\u001b[2J\\u001b[H\\u009b31m"');
		expect(text).toContain('"bidi": "invoice\\u202etxt.exe\\u2066x\\u2069\\u061c\\u200e"');
		expect(text).toContain('"invisible": "rig-01\\u200b\\u2060\\ufeff\\u00ad\\u200c"');
		expect(text).toContain('"del": "x\\u007fy"');
		expect(jsonText({a: 1}, 2)).toBe(JSON.stringify({a: 1}, null, 2));
	});

	it('keeps the invisibles an emoji is made of, and text in any script, as they are', () => {
		const family = '👨\u200D👩\u200D👧';
		const heart = '❤\uFE0F';
		const keycap = '1\uFE0F\u20E3';
		const flag = '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
		const skin = '🧑🏽\u200D💻';
		const names = ['rig-01é', 'риг', 'マイナー', 'ما\u064Eين'];
		const value = {family, heart, keycap, flag, skin, names};
		expect(jsonText(value)).toBe(JSON.stringify(value));
		// A joiner or variation selector with no emoji around it is an invisible like any other.
		expect(escapeUnsafe('rig\u200D01 rig\uFE0F 👨\u200D')).toBe('rig\\u200d01 rig\\ufe0f 👨\\u200d');
		expect(escapeUnsafe('x\u{E0041}')).toBe('x\\udb40\\udc41');
		// So is one in a sequence that is no RGI emoji: a flag with made-up tags, a ZWJ or VS16 no emoji takes.
		expect(escapeUnsafe('🏴\u{E0061}\u{E007F}')).toBe('🏴\\udb40\\udc61\\udb40\\udc7f');
		expect(escapeUnsafe('😀\u200D😀 😀\uFE0F 👍🏽\u200D🔥')).toBe('😀\\u200d😀 😀\\ufe0f 👍🏽\\u200d🔥');
	});

	it('escapes what draws nothing exactly as the text boundary shows it: format, private-use, unassigned', () => {
		expect(escapeUnsafe('rig\uE000 \u{13430} \u0600 \u0378 \uFFFF')).toBe('rig\\ue000 \\ud80d\\udc30 \\u0600 \\u0378 \\uffff');
	});

	it('escapes a 1 MB run of tags, joiners and selectors in one linear pass', () => {
		const tags = escapeUnsafe(`rig${'\u{E0061}'.repeat(250_000)}`);
		expect(tags).toBe(`rig${'\\udb40\\udc61'.repeat(250_000)}`);
		const flag = escapeUnsafe(`🏴${'\u{E0061}'.repeat(250_000)}\u{E007F}`);
		expect(flag.startsWith('🏴\\udb40\\udc61')).toBe(true);
		expect(flag.endsWith('\\udb40\\udc7f')).toBe(true);
		const joiners = escapeUnsafe('😀\u200D\uFE0F'.repeat(250_000));
		expect(joiners).toBe('😀\\u200d\\ufe0f'.repeat(250_000));
	});

	it('refuses a value with no JSON form rather than writing "undefined"', () => {
		expect(() => jsonText(undefined)).toThrow(TypeError);
	});
});

describe('a Prometheus label value (exporter/exposition.ts)', () => {
	it('escapes backslash, quote and line feed as the format says, and writes any other control as visible text', () => {
		expect(escapeLabelValue('rig-01')).toBe('rig-01');
		expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
		expect(escapeLabelValue('рig-01 é')).toBe('рig-01 é');
		const hostile = escapeLabelValue(`${HOSTILE.worker}${HOSTILE.version}${HOSTILE.bidi}${HOSTILE.invisible}\u{E0041}`);
		expect(hostile).not.toMatch(RAW_CONTROL);
		expect(hostile).toContain('wk\\\\u001b]52;c;SEFDS0VE\\\\u0007');
		expect(hostile).toContain('rig-01\\\\u200b');
		expect(hostile).toContain('\\\\udb40\\\\udc41');
		// Only the format's own escapes: a backslash is always followed by \, " or n.
		expect(hostile.replaceAll(/\\[\\"n]/g, '')).not.toContain('\\');
	});
});
