import {Text} from 'ink';
import {useState} from 'react';
import {describe, expect, test, vi} from 'vitest';
import {functionKey, keysOf, useKeys} from '../../source/ui/hooks/use-keys.js';
import {keyName, type KeyLike} from '../../source/ui/keys/matcher.js';
import {isSuspendKey, SCREEN_KEYMAP} from '../../source/ui/keys/bindings.js';
import {KEYS, renderTerminal} from './helpers/terminal.js';

/** How a test screen writes down a key: "j", "↓", "Enter", "Ctrl+U", "F1". */
function named(input: string, key: KeyLike): string {
	if (key.fn !== undefined) return `F${key.fn}`;
	if (key.downArrow === true) return '↓';
	if (key.return === true) return 'Enter';
	if (key.backspace === true) return 'Backspace';
	if (key.ctrl === true) return `Ctrl+${input.toUpperCase()}`;
	return input;
}

/** A screen that writes down every key it gets, and every paste. */
function Recorder({name, log, onKey}: {readonly name: string; readonly log: string[]; readonly onKey?: (input: string) => void}) {
	useKeys(
		(input, key) => {
			log.push(`${name}:${named(input, key)}`);
			onKey?.(input);
		},
		{
			onPaste(text) {
				log.push(`${name} paste:${text}`);
			},
		},
	);
	return <Text>{name}</Text>;
}

/** Two screens: `g` on the first opens the second (as the dashboard's g opens the chart). */
function TwoScreens({log}: {readonly log: string[]}) {
	const [second, setSecond] = useState(false);
	return second ? (
		<Recorder name="chart" log={log} />
	) : (
		<Recorder
			name="dashboard"
			log={log}
			onKey={(input) => {
				if (input === 'g') setSecond(true);
			}}
		/>
	);
}

describe('keys that arrive together', () => {
	test('a run of characters is one key per code point; an escape sequence is one key', () => {
		expect(keysOf('jjj')).toEqual(['j', 'j', 'j']);
		expect(keysOf('++')).toEqual(['+', '+']);
		expect(keysOf('a😀b')).toEqual(['a', '😀', 'b']);
		expect(keysOf('q\r\u0015')).toEqual(['q', '\r', '\u0015']);
		expect(keysOf('j')).toEqual(['j']);
		expect(keysOf('😀')).toEqual(['😀']);
		expect(keysOf(KEYS.down)).toEqual([KEYS.down]);
		expect(keysOf('\u001Bj')).toEqual(['\u001Bj']); // Alt+j
	});

	test('every key of one read reaches the screen, in order, as it would alone', async () => {
		const log: string[] = [];
		const terminal = await renderTerminal(<Recorder name="screen" log={log} />);
		await terminal.press('jjj');
		await vi.waitFor(() => expect(log).toHaveLength(3));
		expect(log).toEqual(['screen:j', 'screen:j', 'screen:j']);
		log.length = 0;
		// Printable keys, escape sequences, function keys and control keys mixed in one read.
		await terminal.press(`j${KEYS.down}jJ\r\u0015+😀${KEYS.f1}${KEYS.f1}\u007F-`);
		await vi.waitFor(() => expect(log).toHaveLength(12));
		expect(log).toEqual([
			'screen:j',
			'screen:↓',
			'screen:j',
			'screen:J',
			'screen:Enter',
			'screen:Ctrl+U',
			'screen:+',
			'screen:😀',
			'screen:F1',
			'screen:F1',
			'screen:Backspace',
			'screen:-',
		]);
	});

	test('a key that opens another screen: the keys after it in the same read go to that screen', async () => {
		const log: string[] = [];
		const terminal = await renderTerminal(<TwoScreens log={log} />);
		await terminal.press('jgjj', 'chart');
		await vi.waitFor(() => expect(log).toHaveLength(4));
		expect(log).toEqual(['dashboard:j', 'dashboard:g', 'chart:j', 'chart:j']);
	});

	test('a bracketed paste is no keys: it goes to the paste handler whole, and bracketed paste is turned on', async () => {
		const log: string[] = [];
		const terminal = await renderTerminal(<Recorder name="screen" log={log} />);
		expect(terminal.modes).toContain('\u001B[?2004h');
		await terminal.press('\u001B[200~qqq\r\u001B[201~j');
		await vi.waitFor(() => expect(log).toHaveLength(2));
		expect(log).toEqual(['screen paste:qqq\r', 'screen:j']);
	});

	test('Ctrl+Z is the suspend key, on every screen, and reaches no screen', () => {
		expect(isSuspendKey('z', {ctrl: true})).toBe(true);
		expect(isSuspendKey('z', {})).toBe(false);
		expect(keyName({input: 'z', ctrl: true})).toBe('Ctrl+Z');
		for (const screen of ['dashboard', 'fleet', 'fleetFilter', 'chart', 'events', 'help', 'question'] as const)
			expect(SCREEN_KEYMAP.commandFor('z', {ctrl: true}, screen, SCREEN_KEYMAP.available(screen))).toBe('suspend');
	});
});

describe('function keys', () => {
	test('are read from the escape sequences terminals send for them', () => {
		expect(functionKey('\u001BOP')).toBe(1); // xterm, tmux
		expect(functionKey('\u001B[11~')).toBe(1); // rxvt, VT220
		expect(functionKey('\u001B[[A')).toBe(1); // the Linux console
		expect(functionKey('\u001B[1;2P')).toBe(1); // Shift+F1 in xterm
		expect(functionKey('\u001BOS')).toBe(4);
		expect(functionKey('\u001B[21~')).toBe(10);
		expect(functionKey('\u001B[21;5~')).toBe(10);
		expect(functionKey('\u001B[24~')).toBe(12);
		expect(functionKey('\u001B[5~')).toBeNull(); // PgUp
		expect(functionKey('\u001B[A')).toBeNull(); // ↑
		expect(functionKey('P')).toBeNull();
	});

	test('F1 is help and F10 quits on every live screen, and they are written F1 and F10', () => {
		expect(keyName({fn: 10})).toBe('F10');
		for (const screen of ['dashboard', 'fleet', 'help'] as const) {
			const available = SCREEN_KEYMAP.available(screen);
			expect(SCREEN_KEYMAP.commandFor('', {fn: 1}, screen, available)).toBe('help');
			expect(SCREEN_KEYMAP.commandFor('', {fn: 10}, screen, available)).toBe('quit');
			expect(SCREEN_KEYMAP.commandFor('', {fn: 5}, screen, available)).toBeNull();
			expect(SCREEN_KEYMAP.commandFor('', {}, screen, available)).toBeNull();
		}
	});
});
