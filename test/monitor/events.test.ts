import {describe, expect, it} from 'vitest';
import type {MinerSnapshot} from '../../source/miner/model.js';
import type {DropState, EventDraft} from '../../source/monitor/events.js';
import {deriveEvents, initialDropState, initialPauseState, isRestart, RESUME_GRACE_MS} from '../../source/monitor/events.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import {captureJson} from '../helpers/captures.js';
import {makeSnapshot, withRates} from '../helpers/snapshot.js';

const ctx = (drop: DropState = initialDropState, elapsedMs = 1000) => ({name: 'rig-01', drop, elapsedMs});

/**
 * Feeds snapshots through deriveEvents one poll at a time, as the monitor does (every state carried from poll to
 * poll, `elapsedMs` between polls); returns every event.
 */
function run(
	snapshots: readonly MinerSnapshot[],
	first: MinerSnapshot | null = null,
	{elapsedMs = 1000, pausedAlertMs, reference}: {elapsedMs?: number; pausedAlertMs?: number; reference?: number} = {},
): {events: EventDraft[]; drop: DropState} {
	let prev = first;
	let drop = initialDropState;
	let pause = initialPauseState;
	let hugepagesLost = false;
	// A poll before (`first`) had its huge pages judged, as the monitor's first poll does.
	let hugepagesSeen = first !== null;
	const events: EventDraft[] = [];
	for (const next of snapshots) {
		const result = deriveEvents(prev, next, {
			...ctx(drop, elapsedMs),
			pause,
			hugepagesLost,
			hugepagesSeen,
			...(pausedAlertMs === undefined ? {} : {pausedAlertMs}),
			...(reference === undefined ? {} : {reference}),
		});
		events.push(...result.events);
		drop = result.drop;
		pause = result.pause;
		hugepagesLost = result.hugepagesLost;
		hugepagesSeen = result.hugepagesSeen;
		prev = next;
	}

	return {events, drop};
}

const kinds = (events: readonly EventDraft[]) => events.map((event) => event.kind);

