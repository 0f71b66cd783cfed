// rigtop's replacement for ink 6.8's build/log-update.js, swapped in at bundle time by
// scripts/build.mjs (the same way the text caches are bounded). Same interface as Ink's module:
// `create(stream, {showCursor, incremental})` returns render(str) with clear, done, sync,
// setCursorPosition, isCursorDirty and willRender.
//
// Why: Ink 6.8's incremental writer moves the cursor up `visible lines - 1` before redrawing. That
// is right only for a frame without a trailing newline; Ink's ordinary frames end with one, so
// every update starts one row too low and the frame slides down the screen, leaving duplicated
// rows behind (Ink #910). It also moves over unchanged rows with "next line" (which never scrolls)
// even into rows that do not exist yet, writes `ESC[0A` (= up one) for a one-line frame, and erases
// after writing a line, which on xterm clears the last column of a full-width line.
//
// The model used here: after every write the cursor sits on the frame's "bottom row", which is
// `split('\n').length - 1` rows below the frame's top row (the row after the last line when the
// frame ends with a newline, the last line otherwise). Each update goes up to the top row, rewrites
// only the rows that changed (erase, then write), steps over unchanged rows with cursor-down
// (they are on screen), reaches rows that did not exist with a newline (which scrolls when it
// must), erases what is left of a taller previous frame, and ends on the new bottom row.
import ansiEscapes from 'ansi-escapes';
import cliCursor from 'cli-cursor';

const ESC = '\u001B[';
const showCursorEscape = `${ESC}?25h`;
const hideCursorEscape = `${ESC}?25l`;
const eraseLine = `${ESC}2K`;
const eraseDown = `${ESC}J`;
const up = (count) => (count > 0 ? `${ESC}${count}A` : '');
const down = (count) => (count > 0 ? `${ESC}${count}B` : '');
const toColumn = (column) => (column > 0 ? `${ESC}${column + 1}G` : '\r');

// Lines shown for a frame: a trailing newline ends the last line, it does not add one.
const visibleLineCount = (lines, str) => (str.endsWith('\n') ? lines.length - 1 : lines.length);
const cursorMoved = (a, b) => a?.x !== b?.x || a?.y !== b?.y;

// From the bottom row (`bottomRow` rows below the top) to the requested cursor cell, shown.
const cursorSuffix = (bottomRow, position) => (position ? up(bottomRow - position.y) + toColumn(position.x) + showCursorEscape : '');
// From a shown cursor back to the bottom row, column 0 (hidden again by the caller's prefix).
const returnToBottom = (bottomRow, position) => (position ? down(bottomRow - position.y) + '\r' : '');

// The standard writer: erase the previous frame, write the new one (Ink 6.8's behaviour).
const createStandard = (stream, {showCursor = false} = {}) => {
	let previousLineCount = 0;
	let previousOutput = '';
	let hasHiddenCursor = false;
	let cursorPosition;
	let cursorDirty = false;
	let previousCursorPosition;
	let cursorWasShown = false;
	const activeCursor = () => (cursorDirty ? cursorPosition : undefined);
	const hasChanges = (str, cursor) => str !== previousOutput || cursorMoved(cursor, previousCursorPosition);
	const prefix = () => (cursorWasShown ? hideCursorEscape + returnToBottom(previousLineCount - 1, previousCursorPosition) : '');

	const render = (str) => {
		if (!showCursor && !hasHiddenCursor) {
			cliCursor.hide(stream);
			hasHiddenCursor = true;
		}

		const cursor = activeCursor();
		cursorDirty = false;
		if (!hasChanges(str, cursor)) return false;
		const lines = str.split('\n');
		if (str === previousOutput) {
			stream.write(prefix() + cursorSuffix(lines.length - 1, cursor));
		} else {
			stream.write(prefix() + ansiEscapes.eraseLines(previousLineCount) + str + cursorSuffix(lines.length - 1, cursor));
			previousOutput = str;
			previousLineCount = lines.length;
		}

		previousCursorPosition = cursor ? {...cursor} : undefined;
		cursorWasShown = cursor !== undefined;
		return true;
	};

	render.clear = () => {
		stream.write(prefix() + ansiEscapes.eraseLines(previousLineCount));
		previousOutput = '';
		previousLineCount = 0;
		previousCursorPosition = undefined;
		cursorWasShown = false;
	};

	render.done = () => {
		previousOutput = '';
		previousLineCount = 0;
		previousCursorPosition = undefined;
		cursorWasShown = false;
		if (!showCursor) {
			cliCursor.show(stream);
			hasHiddenCursor = false;
		}
	};

	render.sync = (str) => {
		const cursor = activeCursor();
		cursorDirty = false;
		const lines = str.split('\n');
		previousOutput = str;
		previousLineCount = lines.length;
		if (!cursor && cursorWasShown) stream.write(hideCursorEscape);
		if (cursor) stream.write(cursorSuffix(lines.length - 1, cursor));
		previousCursorPosition = cursor ? {...cursor} : undefined;
		cursorWasShown = cursor !== undefined;
	};

	render.setCursorPosition = (position) => {
		cursorPosition = position;
		cursorDirty = true;
	};

	render.isCursorDirty = () => cursorDirty;
	render.willRender = (str) => hasChanges(str, activeCursor());
	return render;
};

