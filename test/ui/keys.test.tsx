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
	// A key Ink read as Alt+key: rigtop binds none, so it shows as such here (and no test expects one).
	if (key.meta === true) return `Alt+${key.escape === true ? 'Esc' : key.upArrow === true ? '↑' : input}`;
	if (key.escape === true) return 'Esc';
	if (key.upArrow === true) return '↑';
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
	});

	test('ESC and the key after it in one read are Esc, then that key (rigtop binds no Alt+key)', () => {
		expect(keysOf('\u001Bc')).toEqual(['\u001B', 'c']);
		expect(keysOf('\u001B\u001B')).toEqual(['\u001B', '\u001B']);
		expect(keysOf('\u001B\r')).toEqual(['\u001B', '\r']);
		expect(keysOf('\u001B\u007F')).toEqual(['\u001B', '\u007F']);
		expect(keysOf('\u001B😀')).toEqual(['\u001B', '😀']);
		// Esc, then an arrow or F1 (Ink reads ESC ESC [A as one Alt+↑).
		expect(keysOf(`\u001B${KEYS.up}`)).toEqual(['\u001B', KEYS.up]);
		expect(keysOf(`\u001B${KEYS.f1}`)).toEqual(['\u001B', KEYS.f1]);
		expect(keysOf('\u001B\u001B\u001B')).toEqual(['\u001B', '\u001B', '\u001B']);
		// Escape sequences stay one key: CSI, SS3, the Linux console's F1, a lone Esc.
		for (const sequence of [KEYS.up, KEYS.pageDown, KEYS.f1, KEYS.f10, '\u001B[[A', '\u001B[1;5A', KEYS.escape])
			expect(keysOf(sequence)).toEqual([sequence]);
	});

	test('Esc and a key typed in one read reach the screen as Esc, then the key, in order', async () => {
		const log: string[] = [];
		const terminal = await renderTerminal(<Recorder name="screen" log={log} />);
		await terminal.press('\u001Bc');
		await vi.waitFor(() => expect(log).toHaveLength(2));
		await terminal.press('\u001B\u001B');
		await vi.waitFor(() => expect(log).toHaveLength(4));
		await terminal.press(`\u001B${KEYS.up}j\u001Bg`);
		await vi.waitFor(() => expect(log).toHaveLength(9));
		expect(log).toEqual([
			'screen:Esc',
			'screen:c',
			'screen:Esc',
			'screen:Esc',
			'screen:Esc',
			'screen:↑',
			'screen:j',
			'screen:Esc',
			'screen:g',
		]);
		// A paste after an Esc in another read is still a paste.
		log.length = 0;
		await terminal.press('\u001Bq');
		await terminal.press('\u001B[200~qq\u001B[201~');
		await vi.waitFor(() => expect(log).toHaveLength(3));
		expect(log).toEqual(['screen:Esc', 'screen:q', 'screen paste:qq']);
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
