/**
 * The App's navigation as a reducer (source/ui/nav/reduce.ts): each action gives the next screen and what must happen
 * (the open rig told, prefs saved, quit), with nothing rendered.
 */
import {describe, expect, test} from 'vitest';
import type {Prefs} from '../../../source/prefs/prefs.js';
import {CHART_SPANS, DEFAULT_SPAN} from '../../../source/ui/screens/chart/reduce.js';
import {initialNav, reduce, type NavAction, type NavState, type NavStep} from '../../../source/ui/nav/reduce.js';

const fleetStart = (prefs?: Prefs) => initialNav({fleetMode: true, prefs: prefs ? {initial: prefs, current: prefs} : undefined}).nav;

/** Each action in turn from `nav`, every effect they asked for in order, and the state at the end. */
function run(nav: NavState, ...actions: NavAction[]): NavStep {
	const effects: NavStep['effects'][number][] = [];
	let state = nav;
	for (const action of actions) {
		const step = reduce(state, action);
		effects.push(...step.effects);
		state = step.nav;
	}
	return {nav: state, effects};
}

describe('where the App starts', () => {
	test('several rigs: the fleet, and the session is told no rig is open', () => {
		const start = initialNav({fleetMode: true});
		expect(start.nav.screen).toEqual({name: 'fleet'});
		expect(start.effects).toEqual([{type: 'openRig', rig: null}]);
		expect(start.nav.remembered).toBeNull();
	});

	test('one rig: its dashboard, and the session is told it is open', () => {
		const start = initialNav({fleetMode: false});
		expect(start.nav.screen).toEqual({name: 'dashboard', index: 0});
		expect(start.effects).toEqual([{type: 'openRig', rig: 0}]);
	});

	test("prefs: the fleet's sort and filter and the chart's span as remembered; a filter left says so once", () => {
		const nav = fleetStart({fleet: {sort: 'r10', reversed: true, filter: 'attic'}, chartSpanMs: CHART_SPANS[3].ms});
		expect(nav.fleetSaved).toEqual({sort: {key: 'r10', reversed: true}, filter: 'attic'});
		expect(nav.chartSpan).toBe(3);
		expect(nav.fleetRestored).toBe(true);
		expect(nav.remembered).toEqual({fleet: true, chartSpan: true});
		// Leaving the fleet ends the "restored" showing; coming back does not bring it again.
		const back = run(nav, {type: 'openRig', index: 1}, {type: 'toFleet'});
		expect(back.nav.screen).toEqual({name: 'fleet'});
		expect(back.nav.fleetRestored).toBe(false);
		expect(fleetStart({fleet: {sort: 'r10', reversed: true, filter: ''}}).fleetRestored).toBe(false);
	});
});