// The incremental writer: rewrite only the rows whose text changed.
const createIncremental = (stream, {showCursor = false} = {}) => {
	// The previous frame split on '\n': its length - 1 is the bottom row (see the model above).
	let previousLines = [];
	let previousOutput = '';
	let hasHiddenCursor = false;
	let cursorPosition;
	let cursorDirty = false;
	let previousCursorPosition;
	let cursorWasShown = false;
	const activeCursor = () => (cursorDirty ? cursorPosition : undefined);
	const hasChanges = (str, cursor) => str !== previousOutput || cursorMoved(cursor, previousCursorPosition);
	const prefix = () => (cursorWasShown ? hideCursorEscape + returnToBottom(previousLines.length - 1, previousCursorPosition) : '');

	/** The escapes that turn the previous frame (bottom row under the cursor) into `str`. */
	const diff = (str, nextLines) => {
		const previousBottom = previousLines.length - 1;
		const previousVisible = visibleLineCount(previousLines, previousOutput);
		const nextVisible = visibleLineCount(nextLines, str);
		const nextBottom = nextLines.length - 1;
		const parts = [up(previousBottom), '\r'];
		let row = 0;
		// Moves the cursor from `row` down to `target`, at column 0: rows up to the previous bottom
		// row are on screen (cursor-down), rows past it are made with newlines (scrolling if needed).
		const moveDown = (target) => {
			if (target <= row) return;
			const onScreen = Math.min(target, previousBottom) - row;
			if (onScreen > 0) parts.push(down(onScreen), '\r');
			const created = target - Math.max(row, previousBottom);
			if (created > 0) parts.push('\n'.repeat(created), '\r');
			row = target;
		};

		for (let index = 0; index < nextVisible; index++) {
			const line = nextLines[index];
			if (index < previousVisible && line === previousLines[index]) continue;
			moveDown(index);
			// Erase first: erasing after a full-width line would clear its last column on xterm.
			parts.push(eraseLine, line);
		}

		if (nextVisible < previousVisible) {
			// Rows of the taller previous frame below the new one.
			moveDown(nextVisible);
			parts.push('\r', eraseDown);
		}

		if (row < nextBottom) moveDown(nextBottom);
		else if (row > nextBottom) parts.push(up(row - nextBottom));
		parts.push('\r');
		return parts.join('');
	};

	const render = (str) => {
		if (!showCursor && !hasHiddenCursor) {
			cliCursor.hide(stream);
			hasHiddenCursor = true;
		}

		const cursor = activeCursor();
		cursorDirty = false;
		if (!hasChanges(str, cursor)) return false;
		const nextLines = str.split('\n');
		const nextBottom = nextLines.length - 1;
		if (str === previousOutput) {
			stream.write(prefix() + cursorSuffix(nextBottom, cursor));
		} else if (previousOutput.length === 0 || str === '\n') {
			// Nothing (known) on screen yet: write the whole frame.
			stream.write(prefix() + ansiEscapes.eraseLines(previousLines.length) + str + cursorSuffix(nextBottom, cursor));
		} else {
			stream.write(prefix() + diff(str, nextLines) + cursorSuffix(nextBottom, cursor));
		}

		previousOutput = str;
		previousLines = nextLines;
		previousCursorPosition = cursor ? {...cursor} : undefined;
		cursorWasShown = cursor !== undefined;
		return true;
	};

	render.clear = () => {
		stream.write(prefix() + ansiEscapes.eraseLines(previousLines.length));
		previousOutput = '';
		previousLines = [];
		previousCursorPosition = undefined;
		cursorWasShown = false;
	};

	render.done = () => {
		previousOutput = '';
		previousLines = [];
		previousCursorPosition = undefined;
		cursorWasShown = false;
		if (!showCursor) {
			cliCursor.show(stream);
			hasHiddenCursor = false;
		}
	};

	render.sync = (str) => {
		const cursor = activeCursor();
		cursorDirty = false;
		const lines = str.split('\n');
		previousOutput = str;
		previousLines = lines;
		if (!cursor && cursorWasShown) stream.write(hideCursorEscape);
		if (cursor) stream.write(cursorSuffix(lines.length - 1, cursor));
		previousCursorPosition = cursor ? {...cursor} : undefined;
		cursorWasShown = cursor !== undefined;
	};

	render.setCursorPosition = (position) => {
		cursorPosition = position;
		cursorDirty = true;
	};

	render.isCursorDirty = () => cursorDirty;
	render.willRender = (str) => hasChanges(str, activeCursor());
	return render;
};

const create = (stream, {showCursor = false, incremental = false} = {}) => (incremental ? createIncremental(stream, {showCursor}) : createStandard(stream, {showCursor}));

const logUpdate = {create};
export default logUpdate;
