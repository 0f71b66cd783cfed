/**
 * The config view's reducer and keymap, as pure functions over the recorded 6.26 config: line
 * editing, scrolling, search order, the two questions for an API change, read-only, and the keymap
 * table itself (one command per key in each mode, footer from the same table).
 */
import {describe, expect, test} from 'vitest';
import {dialogContent} from '../../../../source/ui/screens/config/panel-content.js';
import {PendingEdits} from '../../../../source/config/edits.js';
import {READ_ONLY_MESSAGE, type ConfigSessionState} from '../../../../source/config/session.js';
import {type KeyLike} from '../../../../source/ui/keys/matcher.js';
import {CONFIG_KEYMAP, type ConfigMode} from '../../../../source/ui/keys/bindings.js';
import {configReducer, initialConfigUi, modeOf, type ConfigStep} from '../../../../source/ui/screens/config/reduce.js';
import type {ConfigUiState} from '../../../../source/ui/screens/config/state.js';
import {typedValue} from '../../../../source/ui/widgets/typed-value.js';
import {readySessionState} from '../../../config/helpers/session-state.js';

function press(state: ConfigUiState, session: ConfigSessionState, input: string, key: KeyLike = {}, readOnly = false): ConfigStep {
	return configReducer(state, {type: 'key', input, key}, {session, pageSize: 5, readOnly, helpMax: 0, tooSmall: false});
}

/** Runs keys, applying the session effects the reducer asks for to the edits (as the view does). */
function run(
	keys: readonly (string | KeyLike)[],
	session = readySessionState(),
): {state: ConfigUiState; session: ConfigSessionState; effects: string[]} {
	let state = initialConfigUi();
	let current = session;
	const effects: string[] = [];
	for (const item of keys) {
		const step = typeof item === 'string' ? press(state, current, item) : press(state, current, '', item);
		state = step.state;
		for (const effect of step.effects) {
			effects.push(effect.type);
			// The effect carries the edits the reducer made: the session takes them as they are.
			if (effect.type === 'toggle' || effect.type === 'set' || effect.type === 'step') current = {...current, edits: effect.edits};
		}
	}

	return {state, session: current, effects};
}

