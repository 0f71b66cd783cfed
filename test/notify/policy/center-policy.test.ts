/**
 * The AlertCenter's trouble changes through the policy (issue 38, "done when": miners stopped together give one
 * message, and one resolved message when they return): real simulated miners polled by real monitors. The policy's
 * clock is the changes' own; its window's end is given, not waited for.
 */
import {afterEach, expect, test, vi} from 'vitest';
import {AlertCenter} from '../../../source/alerts/center.js';
import type {TroubleChange} from '../../../source/alerts/types.js';
import {NoticePolicy} from '../../../source/notify/policy/engine.js';
import type {Notice} from '../../../source/notify/types.js';
import {startSimFleet, type SimFleet} from '../../ui/screens/fleet/helpers/sim-fleet.js';

let fleet: SimFleet | null = null;
let center: AlertCenter | null = null;

afterEach(async () => {
	center?.stop();
	center = null;
	await fleet?.close();
	fleet = null;
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 20});

test('six miners stopped together: one notice naming all six; back: one resolved notice naming how long each was out', async () => {
	const count = 6;
	fleet = await startSimFleet(
		Array.from({length: count}, (_, index) => ({dialect: '6' as const, workerId: `w${index}`, seed: 40 + index})),
		undefined,
		undefined,
		Array.from({length: count}, (_, index) => `rig-${String(index + 1).padStart(2, '0')}`),
	);
	const policy = new NoticePolicy({groupMs: 60_000});
	const changes: TroubleChange[] = [];
	const notices: Notice[] = [];
	center = new AlertCenter(
		fleet.miners.map((miner) => miner.monitor),
		{
			troubles(change) {
				changes.push(change);
				notices.push(...policy.change(change, change.at));
			},
		},
	);
	center.start();
	fleet.start();
	await waitFor(() => expect(fleet?.miners.every((miner) => miner.monitor.getState().status === 'live')).toBe(true));

	await Promise.all(fleet.sims.map(async (sim) => sim.stop()));
	await waitFor(() => expect(changes.filter((change) => change.open === true)).toHaveLength(count));
	expect(notices).toEqual([]);
	const first = Math.min(...changes.map((change) => change.at));
	expect(policy.nextDue(first)).toBe(first + 60_000);
	notices.push(...policy.due(first + 60_000));
	expect(notices.map((notice) => notice.title)).toEqual(['6 rigs down']);
	expect(notices[0]?.body.split('\n').map((line) => line.split(':')[0])).toEqual([
		'rig-01',
		'rig-02',
		'rig-03',
		'rig-04',
		'rig-05',
		'rig-06',
	]);
	expect(notices[0]?.priority).toBe('high');

	await Promise.all(fleet.sims.map(async (sim) => sim.start()));
	await waitFor(() => expect(changes.filter((change) => change.open === false)).toHaveLength(count));
	expect(notices.map((notice) => notice.title)).toEqual(['6 rigs down', 'resolved: 6 rigs down']);
	const resolved = notices[1];
	expect(resolved?.kind).toBe('resolved');
	expect(resolved?.rigs.every((rig) => rig.until !== undefined && rig.until >= rig.since)).toBe(true);
	expect(resolved?.body.split('\n')).toHaveLength(count);
	for (const line of resolved?.body.split('\n') ?? []) expect(line).toMatch(/^rig-0\d down \d+(?:\.\d+)?m?s?.* \(\d\d:\d\d–\d\d:\d\d\)$/);
});
