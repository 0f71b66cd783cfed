import {emojiOffsets, graphemes, INVISIBLE_CLASS, SKIN_TONE_CLASS} from './invisible.js';

/**
 * The one boundary for text from outside: every string a miner, a proxy, a pool, a config file, a rigs file, the
 * history store or another process's command line hands rigtop goes through cleanText once, where it enters, before
 * anything shows, stores or compares it. What comes out is one line of text that is safe to write to a terminal, a
 * log or a CSV cell, and that never looks like another name (docs/design.md, "Text from outside"). Nothing is deleted:
 * what could act or hide is shown, so two different names never clean to the same text (but for runs of spaces, and
 * canonically equivalent forms, which are one name):
 *
 * - Terminal control is shown, not obeyed and not swallowed: every control character — C0 but TAB/LF/CR/VT/FF, DEL,
 *   C1 — is shown as its code, and what followed an ESC stays as the plain text it is (`wk\x1b]0;T\x07` →
 *   `wk<001B>]0;T<0007>`, `\x9b31m` → `<009B>31m`). TAB, LF, CR, VT, FF, U+2028/U+2029 and every Unicode space
 *   become one space; runs of spaces collapse; the ends are trimmed. The text is in NFC first (`cafe\u0301` is `café`).
 * - Nothing invisible stays invisible (source/text/invisible.ts, shared with the JSON and logfmt writers): a bidi
 *   control, a zero-width, format, default-ignorable, private-use or unassigned character, the blank braille pattern
 *   and a lone surrogate are shown as their code, `<200B>` — except a ZWJ, a variation selector, a tag or a skin tone
 *   inside a grapheme cluster that is an RGI emoji (👨‍👩‍👧, ❤️, 🏴󠁧󠁢󠁥󠁮󠁧󠁿), and a ZWJ/ZWNJ between two letters of a script
 *   that joins with them (Arabic, Persian, Syriac, the Indic scripts). A skin tone outside an emoji is shown too.
 * - Look-alikes are shown (showLookAlikes): a character that renders like an ASCII letter, digit or hyphen (LOOK_ALIKE,
 *   and any character whose NFKC form is ASCII: `ｒ`, `𝚛`, `ﬁ`, `²`) is shown as its code in a word (a run without
 *   spaces) that holds an ASCII letter (`rіg-01` → `r<0456>g-01`), and so is every look-alike of a word whose letters
 *   all are look-alikes (`АВС-01`, `ріо`); a word in Cyrillic or Greek with a letter that has no Latin twin stays as it
 *   is (`Привет-01`, `GPU-Ωmega`, `rig-α`). Non-letters (a dash, a fullwidth digit) are shown in a word that holds an
 *   ASCII letter or digit, or whose letters and digits all are look-alikes.
 * - At most `max` UTF-16 code units, cut on a grapheme boundary with `…`. Only the first 4 × `max` code units of the
 *   text are read at all (a 1 MB answer costs what a 1 KB one does); text cut there always ends in `…`.
 *
 * cleanText(cleanText(x)) === cleanText(x). Plain printable ASCII (the usual worker name, version, algorithm, URL)
 * costs one regex test (docs/performance.md).
 */

/** Printable ASCII words separated by single spaces: already clean. */
const PLAIN = /^[!-~]+(?: [!-~]+)*$/;

/** TAB, LF, VT, FF, CR, the line and paragraph separators and every space that is not U+0020: each becomes a space. */
const SPACES = /[\t\n\v\f\r\u2028\u2029\p{Zs}]/gu;

/** Every other control character, C0, DEL and C1: each shown as its code. */
// eslint-disable-next-line no-control-regex -- these are the characters shown.
const CONTROLS = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g;

/** What is shown as its code unless it belongs where it is (invisible.ts), and the skin tones (only inside an emoji). */
const HIDDEN = new RegExp(`[${INVISIBLE_CLASS}${SKIN_TONE_CLASS}]`, 'u');
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/** Scripts that join letters with ZWJ/ZWNJ (cursive or conjunct forms). */
const JOINING =
	/^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]$/u;

