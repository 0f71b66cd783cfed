/**
 * Renders with Ink into a fake terminal of a chosen size (ink-testing-library's stdout is fixed
 * at 100 columns and has no rows). Frames are written whole (debug mode), so `lastFrame()` is
 * exactly what the terminal would show.
 */
import {EventEmitter} from 'node:events';
import {stripVTControlCharacters} from 'node:util';
import {render, type Instance} from 'ink';
import type {ReactElement} from 'react';
import {afterEach, expect, vi} from 'vitest';
import {textWidth} from '../../../source/text/cells.js';

class FakeStdout extends EventEmitter {
	columns: number;
	rows: number;
	readonly isTTY = true;
	readonly frames: string[] = [];
	/** Terminal modes set and reset (bracketed paste, `ESC[?2004h`), kept out of the frames. */
	readonly modes: string[] = [];
	constructor(columns: number, rows: number) {
		super();
		this.columns = columns;
		this.rows = rows;
	}

	write = (frame: string) => {
		// eslint-disable-next-line no-control-regex -- a mode change is ESC [ ? n h (set) or l (reset).
		if (/^\u001B\[\?\d+[hl]$/.test(frame)) this.modes.push(frame);
		else this.frames.push(frame);
		return true;
	};
}

class FakeStdin extends EventEmitter {
	readonly isTTY = true;
	private data: string | null = null;
	write(data: string) {
		this.data = data;
		this.emit('readable');
		this.emit('data', data);
	}

	read = () => {
		const {data} = this;
		this.data = null;
		return data;
	};

	setEncoding() {}
	setRawMode() {}
	resume() {}
	pause() {}
	ref() {}
	unref() {}
}

const instances: Instance[] = [];

afterEach(() => {
	for (const instance of instances.splice(0)) {
		instance.unmount();
		instance.cleanup();
	}
});

export const KEYS = {
	up: '\u001B[A',
	down: '\u001B[B',
	pageUp: '\u001B[5~',
	pageDown: '\u001B[6~',
	home: '\u001B[H',
	end: '\u001B[F',
	escape: '\u001B',
	ctrlC: '\u0003',
	/** F1 and F10 as xterm (and tmux) send them. */
	f1: '\u001BOP',
	f10: '\u001B[21~',
} as const;

/** One macrotask: lets React flush passive effects (useInput subscribes in one). */
export async function tick(): Promise<void> {
	await new Promise((resolve) => {
		setImmediate(resolve);
	});
}

export type Terminal = {
	/** The last frame as plain text (no escape codes). */
	frame(): string;
	/** The last frame exactly as written. */
	rawFrame(): string;
	/** Every frame written so far, as written. */
	readonly frames: readonly string[];
	/** The terminal modes set and reset so far (`ESC[?2004h`), in order. */
	readonly modes: readonly string[];
	/** Writes a key and waits until the frame shows `expected` (or, without it, one macrotask). */
	press(key: string, expected?: string | RegExp): Promise<void>;
	resize(columns: number, rows: number): void;
	waitFor(expected: string | RegExp): Promise<void>;
	unmount(): void;
};

export async function renderTerminal(
	tree: ReactElement,
	size: {columns: number; rows: number} = {columns: 80, rows: 24},
): Promise<Terminal> {
	const stdout = new FakeStdout(size.columns, size.rows);
	const stdin = new FakeStdin();
	const stderr = new FakeStdout(size.columns, size.rows);
	const instance = render(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: stderr as unknown as NodeJS.WriteStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	instances.push(instance);
	const rawFrame = () => stdout.frames.at(-1) ?? '';
	const frame = () => stripVTControlCharacters(rawFrame());
	// A bound, not a timing goal: a typed chunk renders once per key (debug mode), which a loaded machine makes slow.
	const waitFor = async (expected: string | RegExp) => {
		await vi.waitFor(
			() => {
				if (typeof expected === 'string') expect(frame()).toContain(expected);
				else expect(frame()).toMatch(expected);
			},
			{timeout: 10_000, interval: 5},
		);
	};

	// Let effects run (useInput subscribes in a passive effect) before anyone writes keys.
	await tick();
	return {
		frame,
		rawFrame,
		frames: stdout.frames,
		modes: stdout.modes,
		async press(key, expected) {
			stdin.write(key);
			if (expected === undefined) await tick();
			else await waitFor(expected);
		},
		resize(columns, rows) {
			stdout.columns = columns;
			stdout.rows = rows;
			stdout.emit('resize');
		},
		waitFor,
		unmount() {
			instance.unmount();
		},
	};
}

/** Lines of a frame (Ink ends a frame without a trailing newline in debug mode). */
export function linesOf(frame: string): string[] {
	return frame.split('\n');
}

/** Every frame written so far fitted the terminal: at most `rows - 1` lines (the cursor's line), none wider than `columns`. */
export function expectFits(terminal: Pick<Terminal, 'frames'>, columns: number, rows: number): void {
	for (const frame of terminal.frames) {
		const lines = linesOf(stripVTControlCharacters(frame));
		expect(lines.length).toBeLessThanOrEqual(rows - 1);
		// In terminal cells, as the terminal draws them (a CJK character or an emoji takes 2).
		for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
	}
}