describe('config reducer', () => {
	test('keys typed into the search prompt stay there; Enter goes to the first match, n to the next', () => {
		const {state} = run(['/', 'c', 'o', 'l', 'o', 'r', 's', {return: true}]);
		expect(state.cursor).toBe('colors');
		expect(state.query).toBe('colors');
		const tls = run(['/', 'tls', {return: true}, 'n', 'n', 'n']);
		expect(tls.state.cursor).toBe('tls.enabled');
		expect([...tls.state.expanded]).toEqual(expect.arrayContaining(['pools', 'pools.0', 'tls']));
		// After the last match, n wraps to the first.
		const all = run(['/', 'tls', {return: true}, ...Array.from({length: 10}, () => 'n')]);
		expect(all.state.cursor).toBe('pools.0.tls');
	});

	test('Space makes a toggle effect; a key without a set of values says to edit it instead', () => {
		const toggled = run(['/', 'colors', {return: true}, ' ']);
		expect(toggled.effects).toEqual(['toggle']);
		expect(toggled.session.edits?.diffLines()).toEqual(['colors: false → true']);
		const text = run(['/', 'log-file', {return: true}, ' ']);
		expect(text.effects).toEqual([]);
		expect(text.state.notice?.text).toMatch(/log-file has no set of values to cycle through; edit it instead/);
	});

	test('an API change asks twice before the apply effect; n at either question cancels', () => {
		const edited = run(['/', 'http.restricted', {return: true}, ' ']);
		expect(edited.session.edits?.hasGuarded).toBe(true);
		let step = press(edited.state, edited.session, 'w');
		expect(step.state.dialog).toEqual({kind: 'confirm', step: 1});
		expect(modeOf(step.state, edited.session)).toBe('confirm');
		step = press(step.state, edited.session, 'y');
		expect(step.state.dialog).toEqual({kind: 'confirm', step: 2});
		expect(step.effects).toEqual([]);
		const cancelled = press(step.state, edited.session, 'n');
		expect(cancelled.state.dialog).toBeNull();
		step = press(step.state, edited.session, 'y');
		expect(step.effects).toEqual([{type: 'apply'}]);
		// A change that cannot cut rigtop off is asked once.
		const plain = run(['/', 'colors', {return: true}, ' ', 'w', 'y']);
		expect(plain.effects).toEqual(['toggle', 'apply']);
	});

	test('the inline editor refuses a bad value and keeps it open; a good one becomes a set effect', () => {
		const opened = run(['/', 'print-time', {return: true}, {return: true}]);
		expect(opened.state.prompt).toMatchObject({kind: 'edit', text: '60', caret: 2});
		let state = opened.state;
		for (const [input, key] of [
			['', {delete: true}],
			['', {delete: true}],
			['-5', {}],
			['', {return: true}],
		] as const)
			state = press(state, opened.session, input, key).state;
		expect(state.prompt).toMatchObject({kind: 'edit', error: 'print-time must be a whole number from 0 to 3600 (not -5)'});
		state = press(state, opened.session, '', {delete: true}).state;
		state = press(state, opened.session, '', {delete: true}).state;
		state = press(state, opened.session, '30').state;
		const done = press(state, opened.session, '', {return: true});
		expect(done.state.prompt).toBeNull();
		// The effect carries only the edits made (no path or value for the session to make the edit again from).
		expect(done.effects).toEqual([{type: 'set', edits: expect.any(PendingEdits)}]);
		expect(done.effects[0]?.type === 'set' && done.effects[0].edits.diffLines()).toEqual(['print-time: 60 → 30']);
	});

	test('read-only: write keys only say so', () => {
		const session = readySessionState(undefined, {readOnly: true});
		let {state} = run(['/', 'print-time', {return: true}], session);
		expect(state.cursor).toBe('print-time');
		for (const [input, key] of [
			[' ', {}],
			['w', {}],
			['u', {}],
			['+', {}],
			['', {return: true}],
		] as const) {
			const step = press(state, session, input, key);
			expect(step.effects).toEqual([]);
			expect(step.state.notice?.text).toBe(READ_ONLY_MESSAGE);
			expect(step.state.prompt).toBeNull();
			state = step.state;
		}

		// The prop counts as much as the session's flag.
		expect(press(state, readySessionState(), 'w', {}, true).state.notice?.text).toBe(READ_ONLY_MESSAGE);
	});

	test('Esc goes back at once without changes, asks with them; leaving drops them', () => {
		expect(run([{escape: true, meta: true}]).effects).toEqual(['back']);
		const pending = run(['/', 'colors', {return: true}, ' ', {escape: true, meta: true}]);
		expect(pending.state.dialog).toEqual({kind: 'leave', then: 'back'});
		expect(press(pending.state, pending.session, 'y').effects).toEqual([{type: 'discard'}, {type: 'back'}]);
	});

	test('x discards one pending change at once; more than one it asks first, y discards them, n keeps them', () => {
		const one = run(['/', 'colors', {return: true}, ' ', 'x']);
		expect(one.effects).toEqual(['toggle', 'discard']);
		expect(one.state.dialog).toBeNull();
		expect(one.state.notice?.text).toBe('discarded 1 pending change');
		const two = run(['/', 'colors', {return: true}, ' ', '/', 'background', {return: true}, ' ', 'x']);
		expect(two.session.edits?.size).toBe(2);
		expect(two.effects).toEqual(['toggle', 'toggle']);
		expect(two.state.dialog).toEqual({kind: 'discard'});
		expect(modeOf(two.state, two.session)).toBe('confirm');
		// A key that is not an answer (x again, j) changes nothing; n keeps the changes, y drops them.
		expect(press(two.state, two.session, 'x').state.dialog).toEqual({kind: 'discard'});
		expect(press(two.state, two.session, 'j').effects).toEqual([]);
		const kept = press(two.state, two.session, 'n');
		expect(kept.state.dialog).toBeNull();
		expect(kept.effects).toEqual([]);
		const dropped = press(two.state, two.session, 'y');
		expect(dropped.state.dialog).toBeNull();
		expect(dropped.effects).toEqual([{type: 'discard'}]);
		expect(dropped.state.notice?.text).toBe('discarded 2 pending changes');
		const content = dialogContent({kind: 'discard'}, two.session, 'rig-01');
		expect(content.title).toBe('Discard 2 pending changes?');
		expect(content.prompt).toBe('y discard · n keep them');
		expect(content.lines.map((line) => line.text)).toEqual(expect.arrayContaining(['colors: false → true']));
	});

	test('q leaves from every mode but typing (asking first with pending changes), F10 quits from every mode', () => {
		// Nothing pending: q goes back from browsing, the help, a result panel, a question.
		expect(run(['q']).effects).toEqual(['back']);
		expect(run(['?', 'q']).effects).toEqual(['back']);
		expect(run([{fn: 1}, 'q']).effects).toEqual(['back']);
		expect(run(['u', 'q']).effects).toEqual(['back']); // 'nothing to undo' said, then q
		expect(run([{fn: 10}]).effects).toEqual(['quit']);
		// While typing, q is a letter of the search; F10 still quits.
		const typing = run(['/', 'q']);
		expect(typing.effects).toEqual([]);
		expect(typing.state.prompt?.text).toBe('q');
		expect(run(['/', 'q', {fn: 10}]).effects).toEqual(['quit']);
		// With a change pending, q asks; at the question q changes nothing, n stays, y drops and leaves.
		const pending = run(['/', 'colors', {return: true}, ' ', 'q']);
		expect(pending.state.dialog).toEqual({kind: 'leave', then: 'back'});
		expect(press(pending.state, pending.session, 'q').state.dialog).toEqual({kind: 'leave', then: 'back'});
		expect(press(pending.state, pending.session, 'n').state.dialog).toBeNull();
		const quitting = run(['/', 'colors', {return: true}, ' ', 'w', {fn: 10}]);
		expect(quitting.state.dialog).toEqual({kind: 'leave', then: 'quit'});
		expect(press(quitting.state, quitting.session, 'y').effects).toEqual([{type: 'discard'}, {type: 'quit'}]);
		// At the apply question, q asks about leaving instead (nothing is applied).
		const asked = run(['/', 'colors', {return: true}, ' ', 'w']);
		expect(asked.state.dialog).toEqual({kind: 'confirm', step: 1});
		expect(press(asked.state, asked.session, 'q').state.dialog).toEqual({kind: 'leave', then: 'back'});
		// Not while a change is being applied.
		const busy = {...pending.session, busy: 'apply' as const};
		const waiting = press(initialConfigUi(), busy, 'q');
		expect(waiting.effects).toEqual([]);
		expect(waiting.state.notice?.text).toBe('wait: a change is being applied');
	});

	test('? opens the help over any screen of the view; ? F1 or Esc close it and what was under it is back', () => {
		const help = run(['?']);
		expect(modeOf(help.state, help.session)).toBe('help');
		for (const close of ['?', {fn: 1}, {escape: true, meta: true}] as const) {
			const closed = typeof close === 'string' ? press(help.state, help.session, close) : press(help.state, help.session, '', close);
			expect(modeOf(closed.state, help.session)).toBe('browse');
		}

		// Keys of the tree do nothing under the help.
		expect(press(help.state, help.session, 'j').state).toBe(help.state);
		expect(press(help.state, help.session, 'w').effects).toEqual([]);
		// Over a result panel: closing the help shows the panel again.
		const session = readySessionState(undefined, {
			resultSeq: 1,
			lastAction: 'apply',
			lastResult: {status: 'nothing-to-apply', message: 'nothing'},
		});
		const overPanel = press(initialConfigUi(), session, '?').state;
		expect(modeOf(overPanel, session)).toBe('help');
		expect(modeOf(press(overPanel, session, '?').state, session)).toBe('panel');
	});

	test('a view opened after an apply does not show its result again', () => {
		const session = readySessionState(undefined, {
			resultSeq: 3,
			lastAction: 'apply',
			lastResult: {status: 'nothing-to-apply', message: 'nothing'},
		});
		expect(modeOf(initialConfigUi(), session)).toBe('panel');
		expect(modeOf(initialConfigUi(session.resultSeq), session)).toBe('browse');
	});

	test('a result panel shows until closed, then the tree has the keys again', () => {
		const session = readySessionState(undefined, {
			resultSeq: 1,
			lastAction: 'apply',
			lastResult: {status: 'nothing-to-apply', message: 'nothing'},
		});
		const state = initialConfigUi();
		expect(modeOf(state, session)).toBe('panel');
		expect(press(state, session, 'j').state).toBe(state);
		const closed = press(state, session, '', {escape: true, meta: true}).state;
		expect(modeOf(closed, session)).toBe('browse');
	});
});