describe('moving between screens', () => {
	test('Enter on a rig opens its dashboard, selected for the way back; Esc comes back; each change told once', () => {
		const step = run(fleetStart(), {type: 'openRig', index: 2}, {type: 'toFleet'});
		expect(step.effects).toEqual([
			{type: 'openRig', rig: 2},
			{type: 'openRig', rig: null},
		]);
		expect(step.nav.selected).toBe(2);
	});

	test("a dashboard's chart, events and config come back to it, the open rig told nothing new", () => {
		const dashboard = run(fleetStart(), {type: 'openRig', index: 1}).nav;
		for (const open of [{type: 'openChart', from: 'dashboard'}, {type: 'openEvents', from: 'dashboard'}, {type: 'openConfig'}] as const) {
			const opened = reduce(dashboard, open);
			expect(opened.effects).toEqual([]);
			expect(opened.nav.screen).toMatchObject({index: 1});
			const back = reduce(opened.nav, open.type === 'openConfig' ? {type: 'closeConfig'} : {type: 'close'});
			expect(back.nav.screen).toEqual({name: 'dashboard', index: 1});
			expect(back.effects).toEqual([]);
		}
	});

	test("a proxy's chart and events name the worker whose detail was open (null: the proxy's own)", () => {
		const proxy = run(fleetStart(), {type: 'openRig', index: 0}).nav;
		expect(reduce(proxy, {type: 'openChart', from: 'proxy', worker: 'rig-07'}).nav.screen).toEqual({
			name: 'chart',
			index: 0,
			from: 'proxy',
			worker: 'rig-07',
		});
		expect(reduce(proxy, {type: 'openEvents', from: 'proxy', worker: null}).nav.screen).toEqual({
			name: 'events',
			index: 0,
			from: 'proxy',
			worker: null,
		});
	});

	test("the fleet's g, e and c open screens of no rig: the session keeps polling as the fleet does; Esc comes back", () => {
		const fleet = fleetStart();
		const chart = reduce(fleet, {type: 'fleetChart', index: 3});
		expect(chart.nav.screen).toEqual({name: 'chart', index: 3, from: 'fleet'});
		expect(chart.nav.selected).toBe(3);
		expect(chart.effects).toEqual([]);
		expect(reduce(chart.nav, {type: 'close'}).nav.screen).toEqual({name: 'fleet'});
		const events = reduce(fleet, {type: 'fleetEvents'});
		expect(events.nav.screen).toEqual({name: 'events', index: null, from: 'fleet'});
		expect(reduce(events.nav, {type: 'close'}).nav.screen).toEqual({name: 'fleet'});
		const config = reduce(fleet, {type: 'openFleetConfig', rigs: [0, 2]});
		expect(config.nav.screen).toEqual({name: 'fleetConfig', rigs: [0, 2]});
		expect(config.effects).toEqual([]);
	});

	test("a rig's own actions on the fleet (no rig open) change nothing", () => {
		const fleet = fleetStart();
		for (const action of [
			{type: 'openConfig'},
			{type: 'closeConfig'},
			{type: 'openChart', from: 'dashboard'},
			{type: 'openEvents', from: 'proxy', worker: null},
			{type: 'saveProxy', saved: {selected: null, sort: {key: 'listed', reversed: false}, filter: '', detail: null}},
		] as const) {
			const step = reduce(fleet, action);
			expect(step.nav).toEqual(fleet);
			expect(step.effects).toEqual([]);
		}
	});

	test('the marks, the selection and the proxy screen are kept across the screens opened from them', () => {
		const kept = {marked: new Set([1, 2]), offset: 4};
		const saved = {selected: 'w1', sort: {key: 'listed', reversed: false}, filter: 'w', detail: null} as const;
		const step = run(
			fleetStart(),
			{type: 'select', index: 2},
			{type: 'keepFleet', kept},
			{type: 'openFleetConfig', rigs: [1, 2]},
			{type: 'toFleet'},
			{type: 'openRig', index: 2},
			{type: 'saveProxy', saved},
			{type: 'openConfig'},
			{type: 'closeConfig'},
		);
		expect(step.nav.fleetKept).toBe(kept);
		expect(step.nav.selected).toBe(2);
		expect(step.nav.proxySaved).toEqual({index: 2, saved});
	});

	test('quit is an effect; the state stays', () => {
		const fleet = fleetStart();
		expect(reduce(fleet, {type: 'quit'})).toEqual({nav: fleet, effects: [{type: 'quit'}]});
	});

	test('the state given is left as it was', () => {
		const fleet = Object.freeze(fleetStart({}));
		const step = run(fleet, {type: 'openRig', index: 1}, {type: 'saveFleet', saved: {sort: {key: 'r10', reversed: false}, filter: ''}});
		expect(fleet.screen).toEqual({name: 'fleet'});
		expect(fleet.fleetSaved).toBeUndefined();
		expect(step.nav.fleetSaved).toEqual({sort: {key: 'r10', reversed: false}, filter: ''});
	});
});

describe('what is remembered between runs', () => {
	const defaults = {sort: {key: 'listed', reversed: false}, filter: ''} as const;
	const byRate = {sort: {key: 'r10', reversed: true}, filter: 'attic'} as const;

	test("the fleet's sort and filter: kept without prefs, nothing saved", () => {
		const step = run(fleetStart(), {type: 'saveFleet', saved: byRate});
		expect(step.nav.fleetSaved).toEqual(byRate);
		expect(step.effects).toEqual([]);
	});

	test('a first run writes nothing while at the defaults; once written, the defaults are written too', () => {
		const step = run(
			fleetStart({}),
			{type: 'saveFleet', saved: defaults},
			{type: 'saveFleet', saved: byRate},
			{type: 'saveFleet', saved: defaults},
		);
		expect(step.effects).toEqual([
			{type: 'prefs', change: {fleet: {sort: 'r10', reversed: true, filter: 'attic'}}},
			{type: 'prefs', change: {fleet: {sort: 'listed', reversed: false, filter: ''}}},
		]);
		// A run that starts with a sort remembered writes its way back to the defaults at once.
		expect(
			reduce(fleetStart({fleet: {sort: 'r10', reversed: true, filter: ''}}), {type: 'saveFleet', saved: defaults}).effects,
		).toHaveLength(1);
	});

	test("the chart's span: the default not written on a first run, another one as its ms", () => {
		const step = run(fleetStart({}), {type: 'span', span: DEFAULT_SPAN}, {type: 'span', span: 4}, {type: 'span', span: DEFAULT_SPAN});
		expect(step.effects).toEqual([
			{type: 'prefs', change: {chartSpanMs: CHART_SPANS[4].ms}},
			{type: 'prefs', change: {chartSpanMs: CHART_SPANS[DEFAULT_SPAN].ms}},
		]);
		expect(step.nav.chartSpan).toBe(DEFAULT_SPAN);
		expect(run(fleetStart(), {type: 'span', span: 4}).effects).toEqual([]);
	});
});