describe('deriveEvents', () => {
	it('says "started" with the name and version the first time data arrives', () => {
		const result = deriveEvents(null, makeSnapshot(), ctx());
		expect(result.events).toEqual([{kind: 'started', severity: 'info', message: 'watching rig-01, XMRig 6.26.0'}]);
		expect(result.restarted).toBe(false);
	});

	it('names the GPU forks and leaves out an unknown version', () => {
		expect(deriveEvents(null, makeSnapshot({kind: 'nvidia', version: '2.14.5'}), ctx()).events[0]?.message).toBe(
			'watching rig-01, xmrig-nvidia 2.14.5',
		);
		expect(deriveEvents(null, makeSnapshot({version: null}), ctx()).events[0]?.message).toBe('watching rig-01');
	});

	it('finds nothing between two polls of a steady miner, and hands back the same drop state', () => {
		const prev = makeSnapshot();
		const next = makeSnapshot({uptime: (prev.uptime ?? 0) + 1, connection: {uptime: (prev.connection.uptime ?? 0) + 1}});
		const result = deriveEvents(prev, next, ctx());
		expect(result.events).toEqual([]);
		expect(result.drop).toBe(initialDropState);
		expect(result.restarted).toBe(false);
	});

	describe('replaced (another miner answers at the address)', () => {
		const old = makeSnapshot({uptime: 600, results: {good: 40, total: 40, rejected: 0}});
		const other = makeSnapshot({
			id: 'ffffffffffffffff',
			workerId: 'rig-02',
			uptime: 5 * 86_400,
			results: {good: 9470, total: 9501, rejected: 31},
			paused: true,
		});

		it('says so once, in place of a restart, rejected shares or a pause, and starts the trackers afresh', () => {
			const dropped = {dropped: true, streak: 0, baseline: 1000, baselineWindow: '15m' as const, sinceResume: null};
			const result = deriveEvents(old, other, {...ctx(dropped, 2000), address: '10.0.0.5:8080', hugepagesLost: true});
			expect(result.events).toEqual([
				{kind: 'replaced', severity: 'warn', message: 'a different miner now answers at 10.0.0.5:8080: rig-02, XMRig 6.26.0'},
			]);
			expect(result.replaced).toBe(true);
			expect(result.restarted).toBe(false);
			expect(result.drop).toBe(initialDropState);
			expect(result.pause).toBe(initialPauseState);
			expect(result.hugepagesLost).toBe(false);
			// The next poll of the new miner compares with its own counters: one rejected share is one.
			const next = {...other, uptime: (other.uptime ?? 0) + 2, results: {...other.results, total: 9502, rejected: 32}};
			expect(run([next], other, {elapsedMs: 2000}).events.map((event) => event.message)).toEqual(['share rejected (32 of 9 502)']);
		});

		it('also when the new miner has just started, or during an outage', () => {
			expect(kinds(deriveEvents(old, {...other, uptime: 4}, ctx()).events)).toEqual(['replaced']);
			expect(kinds(deriveEvents(old, {...other, uptime: 900}, ctx(initialDropState, 600_000)).events)).toEqual(['replaced']);
		});

		it('not when the same process only changed its api.id (its uptime went on), nor without ids to compare', () => {
			const renamed = {...old, id: 'ffffffffffffffff', uptime: 602};
			expect(deriveEvents(old, renamed, ctx(initialDropState, 2000)).events).toEqual([]);
			// 2.x without an id, and XMRig's "" (no network interface; null in the model): no evidence.
			const noId = deriveEvents({...old, id: null}, other, ctx());
			expect(kinds(noId.events)).not.toContain('replaced');
			expect(kinds(deriveEvents(old, {...other, id: null}, ctx()).events)).not.toContain('replaced');
		});

		it('says "this address" when the monitor did not give one', () => {
			expect(deriveEvents(old, {...other, workerId: null, version: null}, ctx()).events[0]?.message).toBe(
				'a different miner now answers at this address',
			);
		});
	});

	describe('restarted', () => {
		it('when the uptime went down', () => {
			const result = deriveEvents(makeSnapshot(), makeSnapshot({uptime: 12}), ctx());
			expect(result.events).toEqual([{kind: 'restarted', severity: 'warn', message: 'miner restarted (up 12s)'}]);
			expect(result.restarted).toBe(true);
		});

		it('when the uptime is shorter than the time since the last read (restarted during a long outage)', () => {
			const prev = makeSnapshot({uptime: 1800});
			const next = makeSnapshot({uptime: 3600});
			expect(isRestart(prev, next, 7200_000)).toBe(true);
			expect(isRestart(prev, makeSnapshot({uptime: 1800 + 7200}), 7200_000)).toBe(false);
			// A poll that took a while does not look like a restart.
			expect(isRestart(prev, makeSnapshot({uptime: 1802}), 2500)).toBe(false);
		});

		it('when the version changed, the id staying (the same miner, whatever version it comes back as)', () => {
			const downgraded = deriveEvents(makeSnapshot(), makeSnapshot({version: '5.11.4', uptime: 3}), ctx());
			expect(downgraded.events).toEqual([{kind: 'restarted', severity: 'warn', message: 'miner restarted: XMRig 6.26.0 → 5.11.4'}]);
			expect(downgraded.restarted).toBe(true);
			expect(downgraded.replaced).not.toBe(true);
			const upgraded = deriveEvents(makeSnapshot({version: '6.25.0'}), makeSnapshot({uptime: 40}), ctx());
			expect(upgraded.events[0]?.message).toBe('miner restarted: XMRig 6.25.0 → 6.26.0');
		});

		it('when a miner without uptime (2.14) shows lower lifetime share counters', () => {
			const prev = makeSnapshot({dialect: 'v1', uptime: null, results: {good: 120, total: 121, rejected: 1}});
			const next = makeSnapshot({dialect: 'v1', uptime: null, results: {good: 0, total: 0, rejected: 0}});
			expect(kinds(deriveEvents(prev, next, ctx()).events)).toEqual(['restarted']);
			expect(isRestart(prev, makeSnapshot({dialect: 'v1', uptime: null, results: {good: 121, total: 122, rejected: 1}}))).toBe(false);
		});

		it('reports nothing else across a restart and starts drop tracking again after the grace of a resume', () => {
			const prev = makeSnapshot({results: {good: 80, total: 90, rejected: 10}, paused: true});
			const next = makeSnapshot({
				uptime: 3,
				paused: false,
				hashrate: {total: [null, null, null], highest: null},
				results: {good: 0, total: 0, rejected: 0},
				connection: {connected: false, ip: null, uptime: 0},
				hugepages: {kind: 'pages', allocated: 0, total: 1168},
			});
			const dropped: DropState = {dropped: true, streak: 0, baseline: 4800, baselineWindow: '15m', sinceResume: null};
			const result = deriveEvents(prev, next, ctx(dropped));
			expect(kinds(result.events)).toEqual(['restarted']);
			expect(result.drop).toEqual({...initialDropState, sinceResume: 0});
		});
	});

	describe('pool', () => {
		it('lost, naming the pool the miner was on', () => {
			const next = makeSnapshot({connection: {connected: false, ip: null, uptime: 0}});
			expect(deriveEvents(makeSnapshot(), next, ctx()).events).toEqual([
				{kind: 'pool-lost', severity: 'warn', message: 'pool lost: pool.example.org:443'},
			]);
		});

		it('connected, once, and not again while it stays connected', () => {
			const down = makeSnapshot({connection: {connected: false, ip: null, uptime: 0}});
			const up = makeSnapshot({connection: {uptime: 1}});
			const {events} = run([up, makeSnapshot({connection: {uptime: 2}}), makeSnapshot({connection: {uptime: 3}})], down);
			expect(events).toEqual([{kind: 'pool-connected', severity: 'info', message: 'pool connected: pool.example.org:443'}]);
		});

		it('switched to another pool, or reconnected between two polls', () => {
			const switched = makeSnapshot({connection: {pool: 'backup.example.org:3333', uptime: 4}});
			expect(deriveEvents(makeSnapshot(), switched, ctx()).events[0]?.message).toBe(
				'pool switched: pool.example.org:443 → backup.example.org:3333',
			);
			const reconnected = makeSnapshot({connection: {failures: 1, uptime: 2}});
			expect(deriveEvents(makeSnapshot(), reconnected, ctx()).events).toEqual([
				{kind: 'pool-connected', severity: 'info', message: 'pool reconnected: pool.example.org:443'},
			]);
		});
	});

	it('paused and resumed, once per change; nothing where the miner does not say (before 4.4)', () => {
		const paused = makeSnapshot({paused: true, hashrate: {total: [0, 0, 4790.5]}});
		const {events} = run([paused, paused, makeSnapshot(), makeSnapshot()], makeSnapshot());
		expect(events).toEqual([
			{kind: 'paused', severity: 'info', message: 'paused'},
			{kind: 'resumed', severity: 'info', message: 'resumed'},
		]);
		expect(deriveEvents(makeSnapshot({paused: null}), makeSnapshot({paused: null}), ctx()).events).toEqual([]);
	});

	it('counts the new rejects, with the running tally', () => {
		const before = makeSnapshot({results: {good: 1205, total: 1208, rejected: 3}});
		const one = makeSnapshot({results: {good: 1205, total: 1209, rejected: 4}});
		const two = makeSnapshot({results: {good: 1205, total: 1211, rejected: 6}});
		expect(deriveEvents(before, one, ctx()).events).toEqual([{kind: 'rejected', severity: 'warn', message: 'share rejected (4 of 1 209)'}]);
		expect(deriveEvents(one, two, ctx()).events).toEqual([{kind: 'rejected', severity: 'warn', message: '2 shares rejected (6 of 1 211)'}]);
		expect(deriveEvents(two, makeSnapshot({results: {good: 1206, total: 1212, rejected: 6}}), ctx()).events).toEqual([]);
	});

	describe('huge pages', () => {
		it('lost when fewer pages are allocated than before and than wanted', () => {
			const next = makeSnapshot({hugepages: {kind: 'pages', allocated: 0, total: 1168}});
			expect(deriveEvents(makeSnapshot(), next, ctx()).events).toEqual([
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages lost: 1 168 → 0 of 1 168 allocated'},
			]);
		});

		it('not lost when fewer pages are wanted (fewer threads) and all are allocated, or when they grow', () => {
			const fewer = makeSnapshot({hugepages: {kind: 'pages', allocated: 584, total: 584}});
			expect(deriveEvents(makeSnapshot(), fewer, ctx()).events).toEqual([]);
			const growing = makeSnapshot({hugepages: {kind: 'pages', allocated: 1168, total: 1168}});
			expect(deriveEvents(makeSnapshot({hugepages: {kind: 'pages', allocated: 600, total: 1168}}), growing, ctx()).events).toEqual([]);
		});

		it('lost when the /1/summary flag goes from true to false', () => {
			const on = makeSnapshot({dialect: 'v1', hugepages: {kind: 'flag', enabled: true}});
			const off = makeSnapshot({dialect: 'v1', hugepages: {kind: 'flag', enabled: false}});
			expect(run([off, off], on).events).toEqual([{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages lost'}]);
		});
	});

	describe('hashrate drop', () => {
		const normal = withRates([4800, 4810, 4800]);
		const low = withRates([2100, 3900, 4700]);

		it('reports a drop after 3 low polls, once, and the recovery after 3 good ones', () => {
			const {events, drop} = run([normal, low, low, low, low, low, normal, normal, normal, normal]);
			expect(events).toEqual([
				{kind: 'started', severity: 'info', message: 'watching rig-01, XMRig 6.26.0'},
				{kind: 'hashrate-drop', severity: 'warn', message: 'hashrate down to 2.10 kH/s, 44.7% of the 15m average (4.70 kH/s)'},
				{kind: 'hashrate-recovered', severity: 'info', message: 'hashrate recovered: 4.80 kH/s'},
			]);
			expect(drop).toEqual(initialDropState);
		});

		it('ignores a dip shorter than 3 polls', () => {
			expect(kinds(run([normal, low, low, normal, low, low, normal]).events)).toEqual(['started']);
		});

		it('judges against the 60 s average while the 15 m window is still filling', () => {
			const early = withRates([1000, 3000, null]);
			const {events} = run([early, early, early]);
			expect(events[1]).toEqual({
				kind: 'hashrate-drop',
				severity: 'warn',
				message: 'hashrate down to 1.00 kH/s, 33.3% of the 60s average (3.00 kH/s)',
			});
		});

		it('keeps the average it fell from: a drop long enough to drag the 15 m average down is not a recovery', () => {
			const sagging = [4700, 4000, 3200, 2600, 2200, 2150].map((avg) => withRates([2100, 2100, avg]));
			const {events, drop} = run([normal, ...sagging]);
			expect(kinds(events)).toEqual(['started', 'hashrate-drop']);
			expect(drop).toMatchObject({dropped: true, baseline: 4700});
			// 3 polls at 85 % of 4.7 kH/s or more bring it back.
			const back = withRates([4100, 3000, 2500]);
			let state = drop;
			let prev = sagging.at(-1)!;
			const seen: string[] = [];
			for (const next of [back, back, back]) {
				const result = deriveEvents(prev, next, ctx(state));
				seen.push(...kinds(result.events));
				state = result.drop;
				prev = next;
			}

			expect(seen).toEqual(['hashrate-recovered']);
		});

		it('does not judge polls while paused or without a pool', () => {
			const paused = withRates([0, 2000, 4700], {paused: true});
			const noPool = withRates([0, 2000, 4700], {connection: {connected: false, ip: null, uptime: 0}});
			expect(kinds(run([normal, paused, paused, paused, paused]).events)).toEqual(['started', 'paused']);
			expect(kinds(run([normal, noPool, noPool, noPool, noPool]).events)).toEqual(['started', 'pool-lost']);
		});

		it('a pause is no drop: after a resume the windows that still hold paused seconds are not judged, then the baseline is new', () => {
			const paused = withRates([0, 2000, 4700], {paused: true});
			// XMRig's 10 s window refills over ten seconds after a resume; the 15 m average still remembers the rate before.
			const ramp = [500, 1200, 2000, 2800, 3500, 4200, 4800].map((rate) => withRates([rate, 3000, 4600]));
			const after = Array.from({length: 10}, () => normal);
			const {events} = run([normal, paused, paused, ...ramp, ...after], null, {elapsedMs: 2000});
			expect(kinds(events)).toEqual(['started', 'paused', 'resumed']);
			// …and a real drop once the grace is over is still reported.
			const dropAfter = run([normal, paused, ...ramp, ...after, low, low, low], null, {elapsedMs: 2000});
			expect(kinds(dropAfter.events)).toEqual(['started', 'paused', 'resumed', 'hashrate-drop']);
		});

		it('the grace after a resume is measured in time, whatever the interval', () => {
			const paused = withRates([0, 2000, 4700], {paused: true});
			const lowAfterResume = withRates([1000, 3000, 4600]);
			const polls = Math.ceil(RESUME_GRACE_MS / 250) - 1;
			const {events} = run([normal, paused, ...Array.from({length: polls}, () => lowAfterResume)], null, {elapsedMs: 250});
			expect(kinds(events)).toEqual(['started', 'paused', 'resumed']);
		});

		it('does not judge when the 10 s window or both averages are unknown', () => {
			const unknown = withRates([null, 4000, 4700]);
			const noAverage = withRates([100, null, null]);
			expect(kinds(run([normal, unknown, unknown, unknown, noAverage, noAverage, noAverage]).events)).toEqual(['started']);
		});
	});

	describe('a pause that lasts', () => {
		const mining = withRates([4800, 4810, 4800]);
		const paused = withRates([0, 0, 4000], {paused: true});

		it('is reported once when it has lasted the threshold (default 10 minutes), and its resume says for how long', () => {
			const polls = Array.from({length: 301}, () => paused); // 301 polls 2 s apart: 10 minutes after the first
			const {events} = run([mining, ...polls, mining], null, {elapsedMs: 2000});
			expect(events.slice(1)).toEqual([
				{kind: 'paused', severity: 'info', message: 'paused'},
				{kind: 'paused-long', severity: 'warn', message: 'paused for 10m'},
				{kind: 'resumed', severity: 'info', message: 'resumed after 10m 02s paused'},
			]);
		});

		it('is not reported before the threshold, at another threshold, or with 0 (never)', () => {
			const nine = Array.from({length: 270}, () => paused);
			expect(kinds(run([mining, ...nine, mining], null, {elapsedMs: 2000}).events)).toEqual(['started', 'paused', 'resumed']);
			expect(kinds(run([mining, paused, paused, paused], null, {elapsedMs: 30_000, pausedAlertMs: 60_000}).events)).toEqual([
				'started',
				'paused',
				'paused-long',
			]);
			const long = Array.from({length: 400}, () => paused);
			expect(kinds(run([mining, ...long], null, {elapsedMs: 2000, pausedAlertMs: 0}).events)).toEqual(['started', 'paused']);
		});

		it('counts from the first poll of a miner that was already paused when rigtop started', () => {
			expect(kinds(run([paused, paused, paused], null, {elapsedMs: 40_000, pausedAlertMs: 60_000}).events)).toEqual([
				'started',
				'paused-long',
			]);
		});
	});

	describe('huge pages restored', () => {
		const all = makeSnapshot({hugepages: {kind: 'pages', allocated: 1168, total: 1168}});
		const some = makeSnapshot({hugepages: {kind: 'pages', allocated: 600, total: 1168}});

		it('follows a loss when every page is allocated again, and only then', () => {
			expect(run([all, some, all]).events.slice(1)).toEqual([
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages lost: 1 168 → 600 of 1 168 allocated'},
				{kind: 'hugepages-restored', severity: 'info', message: 'huge pages restored: 600 → 1 168 of 1 168 allocated'},
			]);
			expect(kinds(run([all, all, all]).events)).toEqual(['started']);
			const on = makeSnapshot({dialect: 'v1', hugepages: {kind: 'flag', enabled: true}});
			const off = makeSnapshot({dialect: 'v1', hugepages: {kind: 'flag', enabled: false}});
			expect(kinds(run([on, off, on]).events)).toEqual(['started', 'hugepages-lost', 'hugepages-restored']);
		});
	});

	describe('huge pages the miner has (not only what changed in front of this rigtop)', () => {
		const none = makeSnapshot({hugepages: {kind: 'pages', allocated: 0, total: 1168}});
		const all = makeSnapshot({hugepages: {kind: 'pages', allocated: 1168, total: 1168}});

		it('a miner first seen short of what it wants is flagged once, at its first poll', () => {
			expect(run([none, none, none]).events).toEqual([
				{kind: 'started', severity: 'info', message: 'watching rig-01, XMRig 6.26.0'},
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages: 0 of 1 168 allocated'},
			]);
			const some = makeSnapshot({hugepages: {kind: 'pages', allocated: 600, total: 1168}});
			expect(run([some]).events[1]?.message).toBe('huge pages: 600 of 1 168 allocated');
			const off = makeSnapshot({dialect: 'v1', hugepages: {kind: 'flag', enabled: false}});
			expect(run([off, off]).events.slice(1)).toEqual([{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages: not in use'}]);
		});

		it('"restored" when a miner flagged this session gets them, though this rigtop never saw them lost', () => {
			expect(run([none, none, all, all]).events.slice(1)).toEqual([
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages: 0 of 1 168 allocated'},
				{kind: 'hugepages-restored', severity: 'info', message: 'huge pages restored: 0 → 1 168 of 1 168 allocated'},
			]);
		});

		it('is judged only once the miner mines: pages not known yet, or not allocated before its threads run, are no loss', () => {
			const starting = makeSnapshot({
				uptime: 2,
				hashrate: {total: [null, null, null], highest: null},
				hugepages: {kind: 'pages', allocated: 0, total: 0},
			});
			const allocating = makeSnapshot({
				uptime: 4,
				hashrate: {total: [null, null, null], highest: null},
				hugepages: {kind: 'pages', allocated: 0, total: 1168},
			});
			const mining = makeSnapshot({uptime: 16, hugepages: {kind: 'pages', allocated: 1168, total: 1168}});
			expect(kinds(run([starting, allocating, mining, mining]).events)).toEqual(['started']);
			const short = makeSnapshot({uptime: 16, hugepages: {kind: 'pages', allocated: 0, total: 1168}});
			expect(kinds(run([starting, allocating, short, short]).events)).toEqual(['started', 'hugepages-lost']);
			expect(kinds(run([makeSnapshot({hugepages: null}), all]).events)).toEqual(['started']);
		});

		/** A miner process up `from` s, polled every 2 s `count` times, with these huge pages. */
		const process = (from: number, count: number, allocated: number) =>
			Array.from({length: count}, (_, i) => makeSnapshot({uptime: from + 2 * i, hugepages: {kind: 'pages', allocated, total: 1168}}));

		it('once per session: not again when the miner restarts still short; restored when it comes back with them', () => {
			const options = {elapsedMs: 2000};
			expect(kinds(run([none, none, ...process(4, 20, 0)], null, options).events)).toEqual(['started', 'hugepages-lost', 'restarted']);
			expect(run([none, ...process(4, 20, 1168)], null, options).events.slice(1)).toEqual([
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages: 0 of 1 168 allocated'},
				{kind: 'restarted', severity: 'warn', message: 'miner restarted (up 4s)'},
				{kind: 'hugepages-restored', severity: 'info', message: 'huge pages restored: 1 168 of 1 168 allocated'},
			]);
		});

		it('a miner that comes back from a restart without them is flagged after the grace of a restart, once its threads run', () => {
			const restarting = makeSnapshot({
				uptime: 3,
				hashrate: {total: [null, null, null], highest: null},
				hugepages: {kind: 'pages', allocated: 0, total: 1168},
			});
			// 15 s of grace from the poll that saw the restart (7 polls at 2 s), then judged.
			const polls = [all, restarting, ...process(5, 7, 0)];
			expect(kinds(run(polls, null, {elapsedMs: 2000}).events)).toEqual(['started', 'restarted']);
			expect(run([...polls, ...process(19, 3, 0)], null, {elapsedMs: 2000}).events.slice(1)).toEqual([
				{kind: 'restarted', severity: 'warn', message: 'miner restarted (up 3s)'},
				{kind: 'hugepages-lost', severity: 'warn', message: 'huge pages: 0 of 1 168 allocated'},
			]);
		});

		it('not in the first seconds of a session (the alert center starts after its first poll), then once', () => {
			const first = deriveEvents(null, none, {...ctx({...initialDropState, sinceResume: 0}, 0)});
			expect(kinds(first.events)).toEqual(['started']);
			expect(first.hugepagesSeen).toBe(false);
			let state = {drop: first.drop, seen: first.hugepagesSeen, lost: first.hugepagesLost};
			const seen: string[] = [];
			for (let i = 0; i < 10; i++) {
				const result = deriveEvents(none, none, {...ctx(state.drop, 2000), hugepagesSeen: state.seen, hugepagesLost: state.lost});
				seen.push(...kinds(result.events));
				state = {drop: result.drop, seen: result.hugepagesSeen, lost: result.hugepagesLost};
			}

			expect(seen).toEqual(['hugepages-lost']);
		});
	});

	describe('hashrate drop against the last hour (the reference rigtop keeps)', () => {
		// XMRig cut from 4 threads to 1: its windows start again, and the 60 s one fills with the new rate.
		const cut = withRates([900, null, null]);
		const cutLater = withRates([905, 902, null]);

		it('reports a miner whose windows started again at a lower rate, and its recovery', () => {
			const {events, drop} = run([cut, cutLater, cutLater], withRates([3600, 3600, 3600]), {reference: 3600});
			expect(events).toEqual([
				{kind: 'hashrate-drop', severity: 'warn', message: 'hashrate down to 905 H/s, 25.1% of the 1h average (3.60 kH/s)'},
			]);
			expect(drop).toMatchObject({dropped: true, baseline: 3600, baselineWindow: '1h'});
			// Only the reference knew: against the miner's own windows the same polls are steady.
			expect(kinds(run([cut, cutLater, cutLater, cutLater], withRates([3600, 3600, 3600])).events)).toEqual([]);
			const back = withRates([3500, null, null]);
			expect(kinds(run([cut, cutLater, cutLater, back, back, back], withRates([3600, 3600, 3600]), {reference: 3600}).events)).toEqual([
				'hashrate-drop',
				'hashrate-recovered',
			]);
		});

		it('a real XMRig 6.26 cut from two threads to one (2 120 → 1 059 H/s, issue 22)', () => {
			const oneThread = withRates([1059, null, null]);
			expect(run([oneThread, oneThread, oneThread], withRates([2120, 2118, 2121]), {reference: 2120}).events).toEqual([
				{kind: 'hashrate-drop', severity: 'warn', message: 'hashrate down to 1.06 kH/s, 50.0% of the 1h average (2.12 kH/s)'},
			]);
		});

		it("the higher of the miner's average and the reference is the line", () => {
			const low = withRates([2100, 3900, 4700]);
			expect(run([low, low, low], withRates([4800, 4810, 4800]), {reference: 3000}).events[0]?.message).toBe(
				'hashrate down to 2.10 kH/s, 44.7% of the 15m average (4.70 kH/s)',
			);
			expect(kinds(run([cut, cut, cut], withRates([900, 900, 900]), {reference: 1000}).events)).toEqual([]);
		});

		it('a miner back from a restart slower is judged against the reference after the grace, not before', () => {
			const before = withRates([3600, 3600, 3600]);
			const restarted = makeSnapshot({uptime: 2, hashrate: {total: [null, null, null], highest: null}});
			const slow = (uptime: number) => makeSnapshot({uptime, hashrate: {total: [1100, null, null], highest: 1100}});
			// 15 s of grace from the poll that saw the restart, then three low polls.
			const polls = [restarted, ...[4, 6, 8, 10, 12, 14, 16, 18, 20].map(slow)];
			expect(kinds(run(polls, before, {elapsedMs: 2000, reference: 3600}).events)).toEqual(['restarted']);
			const {events} = run([...polls, slow(22)], before, {elapsedMs: 2000, reference: 3600});
			expect(events.map((event) => event.message)).toEqual([
				'miner restarted (up 2s)',
				'hashrate down to 1.10 kH/s, 30.6% of the 1h average (3.60 kH/s)',
			]);
		});

		it('never while paused, nor in the grace after a resume, however far under the reference', () => {
			const paused = withRates([0, 0, 0], {paused: true});
			const ramp = [300, 900, 1800, 2700, 3400, 3600, 3600].map((rate) => withRates([rate, 2000, 2500]));
			const {events} = run([paused, paused, ...ramp, ...ramp.slice(-1)], withRates([3600, 3600, 3600]), {elapsedMs: 2000, reference: 3600});
			expect(kinds(events)).toEqual(['paused', 'resumed']);
		});
	});

	it('lists several changes of one poll in a fixed order', () => {
		const next = makeSnapshot({
			paused: true,
			results: {good: 1204, total: 1209, rejected: 5},
			connection: {connected: false, ip: null, uptime: 0},
			hugepages: {kind: 'pages', allocated: 100, total: 1168},
		});
		expect(kinds(deriveEvents(makeSnapshot(), next, ctx()).events)).toEqual(['pool-lost', 'paused', 'rejected', 'hugepages-lost']);
	});
});

describe('deriveEvents on an xmrig-proxy', () => {
	const summary = () => captureJson('../xmrig-proxy/v6.26/get_1_summary.txt') as Record<string, unknown>;
	const proxy = (change: (summary: Record<string, unknown>) => void = () => undefined) => {
		const document = summary();
		change(document);
		return normalizeSnapshot('proxy', document, null);
	};
	const upstreams = (active: number, error: number) => (document: Record<string, unknown>) => {
		document['upstreams'] = {active, sleep: 0, error, total: active + error, ratio: 2};
	};

	it('names the proxy as a proxy', () => {
		expect(deriveEvents(null, proxy(), ctx()).events).toEqual([
			{kind: 'started', severity: 'info', message: 'watching rig-01, xmrig-proxy 6.26.0'},
		]);
		const restarted = run(
			[proxy((document) => (document['uptime'] = 3))],
			proxy((document) => (document['uptime'] = 500)),
		);
		expect(restarted.events.map((event) => event.message)).toEqual(['proxy restarted (up 3s)']);
	});

	it('tells its upstreams lost and back, and no reconnect from the errors it counts now', () => {
		const result = run([proxy(upstreams(1, 1)), proxy(upstreams(0, 2)), proxy(upstreams(1, 1))], proxy(upstreams(1, 0)));
		expect(result.events.map((event) => [event.kind, event.message])).toEqual([
			['pool-lost', 'no upstream active: every pool connection lost'],
			['pool-connected', 'upstream connected'],
		]);
	});
});
