/**
 * Text that wraps, measured as Ink draws it (Ink's <Text wrap="wrap"> is wrap-ansi with these
 * options), so a screen can give a message or a fix every line it needs before drawing it: messages
 * and fixes wrap, only data cells are cut.
 */
import wrapAnsi from 'wrap-ansi';

/** The lines `text` takes in `width` columns (at least 1). */
export function wrapLines(text: string, width: number): readonly string[] {
	if (width <= 0) return [text];
	return wrapAnsi(text, Math.floor(width), {trim: false, hard: true}).split('\n');
}

/** How many lines `text` takes in `width` columns. */
export function wrappedHeight(text: string, width: number): number {
	return wrapLines(text, width).length;
}
