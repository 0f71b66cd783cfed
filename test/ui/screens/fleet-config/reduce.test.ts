/**
 * The fleet config view's reducer and what it shows of the rigs (pure): the values each rig has for a key, the config
 * view's search, a value typed as the config view takes it, each rig's diff, the refusal of a lacking key unless `a`,
 * the second question for http.* / api.*, the batch's pane (Esc cancels), its undo (asked first) and closing it.
 */
import {describe, expect, it} from 'vitest';
import type {FleetConfigState} from '../../../../source/batch/fleet-config.js';
import type {BatchRig, BatchState, RigResult} from '../../../../source/batch/types.js';
import type {KeyLike} from '../../../../source/ui/keys/matcher.js';
import {availability, type FleetConfigEnv} from '../../../../source/ui/screens/fleet-config/availability.js';
import {
	initialFleetConfigUi,
	reduce,
	type FleetConfigEffect,
	type FleetConfigUiState,
} from '../../../../source/ui/screens/fleet-config/reduce.js';
import {diffPlan, keyRows, rigReads, valuesText} from '../../../../source/ui/screens/fleet-config/rigs.js';

const rig = (name: string): BatchRig => ({url: `http://127.0.0.1:1${name.length}0${name.charCodeAt(0)}`, token: 't', name});

function read(name: string, config: object | null, reason = 'config read'): RigResult {
	return {
		rig: rig(name),
		// As rig-action.ts says of a rig that does not answer.
		status: config === null ? 'unreachable' : 'already',
		reason: config === null ? reason : 'config read',
		lines: [],
		sent: false,
		answered: config !== null,
		snapshot: null,
		apply: null,
		...(config === null ? {} : {config: JSON.stringify(config, null, 4)}),
	};
}

const modern = (jit: boolean) => ({
	http: {enabled: true, port: 18088, 'access-token': 'secret-token-x', restricted: false},
	cpu: {'huge-pages': true, 'huge-pages-jit': jit, rx: [0, 1]},
});
const READS: readonly RigResult[] = [
	read('a', modern(false)),
	read('b', modern(false)),
	read('c', modern(true)),
	read('old', {http: {enabled: true, port: 18088, restricted: false}, cpu: {'huge-pages': true}}),
	read('gone', null, 'down: connection refused'),
];

function envOf(session: Partial<FleetConfigState> = {}, reads: readonly RigResult[] | null = READS): FleetConfigEnv {
	const parsed = reads ? rigReads(reads) : null;
	const state: FleetConfigState = {
		rigs: READS.map((item) => item.rig),
		reading: null,
		reads,
		run: null,
		undoable: 0,
		problem: null,
		...session,
	};
	return {
		session: state,
		reads: parsed,
		rows: parsed ? keyRows(parsed) : [],
		pageSize: 10,
		paneRows: 10,
		paneWidth: 80,
		addHint: 'a adds it',
		helpMax: 0,
	};
}

const KEYS: Record<string, KeyLike> = {Enter: {return: true}, Escape: {escape: true}, Down: {downArrow: true}, CtrlU: {ctrl: true}};

/** Types keys as a terminal sends them: each character a key, or a named key. */
function type(state: FleetConfigUiState, env: FleetConfigEnv, ...keys: string[]) {
	let now = state;
	const effects: FleetConfigEffect[] = [];
	for (const key of keys) {
		const named = KEYS[key];
		const presses: [string, KeyLike][] = named ? [[key === 'CtrlU' ? 'u' : '', named]] : [...key].map((char) => [char, {}]);
		for (const [input, like] of presses) {
			const step = reduce(now, {type: 'key', input, key: like}, env);
			now = step.state;
			effects.push(...step.effects);
		}
	}

	return {state: now, effects};
}