describe('typed input', () => {
	test('a paste goes into the value being typed, whole, and is no command anywhere else', () => {
		const paste = (state: ConfigUiState, session: ConfigSessionState, text: string) =>
			configReducer(state, {type: 'paste', text}, {session, pageSize: 5, readOnly: false, helpMax: 0, tooSmall: false});
		const opened = run(['/', 'print-time', {return: true}, {return: true}]);
		const cleared = press(opened.state, opened.session, 'u', {ctrl: true}).state;
		expect(cleared.prompt).toMatchObject({kind: 'edit', text: '', caret: 0});
		// "q" and "w" in it are text here, and the line break a copied line ends with is dropped.
		const typed = paste(cleared, opened.session, '3qw\n').state;
		expect(typed.prompt).toMatchObject({kind: 'edit', text: '3qw', caret: 3, error: null});
		const twoLines = paste(typed, opened.session, '30\n40');
		expect(twoLines.state.prompt).toMatchObject({kind: 'edit', text: '3qw', error: expect.stringContaining('more than one line')});
		// Browsing, a paste of keys does nothing at all: no quit, no apply, no move.
		const browsing = run(['/', 'colors', {return: true}, ' ']);
		const dropped = paste(browsing.state, browsing.session, 'jjwyq');
		expect(dropped.state).toBe(browsing.state);
		expect(dropped.effects).toEqual([]);
		// The search prompt takes it too.
		const search = paste(run(['/']).state, readySessionState(), 'tls').state;
		expect(search.prompt).toMatchObject({kind: 'search', text: 'tls', caret: 3});
	});

	test('what a typed text means for a key', () => {
		expect(typedValue(['print-time'], '30', 60, false)).toEqual({kind: 'value', value: 30});
		expect(typedValue(['pools', 0, 'rig-id'], '123', null, false)).toEqual({kind: 'value', value: '123'});
		expect(typedValue(['pools', 0, 'url'], 'pool.example:3333', 'x:1', false)).toEqual({kind: 'value', value: 'pool.example:3333'});
		expect(typedValue(['log-file'], '', '/var/log/x', false)).toEqual({kind: 'value', value: ''});
		expect(typedValue(['log-file'], 'null', '/var/log/x', false)).toEqual({kind: 'value', value: null});
		expect(typedValue(['http', 'access-token'], '1234', 'old', true)).toEqual({kind: 'value', value: '1234'});
		expect(typedValue(['http', 'access-token'], '', 'old', true)).toEqual({kind: 'unchanged'});
	});
});

