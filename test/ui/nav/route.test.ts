/** Which screen the App draws for where the navigation is (source/ui/nav/route.ts), given what it has. */
import {describe, expect, test} from 'vitest';
import {routeOf, type RouteFacts} from '../../../source/ui/nav/route.js';

/** Three rigs; the ones in `histories` have a history. */
const facts = (histories: readonly number[], slots = true): RouteFacts => ({
	rigs: 3,
	hasHistory: (index) => histories.includes(index),
	config: slots,
	fleetConfig: slots,
});

describe('routeOf', () => {
	test('each screen as itself when the App has what it needs', () => {
		const all = facts([0, 1, 2]);
		expect(routeOf({name: 'fleet'}, all)).toEqual({name: 'fleet'});
		expect(routeOf({name: 'fleetConfig', rigs: [1]}, all)).toEqual({name: 'fleetConfig', rigs: [1]});
		expect(routeOf({name: 'dashboard', index: 1}, all)).toEqual({name: 'rig', index: 1});
		expect(routeOf({name: 'config', index: 1}, all)).toEqual({name: 'config', index: 1});
		expect(routeOf({name: 'chart', index: 2, from: 'proxy', worker: 'w1'}, all)).toEqual({name: 'chart', index: 2, worker: 'w1'});
		expect(routeOf({name: 'events', index: null, from: 'fleet'}, all)).toEqual({name: 'events', index: null, worker: null});
	});

	test('a slot the App was not given: the fleet config view shows the fleet, the config view the rig', () => {
		const none = facts([0], false);
		expect(routeOf({name: 'fleetConfig', rigs: [1]}, none)).toEqual({name: 'fleet'});
		expect(routeOf({name: 'config', index: 0}, none)).toEqual({name: 'rig', index: 0});
	});

	test('a chart or events with no history to read, or a rig that is not there, show the fleet', () => {
		const some = facts([0]);
		expect(routeOf({name: 'chart', index: 1, from: 'dashboard'}, some)).toEqual({name: 'fleet'});
		expect(routeOf({name: 'events', index: 1, from: 'dashboard'}, some)).toEqual({name: 'fleet'});
		expect(routeOf({name: 'dashboard', index: 3}, some)).toEqual({name: 'fleet'});
		// Every rig's events: shown while any rig has a history.
		expect(routeOf({name: 'events', index: null, from: 'fleet'}, some)).toEqual({name: 'events', index: null, worker: null});
		expect(routeOf({name: 'events', index: null, from: 'fleet'}, facts([]))).toEqual({name: 'fleet'});
	});
});
