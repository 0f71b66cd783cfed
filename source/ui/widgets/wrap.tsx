/**
 * Text that wraps, measured as Ink draws it (Ink's <Text wrap="wrap"> is wrap-ansi with these
 * options), so a screen can give a message or a fix every line it needs before drawing it: messages
 * and fixes wrap, only data cells are cut. `Wrapped` draws such text.
 */
import {Text, Transform, type TextProps} from 'ink';
import wrapAnsi from 'wrap-ansi';
import {CUT_MARK, cutText, textWidth} from '../../text/cells.js';

export {cutText, textWidth} from '../../text/cells.js';

/** The lines `text` takes in `width` columns (at least 1). */
export function wrapLines(text: string, width: number): readonly string[] {
	if (width <= 0) return [text];
	return wrapAnsi(text, Math.floor(width), {trim: false, hard: true}).split('\n');
}

/** How many lines `text` takes in `width` columns. */
export function wrappedHeight(text: string, width: number): number {
	return wrapLines(text, width).length;
}

/** Spaces at the start of a line, after the style codes that open it (wrap-ansi opens each line with its styles). */
// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC.
const breakSpace = /^((?:\u001B\[[\d;]*m)*) +/;

/**
 * A wrapped line as a reader wants it: after the first, without the space the break left at its start.
 * Ink's wrap keeps leading spaces (wrap-ansi's `trim: false`), so when a word exactly fills a line the space
 * after it opens the next one ("terminal too / ␠small —"). The line count is unchanged. Lines after a newline in
 * the text lose their leading spaces too: text that is indented on purpose is a Line of its own, not a wrap.
 */
export function trimBreak(line: string, index: number): string {
	return index === 0 ? line : line.replace(breakSpace, '$1');
}

/**
 * The lines of `text` in `width` columns for a screen that draws them itself: trimBreak on each, and without the
 * lines that held only a break's spaces (wrap-ansi gives " " a line of its own when a word exactly fills a line
 * and the next is as long as the line).
 */
export function wordLines(text: string, width: number): readonly string[] {
	const lines = wrapLines(text, width).map(trimBreak);
	const kept = lines.filter((line, index) => index === 0 || line !== '');
	return kept.length > 0 ? kept : [''];
}

/**
 * The lines of `text` in `width` columns (wordLines), at most `lines` of them: when the text takes more, the last one
 * kept ends in "…" (added after its last word when there is room, else in place of its last column). Text that fits
 * is untouched.
 */
export function cutLines(text: string, width: number, lines: number): readonly string[] {
	const all = wordLines(text, width);
	const most = Math.max(1, Math.floor(lines));
	if (all.length <= most) return all;
	const kept = all.slice(0, most);
	const last = kept[most - 1]!.trimEnd();
	kept[most - 1] = textWidth(last) < width ? `${last}${CUT_MARK}` : cutText(`${last}${CUT_MARK}`, width);
	return kept;
}

/**
 * Text that wraps at its box's width, as `<Text wrap="wrap">` (so wrappedHeight measures it) but without the
 * break's space at the start of a line. Its children may nest styled Text. Given `lines` (and the box's inner `width`),
 * a string child is cut to that many lines, the last ending in "…" when it took more (cutLines): a box that gives text
 * fewer lines than it needs says so.
 */
export function Wrapped({children, lines, width, ...style}: Omit<TextProps, 'wrap'> & {readonly lines?: number; readonly width?: number}) {
	if (lines !== undefined && width !== undefined && typeof children === 'string')
		return <Text {...style}>{cutLines(children, Math.max(1, width), lines).join('\n')}</Text>;
	return (
		<Transform transform={trimBreak}>
			<Text {...style}>{children}</Text>
		</Transform>
	);
}
