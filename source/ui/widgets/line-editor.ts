/**
 * One line of text being typed (the config view's search and its inline editor): the text, the caret,
 * and what each key does to them. The keys are the config keymap's prompt bindings (keys/bindings.ts); any
 * other printable input goes in at the caret, and so does a paste (`pastedLine`), whole.
 */
import {type KeyLike} from '../keys/matcher.js';
import {CONFIG_KEYMAP} from '../keys/bindings.js';

/** Text being typed, and where the caret is in it (0…length). */
export type TypedText = {readonly text: string; readonly caret: number};

/** The result of one key: the text it leaves (the same object when nothing changed). */
export function typeKey(current: TypedText, input: string, key: KeyLike): TypedText {
	const {text, caret} = current;
	switch (CONFIG_KEYMAP.commandFor(input, key, 'prompt', CONFIG_KEYMAP.available('prompt'))) {
		case 'deleteBack':
			return caret === 0 ? current : {text: text.slice(0, caret - 1) + text.slice(caret), caret: caret - 1};
		case 'caretLeft':
			return caret === 0 ? current : {text, caret: caret - 1};
		case 'caretRight':
			return caret >= text.length ? current : {text, caret: caret + 1};
		case 'caretStart':
			return caret === 0 ? current : {text, caret: 0};
		case 'caretEnd':
			return caret === text.length ? current : {text, caret: text.length};
		case 'clearLine':
			return text === '' ? current : {text: '', caret: 0};
		case null: {
			if (key.ctrl === true || key.meta === true || key.tab === true || input === '' || hasControl(input)) return current;
			return {text: text.slice(0, caret) + input + text.slice(caret), caret: caret + input.length};
		}

		default:
			// Enter and Esc: the prompt's own keys, not editing.
			return current;
	}
}

/** A paste as the text of one line: without the line break it may end with; null when it holds more than one line. */
export function pastedLine(text: string): string | null {
	const line = text.replace(/[\r\n]+$/, '');
	return hasControl(line) ? null : line;
}

/** Whether a text holds a control character (an escape sequence or a key Ink did not name). */
function hasControl(text: string): boolean {
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (code < 0x20 || code === 0x7f) return true;
	}

	return false;
}
