/**
 * What draws nothing, defined once for the two places that must agree on it: the text boundary (clean.ts) shows each
 * such character as its code (`<200B>`), and the machine writers (escape.ts) write it as `\uXXXX`. Neither may keep a
 * character the other would not.
 *
 * Invisible: every default-ignorable code point (zero-width characters, joiners, variation selectors, tags, Hangul
 * fillers, U+00AD, U+034F …), every format character (\p{Cf}: bidi controls, U+0600–0605, U+06DD, U+110BD, the
 * Egyptian hieroglyph format controls U+13430… — each either draws nothing or reorders what is drawn), every private-use
 * code point (\p{Co}: no font has to draw them alike, most draw nothing), every unassigned one and the noncharacters
 * (\p{Cn}, U+FFFF among them), a lone surrogate (\p{Cs}), the interlinear annotation controls U+FFF9–FFFB and the
 * blank braille pattern U+2800 (a printing character that prints nothing).
 *
 * The exception, in both: the zero-width joiner, the variation selectors, the tags and the skin tones an emoji is
 * built of stay where the grapheme cluster holding them is a recommended-for-interchange emoji (\p{RGI_Emoji}: 👨‍👩‍👧,
 * ❤️, 1️⃣, 🏴󠁧󠁢󠁥󠁮󠁧󠁿, 👍🏽), judged by the Unicode standard's own list rather than by rules of thumb.
 */

/** The invisible characters, as the inside of a regex character class (for a `u` or `v` regex). */
export const INVISIBLE_CLASS = String.raw`\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Cs}\uFFF9-\uFFFB\u2800`;

/** The parts an emoji sequence is built of: ZWJ, VS15/VS16, the tag characters, the skin tones. */
const EMOJI_PART_CLASS = String.raw`\u200D\uFE0E\uFE0F\u{E0020}-\u{E007F}\u{1F3FB}-\u{1F3FF}`;
// eslint-disable-next-line no-misleading-character-class -- a class of the parts themselves, each matched alone.
const EMOJI_PART = new RegExp(`[${EMOJI_PART_CLASS}]`, 'u');

/** A skin tone (Emoji_Modifier): visible, but a part that only belongs inside an emoji. */
export const SKIN_TONE_CLASS = String.raw`\u{1F3FB}-\u{1F3FF}`;
const SKIN_TONE_ALONE = new RegExp(`^[${SKIN_TONE_CLASS}]$`, 'u');

/**
 * One grapheme cluster that is an RGI emoji. Built with `new RegExp` since the `v` flag (Node 20+) is newer than the
 * TypeScript target. The longest RGI emoji is 15 UTF-16 code units (a kiss with two skin tones); a cluster longer
 * than twice that is not tested at all, so a run of 100,000 tags after 🏴 costs one length check. Built on first
 * use: V8 takes about 15 ms to build it (and 3 ms more on its first test), which every start paid while `--once`
 * met no emoji part at all (docs/performance.md).
 */
let rgiEmoji: RegExp | undefined;
function isRgiEmoji(segment: string): boolean {
	rgiEmoji ??= new RegExp(String.raw`^\p{RGI_Emoji}$`, 'v');
	return rgiEmoji.test(segment);
}

const LONGEST_RGI_EMOJI = 32;

/**
 * The stretches of text a grapheme cluster holding an emoji part can lie in: a run of non-ASCII characters with the
 * ASCII character before it (the base of a keycap 1️⃣, or the letter a stray skin tone or joiner extends). No ASCII
 * character extends a cluster, so one never reaches further back or forward.
 */
// eslint-disable-next-line no-control-regex -- ASCII and its complement.
const STRETCH = /[\u0000-\u007F]?[^\u0000-\u007F]+/g;

let segmenter: Intl.Segmenter | undefined;

/** The grapheme segmenter, made once (its construction costs more than a short text's segmentation). */
export function graphemes(): Intl.Segmenter {
	segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	return segmenter;
}

/**
 * The UTF-16 offsets in `text` that lie inside a grapheme cluster that is an RGI emoji holding an emoji part: where a
 * ZWJ, a variation selector, a tag or a skin tone belongs. Linear in the text: only the non-ASCII stretches that hold
 * an emoji part are segmented, each once, and a cluster longer than any RGI emoji is not tested. A skin tone alone
 * (two code units: RGI by itself, but a cluster of its own only after a control, and part of the character before it
 * anywhere else) is no emoji here, so what is kept does not depend on whether a control before it was shown as a code.
 */
export function emojiOffsets(text: string): Set<number> {
	const kept = new Set<number>();
	if (!EMOJI_PART.test(text)) return kept;
	for (const stretch of text.matchAll(STRETCH)) {
		const run = stretch[0];
		if (!EMOJI_PART.test(run)) continue;
		for (const offset of stretchOffsets(run)) kept.add(stretch.index + offset);
	}

	return kept;
}

/**
 * The offsets in one stretch that lie in an RGI emoji. Intl.Segmenter costs microseconds a call, and the same names
 * come back every poll: a short stretch's answer is remembered (at most CACHED stretches, forgotten all at once).
 */
function stretchOffsets(run: string): readonly number[] {
	const cached = run.length <= LONGEST_CACHED ? cache.get(run) : undefined;
	if (cached) return cached;
	const offsets: number[] = [];
	for (const {segment, index} of graphemes().segment(run)) {
		if (
			segment.length < 2 ||
			SKIN_TONE_ALONE.test(segment) ||
			segment.length > LONGEST_RGI_EMOJI ||
			!EMOJI_PART.test(segment) ||
			!isRgiEmoji(segment)
		)
			continue;
		for (let offset = 0; offset < segment.length; offset++) offsets.push(index + offset);
	}

	if (run.length <= LONGEST_CACHED) {
		if (cache.size >= CACHED) cache.clear();
		cache.set(run, offsets);
	}

	return offsets;
}

const CACHED = 1024;
const LONGEST_CACHED = 64;
const cache = new Map<string, readonly number[]>();