/**
 * The non-ASCII characters that render like an ASCII letter, digit or hyphen and that NFKC leaves as they are (those it
 * maps to ASCII are found by NFKC itself, nfkcAscii): Cyrillic а в е к м н о р с т у х ѕ і ј ԁ һ ӏ ԛ ԝ and А В Е К М
 * Н О Р С Т Х І Ј Ѕ, Greek Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ and ο, Latin ɡ ɑ ı ɪ, Armenian օ ս ո հ, the dashes U+2010–2015,
 * U+2212, U+FE58, U+FE63 and U+FF0D. A curated table, not Unicode's confusables (UTS #39's confusables.txt): that is a
 * 671 KB data file (Unicode 17.0) to ship and parse at every start, mapping thousands of characters that look alike
 * only in some fonts (and every Cyrillic о to Latin o, so whole Russian words would be marked); these are the ones a
 * terminal font draws as the ASCII character itself.
 */
const LOOK_ALIKE = new Set(
	[
		...'авекмнорстухѕіјԁһӏԛԝ',
		...'АВЕКМНОРСТХІЈЅ',
		...'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧο',
		...'ɡɑıɪ',
		...'օսոհ',
		...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D',
	].map((char) => char.codePointAt(0)!),
);

/** The ellipsis a cut ends with: NFKC makes it `...`, but it stands for text left out, not for three dots. */
const ELLIPSIS = 0x20_26;

const ASCII_LETTER = /[A-Za-z]/;
const ASCII_ALNUM = /[A-Za-z\d]/;
const NON_ASCII = /[^\u0000-\u007F]/; // eslint-disable-line no-control-regex -- ASCII's complement.
const LETTER = /^\p{L}$/u;
const ALNUM = /^[\p{L}\p{N}]$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const INVISIBLE_ONE = new RegExp(`^[${INVISIBLE_CLASS}]$`, 'u');
const WORD = /[^ ]+/g;
/** A code shown (`<200B>`): its hex digits are not letters of the word. */
const CODES = /<[\dA-F]{4,6}>/g;

/** Spaces and joiners that would be left dangling at the end of a cut. */
const TRAILING = /[ \u200C\u200D]+$/;
const ENDS = /^ +| +$/g;
const PARTIAL_CODE = /<[\dA-F]{0,6}$/;

const ZWNJ = 0x20_0c;
const ZWJ = 0x20_0d;

/** `<200B>`: a code point shown as upper-case hex, at least 4 digits. */
export function codeOf(codePoint: number): string {
	return `<${codePoint.toString(16).toUpperCase().padStart(4, '0')}>`;
}

function codeOfChar(char: string): string {
	return codeOf(char.codePointAt(0)!);
}

/** The code point that ends just before `at` (a surrogate pair read whole). */
function codePointBefore(text: string, at: number): number | undefined {
	if (at <= 0) return undefined;
	const low = text.charCodeAt(at - 1);
	if (low >= 0xdc_00 && low <= 0xdf_ff && at >= 2) {
		const high = text.charCodeAt(at - 2);
		if (high >= 0xd8_00 && high <= 0xdb_ff) return text.codePointAt(at - 2);
	}

	return low;
}

/** A letter or mark of a joining script that is shown as itself (not U+0600, not a Mongolian variation selector). */
function joins(cp: number | undefined): boolean {
	if (cp === undefined) return false;
	const char = String.fromCodePoint(cp);
	return JOINING.test(char) && LETTER_OR_MARK.test(char) && !INVISIBLE_ONE.test(char);
}

/** Invisible characters (and stray skin tones) as their codes, but where they belong: in an RGI emoji, a joined word. */
function showInvisible(text: string): string {
	if (!HIDDEN.test(text)) return text;
	const emoji = emojiOffsets(text);
	return text.replace(HIDDEN_ALL, (found: string, at: number) => {
		if (emoji.has(at)) return found;
		const cp = found.codePointAt(0)!;
		if ((cp === ZWJ || cp === ZWNJ) && joins(codePointBefore(text, at)) && joins(text.codePointAt(at + 1))) return found;
		return codeOf(cp);
	});
}

