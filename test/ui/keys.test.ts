import {describe, expect, test} from 'vitest';
import {functionKey} from '../../source/ui/hooks/use-keys.js';
import {keyName, SCREEN_KEYMAP} from '../../source/ui/keymap.js';

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
