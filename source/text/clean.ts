/**
 * The one boundary for text from outside: every string a miner, a proxy, a pool, a config file, a rigs file, the
 * history store or another process's command line hands rigtop goes through cleanText once, where it enters, before
 * anything shows, stores or compares it. What comes out is one line of text that is safe to write to a terminal, a
 * log or a CSV cell, and that never looks like another name (docs/design.md, "The text boundary"):
 *
 * - Terminal control is gone: whole ESC sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, DCS/SOS/PM/APC up to
 *   ST, two-character `ESC x`, and their 8-bit C1 forms 0x9B, 0x9D, 0x90, 0x98, 0x9E, 0x9F) are removed; any other
 *   C0/C1 control, DEL, U+2028/U+2029 and every Unicode space become one space; runs of spaces collapse; the ends are
 *   trimmed.
 * - Nothing invisible stays invisible: a bidi control (U+200E/F, U+202A–202E, U+2066–2069, U+061C), a zero-width or
 *   other default-ignorable character (U+200B–D, U+2060–2064, U+FEFF, U+00AD, U+034F, U+180E, U+3164, variation
 *   selectors, tags …), the blank braille pattern U+2800 and a lone surrogate are shown as their code, `<200B>` — except where they belong: a ZWJ,
 *   VS15/VS16 or tag sequence inside an emoji (👨‍👩‍👧, ❤️, 🏴󠁧󠁢󠁥󠁮󠁧󠁿), and a ZWJ/ZWNJ between two letters of a script that uses
 *   them (Arabic, Persian, Syriac, the Indic scripts).
 * - Look-alikes across scripts are shown: in a word (a run without spaces) that mixes Latin letters with Cyrillic or
 *   Greek ones, the Cyrillic and Greek letters are shown as codes (`rіg-01` with U+0456 → `r<0456>g-01`); a word
 *   wholly in Cyrillic or Greek stays as it is. A word mixing Cyrillic and Greek (no Latin) shows its Greek letters.
 * - At most `max` UTF-16 code units, cut on a grapheme boundary with `…`.
 *
 * cleanText(cleanText(x)) === cleanText(x). Plain printable ASCII (the usual worker name, version, algorithm, URL)
 * costs one regex test (docs/performance.md).
 */

/** Printable ASCII words separated by single spaces: already clean. */
const PLAIN = /^[!-~]+(?: [!-~]+)*$/;

/**
 * Whole escape sequences, 7-bit and 8-bit: CSI (parameters, intermediates, final), OSC up to BEL or ST, DCS/SOS/PM/APC
 * up to ST, and ESC with intermediates and a final. An unterminated string sequence runs to the end of the text, as a
 * terminal would swallow it.
 */
const ESCAPES =
	// eslint-disable-next-line no-control-regex -- escape sequences are made of control characters.
	/(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]?|(?:\u001B\]|\u009D)[^\u0007\u001B\u009C]*(?:\u0007|\u001B\\|\u009C)?|(?:\u001B[PX^_]|[\u0090\u0098\u009E\u009F])[^\u001B\u009C]*(?:\u001B\\|\u009C)?|\u001B[ -/]*[0-~]?/g;

// eslint-disable-next-line no-control-regex -- whether there is any escape sequence to remove.
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/;

/** Controls, line and paragraph separators and every space that is not U+0020: each becomes a space. */
// eslint-disable-next-line no-control-regex -- these are the characters removed.
const SPACES = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\p{Zs}]/gu;

/**
 * What is shown as its code unless it belongs where it is (belongs): default-ignorable characters, lone surrogates,
 * the interlinear annotation controls and the blank braille pattern (a printing character that draws nothing).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cs}\uFFF9-\uFFFB\u2800]/gu;

const EMOJI_BASE = /^[\p{Extended_Pictographic}\p{Emoji_Presentation}]$/u;
const EMOJI = /^\p{Emoji}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;
/** Scripts that join letters with ZWJ/ZWNJ (cursive or conjunct forms). */
const JOINING =
	/^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]$/u;

const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
const CYRILLIC_LETTER = /\p{Script=Cyrillic}/u;
const GREEK_LETTER = /\p{Script=Greek}/u;
const WORD = /[^ ]+/g;
const CODES = /<[\dA-F]{4,6}>/g;
const GREEK_LETTERS = /[\p{Script=Greek}]/gu;
const CYRILLIC_GREEK_LETTERS = /[\p{Script=Cyrillic}\p{Script=Greek}]/gu;

/** Spaces and joiners that would be left dangling at the end of a cut. */
const TRAILING = /[ \u200C\u200D]+$/;
const ENDS = /^ +| +$/g;
const PARTIAL_CODE = /<[\dA-F]{0,5}$/;

const ZWNJ = 0x20_0c;
const ZWJ = 0x20_0d;
const VS15 = 0xfe_0e;
const VS16 = 0xfe_0f;
const BLACK_FLAG = 0x1_f3_f4;
const TAG_FIRST = 0xe_00_20;
const TAG_CANCEL = 0xe_00_7f;
const KEYCAP = 0x20_e3;

let segmenter: Intl.Segmenter | undefined;