/** Whether a character NFKC makes printable ASCII (fullwidth, mathematical alphanumerics, ligatures, superscripts …). */
function nfkcAscii(char: string): boolean {
	const compatible = char.normalize('NFKC');
	return compatible !== char && PLAIN.test(compatible) && !compatible.includes(' ');
}

const INVISIBLE_CHAR = 1;
const LOOK_ALIKE_CHAR = 2;
const ALNUM_CHAR = 4;
const LETTER_CHAR = 8;

/**
 * What a non-ASCII character is to the look-alike rule, as bits: invisible, a look-alike, a letter or digit, a letter.
 * Remembered per code point (a few property tests and an NFKC a character cost about 200 ns; names repeat every poll),
 * at most 4,096 of them, forgotten all at once.
 */
const kinds = new Map<number, number>();

function kindOf(char: string): number {
	const cp = char.codePointAt(0)!;
	let kind = kinds.get(cp);
	if (kind !== undefined) return kind;
	kind = 0;
	if (INVISIBLE_ONE.test(char)) kind |= INVISIBLE_CHAR;
	if (cp > 0x7f && cp !== ELLIPSIS && (LOOK_ALIKE.has(cp) || nfkcAscii(char))) kind |= LOOK_ALIKE_CHAR;
	if (ALNUM.test(char)) kind |= ALNUM_CHAR;
	if (LETTER.test(char)) kind |= LETTER_CHAR;
	if (kinds.size >= 4096) kinds.clear();
	kinds.set(cp, kind);
	return kind;
}

/** A word's look-alikes as codes, where they could pass for ASCII (see the top). */
function showWordLookAlikes(word: string): string {
	if (!NON_ASCII.test(word)) return word;
	const visible = word.replace(CODES, '');
	let lookAlikes = 0;
	let lettersAllLookAlike = true;
	let alnumsAllLookAlike = true;
	let alnums = 0;
	for (const char of visible) {
		if (char.charCodeAt(0) <= 0x7f) {
			if (ASCII_ALNUM.test(char)) alnumsAllLookAlike = false;
			if (ASCII_LETTER.test(char)) lettersAllLookAlike = false;
			continue;
		}

		const kind = kindOf(char);
		// An invisible character (a Hangul filler is a letter) is shown as a code next; it is no letter of the word.
		if (kind & INVISIBLE_CHAR) continue;
		const lookAlike = (kind & LOOK_ALIKE_CHAR) !== 0;
		if (lookAlike) lookAlikes++;
		if (kind & ALNUM_CHAR) {
			alnums++;
			if (!lookAlike) {
				alnumsAllLookAlike = false;
				if (kind & LETTER_CHAR) lettersAllLookAlike = false;
			}
		}
	}

	if (lookAlikes === 0) return word;
	const hasAsciiLetter = ASCII_LETTER.test(visible);
	// Letters: in a word with an ASCII letter, or whose letters all are look-alikes (a whole-script look-alike).
	const letters = hasAsciiLetter || lettersAllLookAlike;
	// Dashes, digits, punctuation: in a word with an ASCII letter or digit, or whose letters and digits all look alike.
	const others = ASCII_ALNUM.test(visible) || (alnums > 0 && alnumsAllLookAlike);
	if (!letters && !others) return word;
	let shown = '';
	for (const char of word) {
		const kind = char.charCodeAt(0) <= 0x7f ? 0 : kindOf(char);
		shown += kind & LOOK_ALIKE_CHAR && (kind & LETTER_CHAR ? letters : others) ? codeOfChar(char) : char;
	}

	return shown;
}

function showLookAlikes(text: string): string {
	return NON_ASCII.test(text) ? text.replace(WORD, showWordLookAlikes) : text;
}

/**
 * Text cut to at most `max` code units with `…`, on a grapheme boundary (never inside an emoji or a surrogate pair);
 * `cutBefore`: the text was already cut where it came in, so it ends in `…` however short it is.
 */
