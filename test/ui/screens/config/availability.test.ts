/**
 * The config view's availability over the recorded 6.26 config: the one source of its footer, help and keys. A key
 * the footer shows works; a key that does not work says why, through the reducer, with no effect.
 */
import {describe, expect, test} from 'vitest';
import {ConfigDocument} from '../../../../source/config/document.js';
import {PendingEdits} from '../../../../source/config/edits.js';
import {BUSY_MESSAGE, READ_ONLY_MESSAGE, type ConfigSessionState} from '../../../../source/config/session.js';
import {CONFIG_KEYMAP, type ConfigCommandName} from '../../../../source/ui/keys/bindings.js';
import type {KeyLike, KeySpec} from '../../../../source/ui/keys/matcher.js';
import {commandOf, footerOf} from '../../../../source/ui/screens/contract.js';
import {availability, configHelp, NO_UNDO_MESSAGE, shownNotice, type ConfigEnv} from '../../../../source/ui/screens/config/availability.js';
import {configReducer, initialConfigUi} from '../../../../source/ui/screens/config/reduce.js';
import type {ConfigUiState} from '../../../../source/ui/screens/config/state.js';
import {v6Config} from '../../../config/helpers/fixtures.js';
import {readySessionState} from '../../../config/helpers/session-state.js';

const document = new ConfigDocument(v6Config());
const toggled = (() => {
	const outcome = new PendingEdits(document).toggle(['colors']);
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.edits;
})();

function session(patch: Partial<ConfigSessionState> = {}): ConfigSessionState {
	return readySessionState(new PendingEdits(document), patch);
}

const applied = {backupPath: '/tmp/b', at: 1, keys: ['colors'], wasUndo: false};
const envOf = (state: ConfigSessionState, readOnly = false): ConfigEnv => ({
	session: state,
	readOnly,
	pageSize: 5,
	helpMax: 0,
	tooSmall: false,
});
// The footer is the contract's footerOf of the availability alone: what it leaves to the help is in its data.
const footer = (ui: ConfigUiState, env: ConfigEnv) =>
	footerOf(CONFIG_KEYMAP, availability(ui, env))
		.map((hint) => `${hint.keys} ${hint.label}`)
		.join('  ');

/** A keypress of a key spec, as the reducer gets it. */
function keypress(spec: KeySpec): {input: string; key: KeyLike} {
	if ('special' in spec) return {input: '', key: {[spec.special]: true}};
	if ('fn' in spec) return {input: '', key: {fn: spec.fn}};
	return {input: spec.input, key: spec.ctrl === true ? {ctrl: true} : {}};
}

const onValue: ConfigUiState = {...initialConfigUi(), cursor: 'colors'};

const states: ReadonlyArray<readonly [string, ConfigUiState, ConfigEnv]> = [
	['fresh', initialConfigUi(), envOf(session())],
	['on a value', onValue, envOf(session())],
	['pending', onValue, envOf(session({edits: toggled}))],
	['read-only', onValue, envOf(session({readOnly: true}))],
	['read-only (the prop)', initialConfigUi(), envOf(session(), true)],
	['applying', onValue, envOf(session({busy: 'apply', edits: toggled}))],
	['applied', initialConfigUi(1), envOf(session({lastApplied: applied, resultSeq: 1}))],
	['restricted on', onValue, envOf(session({undoBlocked: true}))],
	['not read', initialConfigUi(), envOf(session({document: null, edits: null, phase: 'error'}))],
	['help', {...initialConfigUi(), help: true}, envOf(session())],
	['question', {...onValue, dialog: {kind: 'confirm', step: 1}}, envOf(session({edits: toggled}))],
	['diff', {...onValue, dialog: {kind: 'diff'}}, envOf(session({edits: toggled}))],
];

