import {emojiOffsets, INVISIBLE_CLASS} from './invisible.js';

/**
 * The characters no byte rigtop writes for a machine (JSON, logfmt) may hold raw: they are written as `\uXXXX`
 * escapes instead, so the bytes of a document hold no terminal control whatever the values say (`cat`, `less` or
 * `tail -f` of a log shows the escape, not its effect). What a value means is unchanged — a JSON parser or a logfmt
 * reader decodes the escape back — so the values are also cleaned where they enter (source/text/clean.ts); this is the
 * second line, for the bytes themselves.
 *
 * Escaped: every C0 control, DEL and C1 (U+0080–009F, among them 8-bit CSI 0x9B), the line and paragraph separators
 * U+2028/2029, and every character the text boundary shows as its code because it draws nothing (source/text/
 * invisible.ts, the one definition both use: bidi controls, zero-width, format, default-ignorable, private-use and
 * unassigned characters, lone surrogates …). The invisibles an emoji is built of — a ZWJ, a variation selector, a tag —
 * are kept where the grapheme cluster holding them is an RGI emoji (👨‍👩‍👧, ❤️, 1️⃣, 🏴󠁧󠁢󠁥󠁮󠁧󠁿) and escaped elsewhere.
 *
 * Linear in the text, whatever it holds: one character-class test passes nearly every text (and a whole JSON
 * document) as it is; otherwise one replace over the text, and the emoji judged by segmenting only the non-ASCII
 * stretches that hold an emoji part (a 1 MiB document of 100,000 tags: milliseconds, docs/performance.md).
 */

const UNSAFE_CLASS = String.raw`\u0000-\u001F\u007F-\u009F\u2028\u2029${INVISIBLE_CLASS}`;
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'gu');
/** The cheap tests: whether there is anything to escape at all. The second leaves line feeds out, for a writer keeping them. */
const CANDIDATE = new RegExp(`[${UNSAFE_CLASS}]`, 'u');
const CANDIDATE_BUT_LF = new RegExp(String.raw`[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029${INVISIBLE_CLASS}]`, 'u');

/** `\uXXXX` for a code point (two, a surrogate pair, above U+FFFF), lowercase hex as JSON.stringify writes. */
export function unicodeEscape(char: string): string {
	let escaped = '';
	for (let index = 0; index < char.length; index++) escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
	return escaped;
}

/**
 * `text` with every character that must not be written raw as its `\uXXXX` escape (or what `escape` makes of it);
 * everything else as it is. `keepLineFeeds`: a line feed stays raw (the lines of an indented JSON document).
 */
export function escapeUnsafe(text: string, escape: (char: string) => string = unicodeEscape, keepLineFeeds = false): string {
	if (!(keepLineFeeds ? CANDIDATE_BUT_LF : CANDIDATE).test(text)) return text;
	const emoji = emojiOffsets(text);
	return text.replaceAll(UNSAFE, (char: string, at: number) => (emoji.has(at) || (keepLineFeeds && char === '\n') ? char : escape(char)));
}
