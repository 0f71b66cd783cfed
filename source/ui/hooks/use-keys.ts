/**
 * The one way a screen reads its keys: Ink's useInput, plus the function keys it cannot tell apart,
 * one key at a time however the terminal delivers them, pastes kept apart, and Ctrl+Z.
 *
 * Keys that arrive in one read (a held key, fast typing, SSH) reach Ink's parser as one chunk: it
 * splits off escape sequences but hands a run of other characters over as one input ("jjj"), which no
 * key binding matches. The first hook mounted wraps Ink's input event stream once so that such a run
 * goes out as one event per character (code point), in order, each a macrotask after the one before:
 * React has then drawn the screen a key opened and subscribed its keys before the next key goes out.
 * A bracketed paste (enabled here through Ink's usePaste) is never taken as keys: it goes to
 * `onPaste` (a line editor types it in) or nowhere.
 *
 * Ink's useInput reports every function key (F1…F12) as an empty input with no flag set, so F1 (htop's
 * help) and F10 (htop's quit) would be indistinguishable from each other and from any unnamed key.
 * This hook also listens to the raw key events Ink's own input parser emits (one complete escape
 * sequence per event) and reports a function key as `{fn: n}`; the empty, flagless report useInput
 * makes of the same key is dropped. If a future Ink no longer offers that event stream, the function
 * keys go quiet and every other key keeps working (test/ui/keys.test.tsx fails on such an Ink).
 */
import type {EventEmitter} from 'node:events';
import {useApp, useInput, usePaste, useStdin, type Key} from 'ink';
import {useEffect, useLayoutEffect, useRef} from 'react';
import {type KeyLike} from '../keys/matcher.js';
import {isSuspendKey} from '../keys/bindings.js';

/** xterm / VT220 / rxvt / Linux console spellings of F1…F12 (with or without modifiers), as terminfo's kf1…kf12 write them. */
const CSI_TILDE: Readonly<Record<string, number>> = {
	'11': 1,
	'12': 2,
	'13': 3,
	'14': 4,
	'15': 5,
	'17': 6,
	'18': 7,
	'19': 8,
	'20': 9,
	'21': 10,
	'23': 11,
	'24': 12,
};
const SS3_LETTER: Readonly<Record<string, number>> = {P: 1, Q: 2, R: 3, S: 4};
const CONSOLE_LETTER: Readonly<Record<string, number>> = {A: 1, B: 2, C: 3, D: 4, E: 5};