describe('config availability', () => {
	test('the footer of each state, as the view has always shown it', () => {
		expect(footer(initialConfigUi(), envOf(session()))).toBe('/ search  Space toggle  Enter edit  w apply  Esc back  ? help');
		expect(footer(onValue, envOf(session({edits: toggled})))).toBe(
			'/ search  Space toggle  Enter edit  d diff  w apply  x discard  Esc back  ? help',
		);
		expect(footer(initialConfigUi(), envOf(session(), true))).toBe('/ search  Esc back  ? help');
		expect(footer(initialConfigUi(1), envOf(session({lastApplied: applied, resultSeq: 1})))).toBe(
			'/ search  Space toggle  Enter edit  w apply  u undo  Esc back  ? help',
		);
		// Not read: nothing to toggle, edit or apply; R is the way on.
		expect(footer(initialConfigUi(), envOf(session({document: null, edits: null})))).toBe('R reload  Esc back  ? help');
		const result = session({lastResult: {status: 'nothing-to-apply', message: ''}, lastAction: 'apply', resultSeq: 1});
		expect(footer(initialConfigUi(), envOf(result))).toBe('Esc close');
		expect(footer({...initialConfigUi(), help: true}, envOf(session()))).toBe('? help  Esc close');
	});

	test('the diff panel (d) offers w, and w there asks to apply what it shows; a result panel does not offer it', () => {
		const env = envOf(session({edits: toggled}));
		const diff: ConfigUiState = {...onValue, dialog: {kind: 'diff'}};
		expect(footer(diff, env)).toBe('w apply  Esc close');
		const step = configReducer(diff, {type: 'key', input: 'w', key: {}}, env);
		expect(step.state.dialog).toEqual({kind: 'confirm', step: 1});
		const result = session({edits: toggled, lastResult: {status: 'nothing-to-apply', message: ''}, lastAction: 'apply', resultSeq: 1});
		expect(availability(initialConfigUi(), envOf(result)).works.has('apply')).toBe(false);
	});

	test('what works but the footer leaves to the help is unlisted in the availability, and still works', () => {
		const pending = availability(onValue, envOf(session({edits: toggled, lastApplied: applied})));
		for (const command of ['reload', 'undo'] as const) {
			expect(pending.works.has(command)).toBe(true);
			expect(pending.unlisted?.has(command)).toBe(true);
		}

		const readOnly = availability(onValue, envOf(session(), true));
		expect(readOnly.unlisted?.has('toggle')).toBe(true);
		// Not read yet: R is what matters, so the footer lists it.
		expect(availability(initialConfigUi(), envOf(session({document: null, edits: null}))).unlisted?.has('reload')).toBe(false);
	});

	test('not read: the keys that edit or apply are refused, saying R tries again', () => {
		const notRead = availability(initialConfigUi(), envOf(session({document: null, edits: null, phase: 'error'})));
		for (const command of ['toggle', 'activate', 'increment', 'decrement', 'apply', 'nextMatch'] as const)
			expect(notRead.refused.get(command)).toBe('nothing to edit: the config has not been read (R tries again)');
	});

	test('write keys are refused by availability with their one-line reasons', () => {
		const readOnly = availability(onValue, envOf(session({readOnly: true})));
		for (const command of ['toggle', 'activate', 'increment', 'apply', 'undo'] as const)
			expect(readOnly.refused.get(command)).toBe(READ_ONLY_MESSAGE);
		const busy = availability(onValue, envOf(session({busy: 'undo', edits: toggled})));
		for (const command of ['toggle', 'activate', 'apply', 'undo', 'discard', 'back', 'leave', 'quit'] as const)
			expect(busy.refused.get(command)).toBe(BUSY_MESSAGE);
		expect(availability(onValue, envOf(session({undoBlocked: true}))).refused.get('undo')).toBe(NO_UNDO_MESSAGE);
		// On a section, Enter and Space open it whatever writes allow.
		const section = availability(initialConfigUi(), envOf(session(), true));
		expect(section.works.has('activate')).toBe(true);
		expect(section.works.has('toggle')).toBe(true);
	});

	test.each(states)('%s: a key the footer shows works; a refused key says why and does nothing', (_name, ui, env) => {
		const now = availability(ui, env);
		const shown = new Set(footerOf(CONFIG_KEYMAP, now).map((hint) => hint.label));
		for (const binding of CONFIG_KEYMAP.bindings) {
			if (!binding.contexts.includes(now.context) || binding.keys[0] === undefined) continue;
			const {input, key} = keypress(binding.keys[0]);
			const outcome = commandOf(CONFIG_KEYMAP, now, input, key);
			const step = configReducer(ui, {type: 'key', input, key}, env);
			if (binding.footer !== undefined && shown.has(binding.footer)) expect(outcome).toEqual({command: binding.command});
			const why = now.refused.get(binding.command);
			if (why === undefined) continue;
			expect(outcome).toEqual({refused: why});
			expect(step.effects).toEqual([]);
			expect(step.state.notice?.text).toBe(why);
		}
	});

	test('the help lists the tree keys the session has: without writes, no toggling, stepping or applying', () => {
		const descriptions = (entries: ReturnType<typeof configHelp>) => entries.map((entry) => entry.description);
		const all = descriptions(configHelp(false));
		expect(all).toEqual(expect.arrayContaining(['show every pending change (before → after)', 'undo the last apply (asks first)']));
		const readOnly = descriptions(configHelp(true));
		expect(readOnly).toContain('edit a value (or open a section)');
		expect(readOnly.some((text) => text.startsWith('toggle a boolean') || text.startsWith('apply the changes'))).toBe(false);
		const unused: ConfigCommandName[] = ['toggle', 'apply', 'undo', 'increment'];
		expect(CONFIG_KEYMAP.bindings.filter((binding) => unused.includes(binding.command)).every((binding) => binding.needs === 'write')).toBe(
			true,
		);
	});
});

describe("the last key's notice", () => {
	test('"wait: a change is being applied" shows while one is, and goes when it is done; other notices stay', () => {
		const ui = {...initialConfigUi(0), notice: {text: BUSY_MESSAGE, tone: 'warn' as const}};
		const busy = session({busy: 'apply'});
		expect(shownNotice(ui, busy)).toEqual({text: BUSY_MESSAGE, tone: 'warn'});
		expect(shownNotice(ui, {...busy, busy: null})).toBeNull();
		const other = {...ui, notice: {text: 'no pending changes', tone: 'info' as const}};
		expect(shownNotice(other, {...busy, busy: null})).toEqual({text: 'no pending changes', tone: 'info'});
	});
});
