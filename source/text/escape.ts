/**
 * The characters no byte rigtop writes for a machine (JSON, logfmt) may hold raw: they are written as `\uXXXX`
 * escapes instead, so the bytes of a document hold no terminal control whatever the values say (`cat`, `less` or
 * `tail -f` of a log shows the escape, not its effect). What a value means is unchanged — a JSON parser or a logfmt
 * reader decodes the escape back — so the values are also cleaned where they enter (source/text/clean.ts); this is the
 * second line, for the bytes themselves.
 *
 * Escaped: every C0 control, DEL and C1 (U+0080–009F, among them 8-bit CSI 0x9B), the bidi controls (U+061C, U+200E/F,
 * U+202A–202E, U+2066–2069), the line and paragraph separators U+2028/2029, and the invisible characters that make
 * two names look alike (U+00AD, U+034F, U+115F/1160, U+17B4/5, U+180B–180F, U+200B/C, U+2060–2064, U+206A–206F,
 * U+3164, U+FEFF, U+FFA0, U+FFF9–FFFB, U+1BCA0–1BCA3, U+1D173–1D17A). Three invisibles an emoji is built of are kept
 * where an emoji needs them and escaped elsewhere: the zero-width joiner between two pictographs (👨‍👩‍👧), a variation
 * selector after an emoji (❤️, 1️⃣) and the tag characters of a subdivision flag after 🏴.
 */

/** Always escaped. */
const ALWAYS =
	// eslint-disable-next-line no-control-regex, no-misleading-character-class
	/[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B\u200C\u200E\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0D\uFEFF\uFFA0\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E001F}\u{E0080}-\u{E0FFF}]/u;
/** A zero-width joiner not between two pictographs (a skin tone or a variation selector may close the first). */
// eslint-disable-next-line no-misleading-character-class
const LONE_JOINER = /\u200D(?<!\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]?\u200D)|\u200D(?!\p{Extended_Pictographic})/u;
/** A text or emoji variation selector that follows no emoji character. */
const LONE_SELECTOR = /[\uFE0E\uFE0F](?<!\p{Emoji}[\uFE0E\uFE0F])/u;
/** A tag character (U+E0020–E007F) that is not part of a flag's tag sequence after 🏴. */
const LONE_TAG = /[\u{E0020}-\u{E007F}](?<!\u{1F3F4}[\u{E0020}-\u{E007E}]*[\u{E0020}-\u{E007F}])/u;

const UNSAFE = new RegExp([ALWAYS, LONE_JOINER, LONE_SELECTOR, LONE_TAG].map((pattern) => pattern.source).join('|'), 'gu');

/**
 * Every character UNSAFE may match, as one class: the cheap test that passes nearly every text (and a whole JSON
 * document) as it is, without UNSAFE's look-arounds at each position (an 8 MB JSON document: about 280 ms more than
 * JSON.stringify's 110 ms with them, a few ms without). The second leaves line feeds out, for a writer keeping them.
 */
const CANDIDATE =
	// eslint-disable-next-line no-control-regex, no-misleading-character-class
	/[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/u;
const CANDIDATE_BUT_LF =
	// eslint-disable-next-line no-control-regex, no-misleading-character-class
	/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}]/u;

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
	return text.replaceAll(UNSAFE, keepLineFeeds ? (char) => (char === '\n' ? char : escape(char)) : escape);
}
