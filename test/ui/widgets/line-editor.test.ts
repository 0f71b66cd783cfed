import {describe, expect, test} from 'vitest';
import {typeKey} from '../../../source/ui/widgets/line-editor.js';

describe('line editing', () => {
	test('inserts at the caret, deletes left of it, moves, clears; a paste arrives whole', () => {
		let typed = {text: '', caret: 0};
		typed = typeKey(typed, '12', {});
		typed = typeKey(typed, '', {leftArrow: true});
		typed = typeKey(typed, 'x', {});
		expect(typed).toEqual({text: '1x2', caret: 2});
		typed = typeKey(typed, '', {backspace: true}); // Backspace (0x7F)
		expect(typed).toEqual({text: '12', caret: 1});
		expect(typeKey({text: '12', caret: 2}, '', {delete: true})).toEqual({text: '1', caret: 1});
		typed = typeKey(typed, 'a', {ctrl: true});
		expect(typed.caret).toBe(0);
		expect(typeKey(typed, '', {backspace: true})).toBe(typed);
		typed = typeKey(typed, '', {end: true});
		expect(typed.caret).toBe(2);
		expect(typeKey(typed, '', {rightArrow: true})).toBe(typed);
		expect(typeKey(typed, '\u001B[15~', {})).toBe(typed);
		expect(typeKey(typed, 'u', {ctrl: true})).toEqual({text: '', caret: 0});
	});
});
