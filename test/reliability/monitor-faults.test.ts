/**
 * The real polling stack (MinerClient → MinerReader → Monitor, loopback) against every fault the fault server can
 * play, each switched on and off on the same port while the monitor runs:
 * - a clear state (stale / error, never a crash) within one interval of the fault starting, plus the client's
 *   deadline where the fault is a hang;
 * - the last good snapshot kept as it was;
 * - a one-line reason with no stack and no token;
 * - live again within one interval of the fault ending (retries here are capped at the interval, see helpers/watch);
 * - bounded memory where the fault is a flood: the client stops reading a 50 MB body.
 */
import {describe, expect, it, type TestContext} from 'vitest';
import type {MinerErrorKind} from '../../source/miner/errors.js';
import type {LinkStatus, MonitorState} from '../../source/monitor/types.js';
import {faultModes, startFaultServer, type FaultMode, type FaultServer} from '../helpers/fault-server.js';
import {DEADLINE_MS, INTERVAL_MS, SLACK_MS, TOKEN, watch, type Watch} from './helpers/watch.js';

type Failing = {
	readonly mode: FaultMode;
	/** The state of the first failed poll: 'stale' for what may pass, 'error' for what needs the user. */
	readonly status: Extract<LinkStatus, 'stale' | 'error'>;
	readonly kind: MinerErrorKind;
	/** The message, roughly. */
	readonly says: RegExp;
	/** The fault makes the request hang until a client timeout. */
	readonly hang?: boolean;
};