/** `<200B>`: a code point shown as upper-case hex, at least 4 digits. */
export function codeOf(codePoint: number): string {
	return `<${codePoint.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The code point that ends just before `at`, and where it starts. */
function before(text: string, at: number): {cp: number; at: number} | null {
	if (at <= 0) return null;
	const low = text.charCodeAt(at - 1);
	if (low >= 0xdc_00 && low <= 0xdf_ff && at >= 2) {
		const high = text.charCodeAt(at - 2);
		if (high >= 0xd8_00 && high <= 0xdb_ff) return {cp: text.codePointAt(at - 2)!, at: at - 2};
	}

	return {cp: low, at: at - 1};
}

function charOf(cp: number | undefined): string {
	return cp === undefined ? '' : String.fromCodePoint(cp);
}

function isTag(cp: number): boolean {
	return cp >= TAG_FIRST && cp <= TAG_CANCEL;
}

/** The emoji a ZWJ follows: skip its modifiers, VS16, keycap and tags back to the base. */
function emojiBefore(text: string, at: number): boolean {
	let previous = before(text, at);
	while (previous && (previous.cp === VS16 || previous.cp === KEYCAP || isTag(previous.cp) || EMOJI_MODIFIER.test(charOf(previous.cp)))) {
		previous = before(text, previous.at);
	}

	return previous !== null && EMOJI_BASE.test(charOf(previous.cp));
}

/** A tag character inside a tag sequence: 🏴 then tags then the cancel tag. */
function inTagSequence(text: string, at: number): boolean {
	let previous = before(text, at);
	while (previous && isTag(previous.cp) && previous.cp !== TAG_CANCEL) previous = before(text, previous.at);
	if (previous?.cp !== BLACK_FLAG) return false;
	const cp = text.codePointAt(at)!;
	if (cp === TAG_CANCEL) return true;
	for (let next = at; next < text.length;) {
		const following = text.codePointAt(next)!;
		if (following === TAG_CANCEL) return true;
		if (!isTag(following)) return false;
		next += following > 0xff_ff ? 2 : 1;
	}

	return false;
}

/** Whether the invisible character at `at` belongs where it is (inside an emoji or a joined word). */
function belongs(text: string, at: number, cp: number): boolean {
	if (isTag(cp)) return inTagSequence(text, at);
	const previous = before(text, at);
	if (previous === null) return false;
	const next = text.codePointAt(at + 1);
	// A digit, # or * takes VS16 only in a keycap (1️⃣); any other emoji character takes VS15/VS16 after it.
	if (cp === VS16 || cp === VS15) return EMOJI.test(charOf(previous.cp)) && (previous.cp > 0x7f || next === KEYCAP);
	if (cp === ZWJ && emojiBefore(text, at) && EMOJI_BASE.test(charOf(next))) return true;
	if (cp === ZWJ || cp === ZWNJ) return JOINING.test(charOf(previous.cp)) && JOINING.test(charOf(next));
	return false;
}

function showInvisible(text: string): string {
	return text.replace(INVISIBLE, (found: string, at: number, whole: string) => {
		const cp = found.codePointAt(0)!;
		return belongs(whole, at, cp) ? found : codeOf(cp);
	});
}

/** In a word mixing Latin with Cyrillic/Greek (or Cyrillic with Greek), the minority script's letters as codes. */
function showLookAlikes(text: string): string {
	return text.replace(WORD, (word) => {
		if (!CYRILLIC_OR_GREEK.test(word)) return word;
		// The hex digits of a code shown (`<200B>`) are not Latin letters of the word.
		const latin = LATIN_LETTER.test(word.replace(CODES, ''));
		const cyrillic = CYRILLIC_LETTER.test(word);
		if (latin) return word.replace(CYRILLIC_GREEK_LETTERS, (letter) => codeOf(letter.codePointAt(0)!));
		// Cyrillic with Greek: the Greek letters are the odd ones. Greek alone (no Cyrillic) stays.
		return cyrillic
			? word.replace(GREEK_LETTERS, (letter) => (CYRILLIC_LETTER.test(letter) ? letter : codeOf(letter.codePointAt(0)!)))
			: word;
	});
}

/** Text cut to at most `max` code units with `…`, on a grapheme boundary (never inside an emoji or a surrogate pair). */
function cut(text: string, max: number): string {
	if (text.length <= max) return text;
	if (max <= 1) return max === 1 ? '…' : '';
	const room = max - 1;
	let end = 0;
	segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	for (const {index, segment} of segmenter.segment(text.slice(0, max))) {
		if (index + segment.length > room) break;
		end = index + segment.length;
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
	let clean = mask(text, kept);
	if (CONTROLS.test(clean)) clean = clean.replace(ESCAPES, '');
	clean = clean.replace(SPACES, ' ');
	clean = showInvisible(clean);
	// Only a text with Latin letters, or with both Cyrillic and Greek ones, can mix them in a word.
	if (CYRILLIC_OR_GREEK.test(clean) && (LATIN_LETTER.test(clean) || (CYRILLIC_LETTER.test(clean) && GREEK_LETTER.test(clean))))
		clean = showLookAlikes(clean);
	clean = clean.replace(/ {2,}/g, ' ').replace(ENDS, '');
	clean = mask(clean, kept);
	return cut(clean, max);
}

/** cleanText for a value that may be missing: null and undefined stay null, and so does text that cleans to "". */
export function cleanOrNull(text: string | null | undefined, max = 200): string | null {
	if (text === null || text === undefined) return null;
	const clean = cleanText(text, max);
	return clean === '' ? null : clean;
}
