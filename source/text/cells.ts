/**
 * Text measured, cut and padded in terminal cells, as Ink lays it out and terminals draw it: a CJK character or an
 * emoji takes 2, a combining mark none, by `string-width` (Ink's own measure, patched at build: scripts/patches/).
 * Every table (the fleet, a proxy's workers, the config tree, the fleet config view, batch results on the screen and
 * in the shell, `--once`'s workers) measures, cuts and pads with these, never with `.length` or code points. No Ink
 * here, so the shell's commands use them without loading it.
 */
import stringWidth from 'string-width';

/**
 * The terminal cells `text` takes, as Ink lays it out and terminals draw it: `string-width` (Ink's own measure), so a CJK
 * character or an emoji is 2, a combining mark 0 ("ünïcødé-矿机" is 12). Every table measures, cuts and pads with this
 * (cutText, padText), never `.length` or code points.
 */
export function textWidth(text: string): number {
	return stringWidth(text);
}

const graphemes = new Intl.Segmenter();

/** The grapheme clusters of `text` with their widths in cells (a letter and its combining marks are one, of 1). */
function cells(text: string): {readonly text: string; readonly width: number}[] {
	return [...graphemes.segment(text)].map(({segment}) => ({text: segment, width: stringWidth(segment)}));
}

/** What marks text cut short: a line cut at its edge, or the last line kept of text cut at a number of lines. */
export const CUT_MARK = '…';

/**
 * `text` in at most `width` terminal cells (textWidth: a CJK character or an emoji takes 2, a combining mark none): whole
 * when it fits, else cut between grapheme clusters so that its last cell is "…" (a cut is never silent; a wide character
 * that would straddle the edge goes whole, so the result may be a cell short: padText fills it). `from: 'start'` keeps
 * the end instead ("…ool.example.com:3333", where the end says more).
 */
export function cutText(text: string, width: number, from: 'end' | 'start' = 'end'): string {
	const room = Math.floor(width);
	if (room <= 0) return '';
	if (textWidth(text) <= room) return text;
	if (room === 1) return CUT_MARK;
	const clusters = cells(text);
	if (from === 'start') clusters.reverse();
	const kept: string[] = [];
	let used = 0;
	for (const cluster of clusters) {
		if (used + cluster.width > room - 1) break;
		kept.push(cluster.text);
		used += cluster.width;
	}

	return from === 'end' ? `${kept.join('').trimEnd()}${CUT_MARK}` : `${CUT_MARK}${kept.reverse().join('')}`;
}

/** `text` in exactly `width` terminal cells: cut as cutText cuts, then padded with spaces on the right (or the left). */
export function padText(text: string, width: number, align: 'left' | 'right' = 'left'): string {
	const room = Math.floor(width);
	if (room <= 0) return '';
	const cut = cutText(text, room);
	const fill = ' '.repeat(Math.max(0, room - textWidth(cut)));
	return align === 'right' ? `${fill}${cut}` : `${cut}${fill}`;
}
