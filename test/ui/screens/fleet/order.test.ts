import {describe, expect, test} from 'vitest';
import type {Alert} from '../../../../source/alerts/types.js';
import {
	describeSort,
	fleetOrder,
	LISTED,
	nextSort,
	sortArrow,
	SORT_CYCLE,
	type FleetSort,
} from '../../../../source/ui/screens/fleet/order.js';
import {
	activeFilter,
	fleetView,
	initialFleetUiState,
	reduce,
	selectedRig,
	type FleetCommand,
	type FleetEnv,
	type FleetUiAction,
	type FleetUiState,
} from '../../../../source/ui/screens/fleet/reduce.js';
import type {FleetGiven} from '../../../../source/ui/screens/fleet/availability.js';
import {fleetWants} from '../../../../source/ui/screens/fleet/columns.js';
import {fleetRows, fleetTotals, type FleetRow} from '../../../../source/ui/screens/fleet/rows.js';
import type {KeyLike} from '../../../../source/ui/keys/matcher.js';
import type {MonitorState} from '../../../../source/monitor/types.js';
import {makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';

type Rig = {
	readonly name: string;
	readonly port?: number;
	readonly rate?: number | null;
	readonly rate15?: number | null;
	readonly status?: MonitorState['status'];
	readonly paused?: boolean;
	readonly pool?: string;
	readonly connected?: boolean;
	readonly rejected?: number;
	readonly uptime?: number;
};

function state(rig: Rig, index: number): MonitorState {
	const status = rig.status ?? 'live';
	return makeState({
		name: rig.name,
		url: `http://127.0.0.1:${rig.port ?? 18_080 + index}`,
		status,
		failingSince: status === 'down' ? NOW - 60_000 : null,
		error: status === 'down' ? refused() : null,
		snapshot: makeSnapshot({
			workerId: rig.name,
			paused: rig.paused ?? false,
			uptime: rig.uptime ?? 3600,
			hashrate: {total: [rig.rate === undefined ? 1000 : rig.rate, 1000, rig.rate15 === undefined ? 1000 : rig.rate15]},
			results: {good: 1000 - (rig.rejected ?? 0), total: 1000, rejected: rig.rejected ?? 0},
			connection: {pool: rig.pool ?? 'pool.example.org:443', connected: rig.connected ?? true},
		}),
	});
}

const rowsOf = (rigs: readonly Rig[], alerts?: Parameters<typeof fleetRows>[2]) => fleetRows(rigs.map(state), NOW, alerts);
const namesIn = (rows: readonly FleetRow[], order: readonly number[]) => order.map((index) => rows[index]?.name);
const sorted = (rigs: readonly Rig[], sort: FleetSort, filter = '') => {
	const rows = rowsOf(rigs);
	return namesIn(rows, fleetOrder(rows, sort, filter));
};

describe('fleet sort: the rigs in trouble first', () => {
	const fleet: Rig[] = [
		{name: 'alpha', rate: 5000},
		{name: 'bravo', status: 'down'},
		{name: 'charlie', rate: 4000, connected: false},
		{name: 'delta', rate: 6000, paused: true},
		{name: 'echo', status: 'stale', rate: 3000},
		{name: 'foxtrot', rate: 4500},
	];

	test('listed keeps the session order; state puts down, stale, no pool and paused rigs above the live ones', () => {
		expect(sorted(fleet, LISTED)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']);
		expect(sorted(fleet, {key: 'state', reversed: false})).toEqual(['bravo', 'echo', 'charlie', 'delta', 'alpha', 'foxtrot']);
		// Reversed: the quiet rigs first; rigs in the same state keep the session order either way.
		expect(sorted(fleet, {key: 'state', reversed: true})).toEqual(['alpha', 'foxtrot', 'delta', 'charlie', 'echo', 'bravo']);
	});

	test('a live rig with an open warning sorts above the quiet live ones', () => {
		const alert: Alert = {seq: 1, at: NOW, kind: 'hashrate-drop', severity: 'warn', minerIndex: 2, rig: 'c', url: 'u', message: 'drop'};
		const rows = rowsOf([{name: 'a'}, {name: 'b'}, {name: 'c'}], [undefined, undefined, {open: alert, last: alert}]);
		expect(namesIn(rows, fleetOrder(rows, {key: 'state', reversed: false}, ''))).toEqual(['c', 'a', 'b']);
	});

	test('hashrate: lowest first, reversed highest first; a rig with no rate ("—", down) last either way, as in htop', () => {
		expect(sorted(fleet, {key: 'r10', reversed: false})).toEqual(['echo', 'charlie', 'foxtrot', 'alpha', 'delta', 'bravo']);
		expect(sorted(fleet, {key: 'r10', reversed: true})).toEqual(['delta', 'alpha', 'foxtrot', 'charlie', 'echo', 'bravo']);
		// The 15 m window sorts on its own values; one not filled yet (null, "—") is last either way.
		const windows: Rig[] = [
			{name: 'a', rate15: 900},
			{name: 'b', rate15: null},
			{name: 'c', rate15: 100},
		];
		expect(sorted(windows, {key: 'r15', reversed: false})).toEqual(['c', 'a', 'b']);
		expect(sorted(windows, {key: 'r15', reversed: true})).toEqual(['a', 'c', 'b']);
	});

	test('every sort key, both directions: the rigs without its value ("—") last', () => {
		const rigs: Rig[] = [
			{name: 'gone', status: 'down'},
			{name: 'low', rate: 100, rate15: 100, rejected: 1, uptime: 60},
			{name: 'high', rate: 900, rate15: 900, rejected: 9, uptime: 9000},
		];
		for (const key of ['r10', 'r15', 'rej', 'up'] as const)
			for (const reversed of [false, true]) expect(sorted(rigs, {key, reversed}).at(-1), `${key} ${String(reversed)}`).toBe('gone');
	});

	test('rejects most first, uptime shortest first, names in natural order', () => {
		const rigs: Rig[] = [
			{name: 'rig-10', rejected: 5, uptime: 60},
			{name: 'rig-2', rejected: 50, uptime: 86_400},
			{name: 'rig-1', rejected: 0, uptime: 3600},
		];
		expect(sorted(rigs, {key: 'rej', reversed: false})).toEqual(['rig-2', 'rig-10', 'rig-1']);
		expect(sorted(rigs, {key: 'up', reversed: false})).toEqual(['rig-10', 'rig-1', 'rig-2']);
		expect(sorted(rigs, {key: 'rig', reversed: false})).toEqual(['rig-1', 'rig-2', 'rig-10']);
	});

	test('s cycles through every sort and back to the session order; each says what it does', () => {
		let sort: FleetSort = LISTED;
		const seen: string[] = [];
		for (let i = 0; i < SORT_CYCLE.length; i++) {
			sort = nextSort(sort);
			seen.push(sort.key);
		}

		expect(seen).toEqual([...SORT_CYCLE.slice(1), 'listed']);
		expect(describeSort(LISTED)).toBeNull();
		expect(describeSort({key: 'state', reversed: false})).toBe('by state, worst first');
		expect(describeSort({key: 'r10', reversed: true})).toBe('by 10s, highest first');
		// The arrow on the sorted column's heading: ▲ when the values grow down the list.
		// The session's order is said on the rig column, which always shows: "rig listed▲".
		expect(sortArrow(LISTED)).toEqual({column: 'rig', arrow: '▲', word: 'listed'});
		expect(sortArrow({key: 'listed', reversed: true})).toEqual({column: 'rig', arrow: '▼', word: 'listed'});
		expect(sortArrow({key: 'r10', reversed: false})).toEqual({column: 'r10', arrow: '▲'});
		expect(sortArrow({key: 'r10', reversed: true})).toEqual({column: 'r10', arrow: '▼'});
		expect(sortArrow({key: 'rej', reversed: false})).toEqual({column: 'rej', arrow: '▼'});
		expect(sortArrow({key: 'state', reversed: true})).toEqual({column: 'state', arrow: '▲'});
	});
});

describe('fleet filter', () => {
	test('matches the name, the URL or the pool, in any case; a down rig by the pool it last had', () => {
		const rigs: Rig[] = [
			{name: 'garage-ryzen', pool: 'gulf.moneroocean.stream:10128'},
			{name: 'attic', port: 18_555, pool: 'pool.supportxmr.com:443'},
			{name: 'shed', status: 'down', pool: 'gulf.moneroocean.stream:10128'},
		];
		expect(sorted(rigs, LISTED, 'GARAGE')).toEqual(['garage-ryzen']);
		expect(sorted(rigs, LISTED, ':18555')).toEqual(['attic']);
		expect(sorted(rigs, LISTED, 'moneroocean')).toEqual(['garage-ryzen', 'shed']);
		expect(sorted(rigs, LISTED, '  ')).toEqual(['garage-ryzen', 'attic', 'shed']);
		expect(sorted(rigs, LISTED, 'nothing')).toEqual([]);
	});
});

const press = (input: string, key: KeyLike = {}) => ({input, key});

const NOTHING_GIVEN: FleetGiven = {refreshAll: false, chart: false, events: false};

/** The fleet's env for these rigs: their rows and states, in a 100×16 terminal (10 rig rows). */
function envOf(rigs: readonly Rig[], given: FleetGiven = NOTHING_GIVEN): FleetEnv {
	const states = rigs.map(state);
	const rows = fleetRows(states, NOW);
	const totals = fleetTotals(states, NOW);
	return {rows, states, now: NOW, totals, wants: fleetWants(rows, totals), hours: false, size: {columns: 100, rows: 16}, given};
}

/** What the keys asked of the app (what the app is told to keep, the selection and the sort, aside). */
const asked = (effect: FleetCommand) => effect.command !== 'select' && effect.command !== 'save';

function run(start: FleetUiState, env: FleetEnv, keys: readonly {input: string; key: KeyLike}[]) {
	let current = start;
	const effects: unknown[] = [];
	for (const {input, key} of keys) {
		const step = reduce(current, {type: 'key', input, key} satisfies FleetUiAction, env);
		current = step.state;
		effects.push(...step.effects.filter(asked));
	}

	return {state: current, effects};
}

describe('fleet keys: the selection is a rig, not a line', () => {
	const initial = initialFleetUiState();

	test('sorted by hashrate, a rig whose rate changes moves, and the selection moves with it', () => {
		const before = envOf([
			{name: 'a', rate: 1000},
			{name: 'b', rate: 2000},
			{name: 'c', rate: 3000},
		]);
		// Sort by 10 s (listed → state → 10s), then select b, the second line.
		let {state} = run(initial, before, [press('s'), press('s'), press('j')]);
		expect(state.sort.key).toBe('r10');
		expect(selectedRig(state, before)).toBe(1);
		expect(fleetView(state, before).position).toBe(1);

		// b's rate climbs above c's: b is now the last line, still selected.
		const after = envOf([
			{name: 'a', rate: 1000},
			{name: 'b', rate: 4000},
			{name: 'c', rate: 3000},
		]);
		expect(fleetView(state, after)).toMatchObject({order: [0, 2, 1], position: 2});
		expect(selectedRig(state, after)).toBe(1);
		// Enter opens b, the rig the cursor is on, not the line b was on; ↑ goes to the line above b in the new order.
		expect(run(state, after, [press('', {return: true})]).effects).toEqual([{command: 'open', index: 1}]);
		({state} = run(state, after, [press('k')]));
		expect(selectedRig(state, after)).toBe(2);
	});

	test('changing the sort keeps the same rig selected', () => {
		const rows = envOf([
			{name: 'a', rate: 3000},
			{name: 'b', status: 'down'},
			{name: 'c', rate: 1000},
		]);
		let {state} = run(initial, rows, [press('G')]);
		expect(selectedRig(state, rows)).toBe(2);
		({state} = run(state, rows, [press('s')]));
		expect(fleetView(state, rows)).toMatchObject({order: [1, 0, 2], position: 2});
		({state} = run(state, rows, [press('s')]));
		// By 10s: the down rig (no rate) last.
		expect(fleetView(state, rows)).toMatchObject({order: [2, 0, 1], position: 0});
		({state} = run(state, rows, [press('I')]));
		expect(fleetView(state, rows)).toMatchObject({order: [0, 2, 1], position: 1});
		expect(selectedRig(state, rows)).toBe(2);
	});

	test('/ filters as it is typed; Enter keeps it, Esc then clears it; Esc while typing clears it too', () => {
		const rows = envOf([{name: 'garage-1'}, {name: 'attic'}, {name: 'garage-2'}]);
		let {state} = run(initial, rows, [press('j'), press('/'), press('g'), press('a'), press('r')]);
		expect(state.prompt?.text).toBe('gar');
		expect(activeFilter(state)).toBe('gar');
		// attic was selected; the filter hides it: the first rig shown is selected.
		expect(fleetView(state, rows).order).toEqual([0, 2]);
		expect(selectedRig(state, rows)).toBe(0);
		// Keys that mean something on the fleet are text while typing: q, s, j.
		({state} = run(state, rows, [press('q'), press('', {backspace: true}), press('', {return: true})]));
		expect(state).toMatchObject({prompt: null, filter: 'gar'});
		({state} = run(state, rows, [press('j')]));
		expect(selectedRig(state, rows)).toBe(2);
		({state} = run(state, rows, [press('', {escape: true})]));
		expect(state.filter).toBe('');
		expect(fleetView(state, rows).order).toEqual([0, 1, 2]);
		expect(selectedRig(state, rows)).toBe(2);

		({state} = run(state, rows, [press('/'), press('attic'), press('', {escape: true})]));
		expect(state).toMatchObject({prompt: null, filter: ''});
		// A filter that matches nothing: no selection, Enter opens nothing.
		const none = run(state, rows, [press('/'), press('zzz'), press('', {return: true}), press('', {return: true})]);
		expect(fleetView(none.state, rows)).toMatchObject({order: [], position: -1});
		expect(none.effects).toEqual([]);
	});

	test('a paste goes into the filter being typed, whole; elsewhere it is no command', () => {
		const rows = envOf([{name: 'garage'}, {name: 'attic'}, {name: 'shed'}]);
		const paste = (state: FleetUiState, text: string) => reduce(state, {type: 'paste', text}, rows);
		const browsing = paste(initial, 'jjq');
		expect(browsing.state).toBe(initial);
		expect(browsing.effects).toEqual([]);
		const typing = run(initial, rows, [press('/')]).state;
		// The line break a copied line ends with is dropped; q in it is text.
		expect(paste(typing, 'attiq\n').state.prompt).toEqual({text: 'attiq', caret: 5});
		expect(fleetView(paste(typing, 'attic').state, rows).order).toEqual([1]);
		expect(paste(typing, 'a\nb').state).toBe(typing);
	});

	test('R polls every rig, where the session can', () => {
		const rigs = [{name: 'a'}, {name: 'b'}];
		expect(run(initial, envOf(rigs), [press('R')]).effects).toEqual([]);
		const offered = envOf(rigs, {...NOTHING_GIVEN, refreshAll: true});
		expect(run(initial, offered, [press('R')]).effects).toEqual([{command: 'refreshAll'}]);
	});
});