function cut(text: string, max: number, cutBefore: boolean): string {
	if (text.length <= max && !cutBefore) return text;
	if (max <= 1) return max === 1 ? '…' : '';
	const room = max - 1;
	let end = Math.min(text.length, room);
	if (text.length > room) {
		// Segment only from an ASCII character shortly before the cut (a grapheme boundary is before every one), not
		// the whole text: segmenting costs about 300 ns a grapheme.
		let from = room;
		while (from > 0 && room - from < 64 && text.charCodeAt(from) > 0x7f) from--;
		if (text.charCodeAt(from) > 0x7f) from = 0;
		end = from;
		for (const {index, segment} of graphemes().segment(text.slice(from, max))) {
			if (from + index + segment.length > room) break;
			end = from + index + segment.length;
		}
	}

	// A joiner left last (the letter it joined was cut off) would read as stray on the next clean, and half a code
	// shown (`<20`) is no code.
	return `${text.slice(0, end).replace(PARTIAL_CODE, '').replace(TRAILING, '')}…`;
}

function mask(text: string, secrets: readonly string[]): string {
	let masked = text;
	for (const secret of secrets) {
		if (masked.includes(secret)) masked = masked.split(secret).join('***');
	}

	return masked;
}

/**
 * Text from outside made safe to show on one line (see the top). `secrets` (the session's tokens), if given, are
 * replaced by `***` wherever they appear, before and after cleaning (a token holding whitespace only matches once
 * the runs became one space).
 */
export function cleanText(text: string, max = 200, secrets?: string | null | readonly (string | null | undefined)[]): string {
	if ((secrets === undefined || secrets === null) && text.length <= max && PLAIN.test(text)) return text;
	const hidden = secrets === undefined || secrets === null ? [] : typeof secrets === 'string' ? [secrets] : secrets;
	const kept = hidden.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
	if (kept.length === 0 && text.length <= max && PLAIN.test(text)) return text;
	// Read no further than 4 × max code units: a code is at most 8 units for 1 or 2, so that fills `max` unless the text
	// is mostly spaces. A secret that starts before the cut is masked whole first, so none of it is left at the end.
	const limit = 4 * Math.max(max, 1);
	const longest = kept.reduce((length, secret) => Math.max(length, secret.length), 0);
	let clean = mask(text.length > limit + longest ? text.slice(0, limit + longest) : text, kept);
	const cutBefore = text.length > limit + longest || clean.length > limit;
	if (clean.length > limit) {
		const high = clean.charCodeAt(limit - 1);
		clean = clean.slice(0, high >= 0xd8_00 && high <= 0xdb_ff ? limit - 1 : limit);
	}

	const once = shown(clean, kept);
	let result = cut(once, max, cutBefore);
	// A cut can change how its last word is judged (the one letter with no Latin twin cut off, the rest all look-alikes):
	// what is left is cleaned again until it stays (each round shows a character more or is shorter, so this ends).
	// Only a last word holding a non-ASCII character can be judged otherwise once cut.
	if (result !== once && NON_ASCII.test(result.slice(result.lastIndexOf(' ') + 1, -1))) {
		let previous: string;
		do {
			previous = result;
			result = cut(shown(result, kept), max, false);
		} while (result !== previous);
	}

	return result;
}

/** Every rule of the top but the cut, on text already read no further than needed. */
function shown(text: string, secrets: readonly string[]): string {
	let clean = text.normalize('NFC').replace(SPACES, ' ').replace(CONTROLS, codeOfChar);
	// Look-alikes before invisibles: an emoji whose base is a look-alike (ℹ️, ™️) loses its VS16 with its base.
	clean = showInvisible(showLookAlikes(clean));
	clean = clean.replace(/ {2,}/g, ' ').replace(ENDS, '');
	return mask(clean, secrets);
}

/** cleanText for a value that may be missing: null and undefined stay null, and so does text that cleans to "". */
export function cleanOrNull(text: string | null | undefined, max = 200): string | null {
	if (text === null || text === undefined) return null;
	const clean = cleanText(text, max);
	return clean === '' ? null : clean;
}
