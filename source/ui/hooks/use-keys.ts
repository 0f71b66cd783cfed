/**
 * The one way a screen reads its keys: Ink's useInput, plus the function keys it cannot tell apart.
 * Ink's useInput reports every function key (F1…F12) as an empty input with no flag set, so F1 (htop's
 * help) and F10 (htop's quit) would be indistinguishable from each other and from any unnamed key.
 * This hook also listens to the raw key events Ink's own input parser emits (one complete escape
 * sequence per event) and reports a function key as `{fn: n}`; the empty, flagless report useInput
 * makes of the same key is dropped. If a future Ink no longer offers that event stream, the function
 * keys go quiet and every other key keeps working (test/ui/keys.test.tsx fails on such an Ink).
 */
import type {EventEmitter} from 'node:events';
import {useInput, useStdin, type Key} from 'ink';
import {useEffect, useRef} from 'react';
import type {KeyLike} from '../keymap.js';

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

function isUnnamed(input: string, key: Key): boolean {
	if (input !== '') return false;
	return !Object.values(key).some((flag) => flag === true);
}

/** Calls `handler` for every key, function keys included (`key.fn`); `isActive: false` stops listening. */
export function useKeys(handler: (input: string, key: KeyLike) => void, options: {readonly isActive?: boolean} = {}): void {
	const latest = useRef(handler);
	useEffect(() => {
		latest.current = handler;
	}, [handler]);
	const active = options.isActive !== false;
	const {internal_eventEmitter: events} = useStdin() as InkStdin;

	useInput(
		(input, key) => {
			// A function key (or another key Ink does not name): the raw listener below has it.
			if (isUnnamed(input, key)) return;
			latest.current(input, key);
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