/** The function key a raw key event is (1 for F1), or null. */
export function functionKey(sequence: string): number | null {
	// eslint-disable-next-line no-control-regex -- terminal escape sequences start with ESC.
	const tilde = /^\u001B\[(\d+)(?:;\d+)?~$/.exec(sequence);
	if (tilde) return CSI_TILDE[tilde[1] ?? ''] ?? null;
	// eslint-disable-next-line no-control-regex -- ESC O P (xterm), ESC [1;2P (with a modifier)
	const letter = /^\u001B(?:O|\[1;\d+)([PQRS])$/.exec(sequence);
	if (letter) return SS3_LETTER[letter[1] ?? ''] ?? null;
	// eslint-disable-next-line no-control-regex -- the Linux console: ESC [ [ A … E
	const console = /^\u001B\[\[([A-E])$/.exec(sequence);
	if (console) return CONSOLE_LETTER[console[1] ?? ''] ?? null;
	return null;
}

type InkStdin = ReturnType<typeof useStdin> & {readonly internal_eventEmitter?: EventEmitter};

const ESC = '\u001B';

/**
 * The keys of one input event of Ink's parser: an escape sequence (an arrow, F1: CSI `ESC [`, SS3 `ESC O`) is one
 * key; any other text (a run of characters that arrived together, control bytes such as Enter and Ctrl+U among them)
 * is one key per code point, so an emoji stays whole.
 *
 * Ink reads ESC and the key after it, when they arrive in one read, as one Alt (meta) key: `ESC c` as Alt+c,
 * `ESC ESC` as Alt+Esc, `ESC ESC [A` as Alt+↑. rigtop binds no Alt+key (and no screen reads `key.meta`), so such a
 * key would be the second key alone, or nothing, and the Esc lost; it is Esc, then that key, in order — as htop and
 * k9s read it when the two are typed faster than the terminal's escape delay.
 */
export function keysOf(data: string): readonly string[] {
	if (data.startsWith(ESC)) {
		const rest = data.slice(1);
		// ESC ESC…: an Esc, then whatever the second ESC starts (an Esc, an arrow, an Alt+key read the same way).
		if (rest.startsWith(ESC)) return [ESC, ...keysOf(rest)];
		// ESC and one code point (a letter, Enter, Backspace, a lone [ or O flushed after the escape delay): two keys.
		if ([...rest].length === 1) return [ESC, rest];
		return [data];
	}

	const keys = [...data];
	return keys.length > 1 ? keys : [data];
}

const chunked = new WeakSet<EventEmitter>();

/**
 * Makes Ink's input events one key each (see the top of this file). Input and paste events queue behind the
 * keys still going out, so everything stays in the order it was typed.
 */
function oneKeyPerEvent(events: EventEmitter): void {
	if (chunked.has(events)) return;
	chunked.add(events);
	const emit = events.emit.bind(events);
	const queue: (readonly [string, unknown])[] = [];
	let sending = false;
	const send = (): void => {
		const next = queue.shift();
		try {
			if (next !== undefined) emit(next[0], next[1]);
		} finally {
			// Whatever a listener did, the keys after it still go out.
			if (queue.length === 0) sending = false;
			else setImmediate(send);
		}
	};

	events.emit = (name: string | symbol, ...args: unknown[]): boolean => {
		if (name !== 'input' && name !== 'paste') return emit(name, ...args);
		const [data] = args;
		if (name === 'input' && typeof data === 'string') for (const key of keysOf(data)) queue.push([name, key]);
		else queue.push([name, data]);
		if (!sending) {
			sending = true;
			send();
		}

		return true;
	};
}

/** How long rigtop waits for SIGCONT after it stopped itself before it takes the terminal back anyway (see suspend). */
const NO_STOP_MS = 1000;
let suspended = false;

/**
 * Ctrl+Z, as htop has it: the terminal goes back to the shell as it was (main screen, cursor shown, raw mode
 * off), the process group stops (as the terminal's own Ctrl+Z stops it: npx in front of rigtop too), and on
 * SIGCONT (fg) Ink takes the terminal back and draws the screen again in full, at the terminal's size then.
 * Without job control (no shell to go back to: an orphaned process group) the kernel drops the stop, and
 * rigtop takes the terminal back after NO_STOP_MS.
 */
async function suspend(suspendTerminal: ReturnType<typeof useApp>['suspendTerminal']): Promise<void> {
	if (suspended) return;
	suspended = true;
	try {
		await suspendTerminal(
			async () =>
				new Promise<void>((resolve) => {
					// Whichever comes first: SIGCONT, or the timer (a stop the kernel dropped is never continued).
					const timer = setTimeout(finish, NO_STOP_MS);
					function finish() {
						clearTimeout(timer);
						process.off('SIGCONT', finish);
						// The terminal may have been resized meanwhile (its SIGWINCH went to the shell): Node reads the size again.
						process.kill(process.pid, 'SIGWINCH');
						resolve();
					}

					process.on('SIGCONT', finish);
					process.kill(0, 'SIGTSTP');
				}),
		);
	} finally {
		suspended = false;
	}
}

function isUnnamed(input: string, key: Key): boolean {
	if (input !== '') return false;
	return !Object.values(key).some((flag) => flag === true);
}

export type KeysOptions = {
	/** `false` stops listening. */
	readonly isActive?: boolean;
	/** What was pasted (bracketed paste): the screen's line editor types it in; without this it is dropped. */
	readonly onPaste?: (text: string) => void;
};

/**
 * Calls `handler` for every key, one at a time, function keys included (`key.fn`). Ctrl+Z suspends rigtop
 * and reaches no screen.
 */
export function useKeys(handler: (input: string, key: KeyLike) => void, options: KeysOptions = {}): void {
	const latest = useRef(handler);
	const latestPaste = useRef(options.onPaste);
	useLayoutEffect(() => {
		latest.current = handler;
		latestPaste.current = options.onPaste;
	}, [handler, options.onPaste]);
	const active = options.isActive !== false;
	const {internal_eventEmitter: events} = useStdin() as InkStdin;
	const {suspendTerminal} = useApp();
	useEffect(() => {
		if (events) oneKeyPerEvent(events);
	}, [events]);

	useInput(
		(input, key) => {
			// A function key (or another key Ink does not name): the raw listener below has it.
			if (isUnnamed(input, key)) return;
			if (isSuspendKey(input, key)) {
				void suspend(suspendTerminal);
				return;
			}

			latest.current(input, key);
		},
		{isActive: active},
	);
	// Listening for pastes turns bracketed paste on, and keeps pasted text away from the keys.
	usePaste(
		(text) => {
			latestPaste.current?.(text);
		},
		{isActive: active},
	);

	useEffect(() => {
		if (!active || !events) return;
		const listener = (data: unknown) => {
			if (typeof data !== 'string') return;
			const fn = functionKey(data);
			if (fn !== null) latest.current('', {fn});
		};

		events.on('input', listener);
		return () => {
			events.off('input', listener);
		};
	}, [active, events]);
}