describe('what the fleet config view shows of the rigs', () => {
	it('lists each plain key with the values the rigs read have, most rigs first, and who lacks it', () => {
		const rows = keyRows(rigReads(READS));
		const jit = rows.find((row) => row.id === 'cpu.huge-pages-jit');
		expect(jit && valuesText(jit)).toBe('false on 2, true on 1, missing on 1');
		expect(jit?.common).toBe(false);
		// A list of values is set whole in the config view: not its items here; a secret's value is never shown.
		expect(rows.map((row) => row.id)).not.toContain('cpu.rx.0');
		const token = rows.find((row) => row.id === 'http.access-token');
		expect(token && valuesText(token)).not.toContain('secret-token-x');
	});

	it("gives each rig's diff as its apply would make it: change, already so, lacks the key (a adds it), down", () => {
		const plan = diffPlan(rigReads(READS), {path: 'cpu.huge-pages-jit', value: true, raw: 'true'}, false, 'a adds it');
		expect(plan.rigs.map((item) => [item.name, item.kind, item.text])).toEqual([
			['a', 'change', 'cpu.huge-pages-jit: false → true'],
			['b', 'change', 'cpu.huge-pages-jit: false → true'],
			['c', 'already', 'already so'],
			['old', 'lacks', 'lacks cpu.huge-pages-jit (a adds it)'],
			['gone', 'unreachable', 'unreachable: down: connection refused'],
		]);
		// Counted in the batch's recap words: a down rig is unreachable there too (review, finding 7).
		expect(plan.counts).toMatchObject({change: 2, already: 1, lacks: 1, skipped: 0, unreachable: 1});
		const added = diffPlan(rigReads(READS), {path: 'cpu.huge-pages-jit', value: true, raw: 'true'}, true, 'a adds it');
		expect(added.rigs[3]).toEqual({name: 'old', kind: 'change', text: 'cpu.huge-pages-jit: (absent) → true'});
		expect(added.counts.change).toBe(3);
	});
});

describe('a rig the key is not for', () => {
	it('is skipped, even a restricted proxy whose config could not be read (review, finding 3)', () => {
		const lockedProxy: RigResult = {
			...read('proxy', null),
			rig: {...rig('proxy'), kind: 'proxy'},
			status: 'failed',
			reason: "read-only: the proxy's API is restricted",
			answered: true,
		};
		const plan = diffPlan(
			rigReads([read('a', modern(false)), lockedProxy]),
			{path: 'cpu.huge-pages-jit', value: true, raw: 'true'},
			false,
			'a',
		);
		expect(plan.rigs[1]).toEqual({name: 'proxy', kind: 'skipped', text: "not for this rig: only XMRig's config has cpu.huge-pages-jit"});
		expect(plan.counts).toMatchObject({change: 1, skipped: 1, failed: 0});
		// A key a proxy has: the restricted proxy failed.
		const own = diffPlan(rigReads([lockedProxy]), {path: 'donate-level', value: 1, raw: '1'}, false, 'a');
		expect(own.rigs[0]?.kind).toBe('failed');
	});
});