describe('config keymap', () => {
	test('keys and footer come from the one table', () => {
		const commandFor = (input: string, key: KeyLike, mode: ConfigMode) =>
			CONFIG_KEYMAP.commandFor(input, key, mode, CONFIG_KEYMAP.available(mode, new Set(['write'])));
		expect(commandFor(' ', {}, 'browse')).toBe('toggle');
		expect(commandFor('', {return: true}, 'browse')).toBe('activate');
		expect(commandFor('', {return: true}, 'prompt')).toBe('submit');
		expect(commandFor('n', {}, 'browse')).toBe('nextMatch');
		expect(commandFor('n', {}, 'confirm')).toBe('no');
		expect(commandFor('', {escape: true, meta: true}, 'confirm')).toBe('no');
		expect(commandFor('w', {ctrl: true}, 'browse')).toBeNull();
		expect(commandFor('q', {}, 'panel')).toBe('leave');
		expect(commandFor('', {return: true}, 'panel')).toBe('dismiss');
		expect(
			CONFIG_KEYMAP.footer('browse', CONFIG_KEYMAP.available('browse', new Set(['write']))).map((hint) => `${hint.keys} ${hint.label}`),
		).toEqual(['/ search', 'Space toggle', 'Enter edit', 'd diff', 'w apply', 'u undo', 'x discard', 'R reload', 'Esc back', '? help']);
	});
});