const failing: readonly Failing[] = [
	{mode: 'refused', status: 'stale', kind: 'unreachable', says: /connection refused/},
	{mode: 'reset-before-answer', status: 'stale', kind: 'unreachable', says: /connection (reset|closed)/},
	{mode: 'reset-mid-body', status: 'stale', kind: 'bad-payload', says: /cut short/},
	{mode: 'no-answer', status: 'stale', kind: 'timeout', says: /timed out|no complete answer/, hang: true},
	{mode: 'stall-body', status: 'stale', kind: 'timeout', says: /stalled|no complete answer/, hang: true},
	{mode: 'drip', status: 'stale', kind: 'timeout', says: /no complete answer within 0\.6s/, hang: true},
	{mode: 'status-500', status: 'stale', kind: 'server-error', says: /HTTP 500/},
	{mode: 'status-500-empty', status: 'stale', kind: 'server-error', says: /HTTP 500/},
	{mode: 'status-503', status: 'stale', kind: 'server-error', says: /HTTP 503/},
	{mode: 'status-503-empty', status: 'stale', kind: 'server-error', says: /HTTP 503/},
	{mode: 'html', status: 'error', kind: 'bad-payload', says: /is an HTML page, not XMRig's API/},
	{mode: 'truncated-json', status: 'stale', kind: 'bad-payload', says: /cut short or is not valid JSON/},
	{mode: 'nan', status: 'stale', kind: 'bad-payload', says: /cut short or is not valid JSON/},
	{mode: 'wrong-shape', status: 'error', kind: 'incompatible', says: /not an XMRig summary/},
	{mode: 'huge', status: 'error', kind: 'too-large', says: /larger than 1 MiB/},
	{mode: 'huge-announced', status: 'error', kind: 'too-large', says: /larger than 1 MiB/},
	{mode: 'deep', status: 'error', kind: 'bad-payload', says: /nested too deeply/},
	{mode: 'not-http', status: 'error', kind: 'incompatible', says: /not valid HTTP/},
	{mode: 'split-401', status: 'error', kind: 'unauthorized', says: /HTTP 401/},
	{mode: 'split-403', status: 'error', kind: 'forbidden', says: /HTTP 403/},
	{mode: 'split-415', status: 'error', kind: 'unsupported-media-type', says: /HTTP 415/},
	{mode: 'impostor', status: 'error', kind: 'incompatible', says: /not an XMRig summary/},
];

/**
 * A fault server and a monitor on it, both cleaned up when the test ends. Tests run concurrently, so the hook must be
 * the test's own (the context's onTestFinished), not the global one.
 */
async function startPair(context: TestContext, options?: Parameters<typeof watch>[1]): Promise<{server: FaultServer; w: Watch}> {
	const server = await startFaultServer({token: TOKEN, workerId: 'fault-rig', hashrate: [1234.5, 1200, null]});
	const w = watch(server, options);
	context.onTestFinished(async () => {
		await w.stop();
		await server.close();
	});
	return {server, w};
}

async function liveMiner(context: TestContext): Promise<{server: FaultServer; w: Watch; live: MonitorState}> {
	const {server, w} = await startPair(context);
	// Two good polls, so the failure lands on a monitor in its steady live cadence.
	const {state: live} = await w.until((state) => state.status === 'live' && state.polls >= 2);
	return {server, w, live};
}

function lastLiveBefore(w: Watch, at: number): MonitorState | undefined {
	return w.log.filter((entry) => entry.at <= at && entry.state.status === 'live').at(-1)?.state;
}

function expectOneCleanLine(text: string): void {
	expect(text).not.toMatch(/\n/);
	expect(text).not.toMatch(/\bat .+:\d+:\d+/); // no stack frame
	expect(text).not.toContain(TOKEN);
	expect(text.length).toBeGreaterThan(10);
}

it('the fault list is complete: every mode of the fault server is covered by a test below', () => {
	const covered = new Set<FaultMode>([...failing.map((entry) => entry.mode), 'healthy', 'restart', 'two-responses', 'split-404']);
	expect(faultModes.filter((mode) => !covered.has(mode))).toEqual([]);
});

describe.concurrent('a fault, then the miner healthy again on the same port', () => {
	for (const fault of failing) {
		it(`${fault.mode}: ${fault.status} (${fault.kind}) within one interval${fault.hang ? ' + the deadline' : ''}, last values kept, live again within one interval`, async (context) => {
			const {expect} = context;
			const {server, w} = await liveMiner(context);

			// The fault starts.
			const switchedAt = Date.now();
			await server.setMode(fault.mode);
			const budget = INTERVAL_MS + (fault.hang ? DEADLINE_MS : 0) + SLACK_MS;
			const first = await w.until((state) => state.status !== 'live', budget + 3000);
			expect(first.at - switchedAt).toBeLessThanOrEqual(budget);
			// A hang longer than two intervals reads as down at once (monitor/link.ts); otherwise stale or error.
			expect(fault.hang ? ['stale', 'down'] : [fault.status]).toContain(first.state.status);
			expect(first.state.error?.kind).toBe(fault.kind);
			expect(first.state.error?.message).toMatch(fault.says);
			expectOneCleanLine(first.state.error!.oneLine());
			// The last good values are kept as they were, marked by the status.
			const lastGood = lastLiveBefore(w, first.at);
			expect(lastGood).toBeDefined();
			expect(first.state.snapshot).toBe(lastGood!.snapshot);
			expect(first.state.lastSuccessAt).toBe(lastGood!.lastSuccessAt);
			expect(first.state.snapshot?.workerId).toBe('fault-rig');
			expect(first.state.snapshot?.hashrate.total[0]).toBe(1234.5);

			// It holds: a second failed poll changes nothing but the count (transient faults go down after a while).
			const second = await w.until((state) => state.consecutiveFailures >= 2, 2 * budget + 3000);
			expect(second.state.snapshot).toBe(lastGood!.snapshot);
			expect(second.state.status).toBe(
				fault.status === 'error' ? 'error' : second.state.consecutiveFailures >= 3 ? 'down' : second.state.status,
			);
			expect(['stale', 'down', 'error']).toContain(second.state.status);
			for (const event of second.state.events) expectOneCleanLine(event.message);

			// The fault ends.
			const endedAt = Date.now();
			await server.setMode('healthy');
			const recoveryBudget = INTERVAL_MS + (fault.hang ? DEADLINE_MS : 0) + SLACK_MS;
			const back = await w.until((state) => state.status === 'live', recoveryBudget + 3000);
			expect(back.at - endedAt).toBeLessThanOrEqual(recoveryBudget);
			expect(back.state).toMatchObject({error: null, consecutiveFailures: 0, failingSince: null});
			expect(back.state.snapshot?.backends.length).toBeGreaterThan(0);
			expect(back.state.snapshot?.dialect).toBe('v2');
			if (second.state.status !== 'stale') expect(back.state.events.at(-1)?.message).toMatch(/^back up after/);
		});
	}
});

describe.concurrent('faults the data survives', () => {
	it('two answers on one socket: the first, whole answer is used; the link stays live', async (context) => {
		const {expect} = context;
		const {server, w} = await liveMiner(context);
		await server.setMode('two-responses');
		const pollsAtSwitch = w.monitor.getState().polls;
		const later = await w.until((state) => state.polls >= pollsAtSwitch + 3, 5000);
		expect(w.log.filter((entry) => entry.state.polls > pollsAtSwitch).every((entry) => entry.state.status === 'live')).toBe(true);
		expect(later.state.snapshot?.workerId).toBe('fault-rig');
		expect(later.state.snapshot?.dialect).toBe('v2');
		expect(server.connections.some((connection) => connection.mode === 'two-responses')).toBe(true);
	});

	it('404 on the per-thread endpoint, 200 on the summary: the summary is shown (no threads) and the link stays live; threads come back with the endpoint', async (context) => {
		const {expect} = context;
		const {server, w} = await liveMiner(context);
		const switchedAt = Date.now();
		await server.setMode('split-404');
		const partial = await w.until((state) => state.snapshot?.dialect === 'v1-summary-only', INTERVAL_MS + SLACK_MS + 3000);
		expect(partial.at - switchedAt).toBeLessThanOrEqual(INTERVAL_MS + SLACK_MS);
		expect(partial.state.status).toBe('live');
		expect(partial.state.snapshot?.threads).toEqual([]);
		expect(partial.state.snapshot?.hashrate.total[0]).toBe(1234.5);

		const endedAt = Date.now();
		await server.setMode('healthy');
		const full = await w.until((state) => state.snapshot?.dialect === 'v2', INTERVAL_MS + SLACK_MS + 3000);
		expect(full.at - endedAt).toBeLessThanOrEqual(INTERVAL_MS + SLACK_MS);
		expect(full.state.snapshot?.backends.length).toBeGreaterThan(0);
	});

	it('a miner that restarts (uptime falls, the id stays): the new process is read within one interval and the restart is logged', async (context) => {
		const {expect} = context;
		const {server, w, live} = await liveMiner(context);
		const oldId = live.snapshot?.id;
		const switchedAt = Date.now();
		await server.setMode('restart');
		const restarted = await w.until(
			(state) => (state.snapshot?.uptime ?? Infinity) < live.snapshot!.uptime!,
			INTERVAL_MS + SLACK_MS + 3000,
		);
		expect(restarted.at - switchedAt).toBeLessThanOrEqual(INTERVAL_MS + SLACK_MS);
		expect(restarted.state.snapshot?.id).toBe(oldId);
		expect(restarted.state.status).toBe('live');
		expect(restarted.state.snapshot?.uptime).toBeLessThan(live.snapshot!.uptime!);
		expect(restarted.state.events.some((event) => event.kind === 'restarted')).toBe(true);
	});
});

describe.concurrent('bounded under floods', () => {
	it('a 50 MB body (chunked, or announced): too-large, and the client stops reading long before the end', async (context) => {
		const {server, w} = await liveMiner(context);
		for (const mode of ['huge', 'huge-announced'] as const) {
			await server.setMode(mode);
			await w.until((state) => state.error?.kind === 'too-large');
			await server.setMode('healthy');
			await w.until((state) => state.status === 'live');
		}

		const floods = server.connections.filter((connection) => connection.mode === 'huge' || connection.mode === 'huge-announced');
		expect(floods.length).toBeGreaterThanOrEqual(2);
		for (const connection of floods) {
			expect(connection.cutByClient).toBe(true);
			// 1 MiB cap plus what the kernel's socket buffers took: far from 50 MB.
			expect(connection.bytesWritten).toBeLessThan(12 * 1024 * 1024);
		}
	});

	it('every fault in turn: nothing crashes, events and history stay bounded, no socket is left open', async (context) => {
		const {server, w} = await startPair(context, {intervalMs: 250, deadlineMs: 300});
		await w.until((state) => state.status === 'live');
		for (const mode of faultModes) {
			const polls = w.monitor.getState().polls;
			await server.setMode(mode);
			await w.until((state) => state.polls >= polls + 1);
		}

		await server.setMode('healthy');
		const back = await w.until((state) => state.status === 'live');
		expect(back.state.snapshot?.workerId).toBe('fault-rig');
		expect(back.state.events.length).toBeLessThanOrEqual(200);
		expect(back.state.recentRates.length).toBeLessThanOrEqual(300);
		for (const event of back.state.events) expectOneCleanLine(event.message);
		await w.stop();
		// Every connection the client opened is closed once it stops.
		await context.expect.poll(() => server.connections.length, {timeout: 3000}).toBe(server.requests.length);
	});
});