describe('the fleet config view’s keys', () => {
	it('searches as the config view does, types a value, shows the diff, and applies to the rigs that change', () => {
		const env = envOf();
		const found = type(initialFleetConfigUi(), env, '/jit', 'Enter');
		expect(found.state.cursor).toBe('cpu.huge-pages-jit');
		expect(found.state.notice?.text).toBe('cpu.huge-pages-jit — match 1 of 1');

		const editing = type(found.state, env, 'Enter');
		expect(editing.state.prompt).toMatchObject({kind: 'value', id: 'cpu.huge-pages-jit', text: 'false'});
		const diffed = type(editing.state, env, 'CtrlU', 'true', 'Enter');
		expect(diffed.state.prompt).toBeNull();
		expect(diffed.state.diff).toMatchObject({assignment: {path: 'cpu.huge-pages-jit', value: true}, shown: 'true', add: false});
		expect(availability(diffed.state, env).context).toBe('fleetConfigDiff');

		// a adds the key where it lacks (and again takes that back); y applies.
		const adding = type(diffed.state, env, 'a');
		expect(adding.state.diff?.add).toBe(true);
		const applied = type(adding.state, env, 'y');
		expect(applied.effects).toEqual([
			{type: 'apply', assignment: {path: 'cpu.huge-pages-jit', value: true, raw: 'true'}, addKeys: true, confirmApiChanges: false},
		]);
		expect(applied.state.results).toEqual({offset: 0});
	});

	it('keeps the editor open with the reason for a value the schema refuses', () => {
		const env = envOf();
		const open = type(initialFleetConfigUi(), env, '/huge-pages-jit', 'Enter', 'Enter', 'CtrlU', 'maybe', 'Enter');
		expect(open.state.prompt).toMatchObject({kind: 'value'});
		expect(open.state.prompt?.kind === 'value' ? open.state.prompt.error : null).toMatch(/true or false/);
		expect(open.state.diff).toBeNull();
	});

	it('asks twice for http.* (it can cut rigtop off), and a no goes back to the diff', () => {
		const env = envOf();
		const diffed = type(initialFleetConfigUi(), env, '/http.port', 'Enter', 'Enter', 'CtrlU', '18099', 'Enter');
		expect(diffed.state.diff?.assignment.path).toBe('http.port');
		// Every rig read has http.port: a (add it where it lacks) is not offered.
		expect(type(diffed.state, env, 'a').state.diff?.add).toBe(false);
		const asked = type(diffed.state, env, 'y');
		expect(asked.effects).toEqual([]);
		expect(asked.state.asking).toBe('guarded');
		expect(availability(asked.state, env).context).toBe('question');
		expect(type(asked.state, env, 'n').state).toMatchObject({asking: null, results: null});
		const yes = type(asked.state, env, 'y');
		expect(yes.effects).toEqual([
			{type: 'apply', assignment: expect.objectContaining({path: 'http.port', value: 18099}), addKeys: false, confirmApiChanges: true},
		]);
	});

	it('says so when no rig would change, and sends nothing', () => {
		const env = envOf();
		const diffed = type(initialFleetConfigUi(), env, '/huge-pages', 'Enter', 'Enter', 'CtrlU', 'true', 'Enter');
		expect(diffed.state.diff?.assignment.path).toBe('cpu.huge-pages');
		const pressed = type(diffed.state, env, 'y');
		expect(pressed.effects).toEqual([]);
		expect(pressed.state.notice?.text).toBe('nothing to apply: no rig would change');
	});

	it("scrolls each rig's diff as far as the last rig shows whole, a reason wrapped over more than a line", () => {
		// 6 rigs in a pane of 6 lines, 40 wide: the two down rigs' reasons take two lines each (a third of the pane at most).
		const why = 'down: connection refused (is the miner running and its HTTP API on?)';
		const reads = [...READS.slice(0, 4), read('gone', null, why), read('far', null, why)];
		const env = {...envOf({}, reads), paneRows: 6, paneWidth: 40};
		const diffed = type(initialFleetConfigUi(), env, '/huge-pages-jit', 'Enter', 'Enter', 'CtrlU', 'true', 'Enter');
		expect(diffed.state.diff?.offset).toBe(0);
		expect(availability(diffed.state, env).works.has('batchDown')).toBe(true);
		// From the third rig on, the 1 + 1 + 2 + 2 lines of the rest fit: j goes no further.
		expect(type(diffed.state, env, 'j').state.diff?.offset).toBe(1);
		expect(type(diffed.state, env, 'jjjj').state.diff?.offset).toBe(2);
		expect(type(diffed.state, env, 'jjjjkk').state.diff?.offset).toBe(0);
		// With room for every rig, nothing scrolls.
		const roomy = {...env, paneRows: 12};
		expect(availability(diffed.state, roomy).works.has('batchDown')).toBe(false);
		expect(type(diffed.state, roomy, 'j').state.diff?.offset).toBe(0);
	});

	it('Esc cancels the batch as it runs; once done, u asks and undoes, Esc closes the results and reads again', () => {
		const running: BatchState = {
			rigs: READS.map((item) => ({rig: item.rig, state: 'running'})),
			done: 0,
			cancelled: false,
			finished: false,
		};
		const open: FleetConfigUiState = {...initialFleetConfigUi(), results: {offset: 0}};
		const whileRunning = envOf({run: {kind: 'set', what: 'config set cpu.huge-pages-jit', batch: running, done: false}});
		expect(availability(open, whileRunning).context).toBe('fleetBatch');
		expect(type(open, whileRunning, 'Escape').effects).toEqual([{type: 'cancel'}]);
		expect(type(open, whileRunning, 'u').state.asking).toBeNull();

		const finished = envOf({
			run: {kind: 'set', what: 'config set cpu.huge-pages-jit', batch: {...running, finished: true}, done: true},
			undoable: 2,
		});
		expect(availability(open, finished).context).toBe('fleetResults');
		const asked = type(open, finished, 'u');
		expect(asked.state.asking).toBe('undo');
		const undone = type(asked.state, finished, 'y');
		expect(undone.effects).toEqual([{type: 'undo'}]);
		expect(type(open, finished, 'Escape')).toMatchObject({state: {results: null}, effects: [{type: 'reread'}]});
		// Nothing to undo (no rig applied): u is not offered.
		expect(
			type(open, envOf({run: {kind: 'set', what: 'x', batch: {...running, finished: true}, done: true}}), 'u').state.asking,
		).toBeNull();
	});

	it('? shows the help over the keys, Esc closes it', () => {
		const env = envOf();
		const helping = type(initialFleetConfigUi(), env, '?');
		expect(availability(helping.state, env).context).toBe('fleetConfigHelp');
		expect(type(helping.state, env, 'Escape').state.help).toBe(false);
		expect(type(helping.state, env, 'Escape').effects).toEqual([]);
	});

	it('q goes back to the fleet as in the config view (F10 quits); with a diff not applied, q and F10 ask first', () => {
		const env = envOf();
		expect(type(initialFleetConfigUi(), env, 'q').effects).toEqual([{type: 'back'}]);
		const f10 = reduce(initialFleetConfigUi(), {type: 'key', input: '', key: {fn: 10}}, env);
		expect(f10.effects).toEqual([{type: 'quit'}]);
		// A value typed and its diff shown: not applied yet.
		const diffed = type(initialFleetConfigUi(), env, '/jit', 'Enter', 'Enter', 'CtrlU', 'true', 'Enter');
		expect(diffed.state.diff).not.toBeNull();
		const asked = type(diffed.state, env, 'q');
		expect(asked.effects).toEqual([]);
		expect(asked.state.asking).toBe('back');
		expect(availability(asked.state, env).context).toBe('question');
		// Any key but y stays, the diff kept; y goes back, the diff dropped.
		const stayed = type(asked.state, env, 'n');
		expect(stayed.effects).toEqual([]);
		expect(stayed.state.diff).not.toBeNull();
		expect(stayed.state.asking).toBeNull();
		expect(type(asked.state, env, 'y').effects).toEqual([{type: 'back'}]);
		const quitting = reduce(diffed.state, {type: 'key', input: '', key: {fn: 10}}, env);
		expect(quitting.effects).toEqual([]);
		expect(quitting.state.asking).toBe('quit');
		expect(type(quitting.state, env, 'y').effects).toEqual([{type: 'quit'}]);
		// Its help (?) too, as the config view's: q back to the fleet, F10 quits.
		const helping = type(initialFleetConfigUi(), env, '?');
		expect(type(helping.state, env, 'q').effects).toEqual([{type: 'back'}]);
		expect(reduce(helping.state, {type: 'key', input: '', key: {fn: 10}}, env).effects).toEqual([{type: 'quit'}]);
		// Typing a value or a search, q is a character.
		const typing = type(initialFleetConfigUi(), env, '/q');
		expect(typing.effects).toEqual([]);
		expect(typing.state.prompt).toMatchObject({kind: 'search', text: 'q'});
	});

	it('refuses to set a value while the rigs are read, and Esc goes back to the fleet', () => {
		const reading = envOf({}, null);
		expect(type(initialFleetConfigUi(), reading, 'Enter').state.notice?.text).toBe("wait: the rigs' configs are being read");
		expect(type(initialFleetConfigUi(), reading, 'Escape').effects).toEqual([{type: 'back'}]);
	});
});
