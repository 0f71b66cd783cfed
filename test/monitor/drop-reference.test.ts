/**
 * The drop detector's reference of the last hour (source/monitor/reference.ts) on a real simulated miner: XMRig starts
 * its hashrate windows again when its threads change or it restarts, so a miner cut from four threads to one looks
 * steady against its own windows. The monitor's clock and the simulator's run ten times faster than real time
 * (fast-watch.ts).
 */
import {afterEach, describe, expect, it, vi} from 'vitest';
import type {Monitor} from '../../source/monitor/monitor.js';
import type {PastRates} from '../../source/monitor/reference.js';
import type {MinerEvent} from '../../source/monitor/types.js';
import {fastWatch, putCpu, TOKEN} from './fast-watch.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const watch: typeof fastWatch = async (options, pastRates) => {
	const watched = await fastWatch(options, pastRates);
	cleanups.push(watched.close);
	return watched;
};

const kinds = (monitor: Monitor) => monitor.getState().events.map((event) => event.kind);
const eventOf = (monitor: Monitor, kind: string): MinerEvent | undefined => monitor.getState().events.find((event) => event.kind === kind);
const waitFor = async (check: () => void, timeout = 15_000) => vi.waitFor(check, {timeout, interval: 20});
/** Waits until the monitor has made `polls` more polls. */
async function pollsLater(monitor: Monitor, polls: number): Promise<void> {
	const from = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(from + polls));
}

describe("a drop the miner's own windows do not show", () => {
	it("threads cut by a config PUT (cpu.rx=[0]): reported against the last hour from this session's polls (--no-history), and its recovery", async () => {
		const {sim, monitor} = await watch();
		monitor.start();
		// Past the session's first seconds and with a few polls of reference.
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(25));
		const before = monitor.getState().snapshot?.hashrate.total[0] ?? 0;
		expect(before).toBeGreaterThan(3000);

		expect(
			await putCpu(sim, (cpu) => {
				cpu['rx'] = [0];
			}),
		).toBe(204);
		// XMRig starts its windows again: the 60 s and 15 m averages are gone, the 10 s one comes back at a quarter.
		await waitFor(() => expect(monitor.getState().snapshot?.hashrate.total[1]).toBeNull());
		await waitFor(() => expect(kinds(monitor)).toContain('hashrate-drop'));
		const drop = eventOf(monitor, 'hashrate-drop');
		expect(drop).toMatchObject({severity: 'warn'});
		expect(drop?.message).toMatch(/^hashrate down to \d\.\d\d kH\/s, 2\d\.\d% of the 1h average \(\d\.\d\d kH\/s\)$/);
		const low = monitor.getState().snapshot?.hashrate.total[0] ?? Number.NaN;
		expect(low).toBeLessThan(before * 0.4);
		// Once: the polls after it add nothing while the rate stays down.
		await pollsLater(monitor, 10);
		expect(kinds(monitor).filter((kind) => kind === 'hashrate-drop')).toHaveLength(1);

		expect(
			await putCpu(sim, (cpu) => {
				cpu['rx'] = [0, 1, 2, 3];
			}),
		).toBe(204);
		await waitFor(() => expect(kinds(monitor)).toContain('hashrate-recovered'));
		expect(eventOf(monitor, 'hashrate-recovered')?.message).toMatch(/^hashrate recovered: \d\.\d\d kH\/s$/);
	});

	it('a miner back from a restart slower (fewer threads in its config file): reported after the grace, against the rate before the restart', async () => {
		const {sim, monitor} = await watch({applyDelayMs: 600_000});
		monitor.start();
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(25));
		// The file on disk changes (the apply waits), then the process restarts and reads it.
		expect(
			await putCpu(sim, (cpu) => {
				cpu['rx'] = [0, 1];
			}),
		).toBe(204);
		sim.restartMiner();
		await waitFor(() => expect(kinds(monitor)).toContain('restarted'));
		const restartedAt = eventOf(monitor, 'restarted')?.at ?? 0;
		await waitFor(() => expect(kinds(monitor)).toContain('hashrate-drop'));
		const drop = eventOf(monitor, 'hashrate-drop');
		expect(drop?.message).toMatch(/^hashrate down to \d\.\d\d kH\/s, [45]\d\.\d% of the 1h average \(\d\.\d\d kH\/s\)$/);
		// Not in the first seconds of the new process (the grace of a resume: 15 s).
		expect((drop?.at ?? 0) - restartedAt).toBeGreaterThanOrEqual(15_000);
	});

	it('a pause and a resume raise nothing, however long the pause, and a drop after them still does', async () => {
		const {sim, monitor, client} = await watch();
		monitor.start();
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(25));
		await client.rpc('pause');
		await waitFor(() => expect(monitor.getState().snapshot?.paused).toBe(true));
		await pollsLater(monitor, 30);
		await client.rpc('resume');
		await waitFor(() => expect(kinds(monitor)).toContain('resumed'));
		// 40 s of mining after the resume: the windows refill from the paused seconds; nothing is a drop.
		await pollsLater(monitor, 40);
		expect(kinds(monitor)).not.toContain('hashrate-drop');
		expect(kinds(monitor).filter((kind) => kind === 'paused' || kind === 'resumed')).toEqual(['paused', 'resumed']);

		expect(
			await putCpu(sim, (cpu) => {
				cpu['rx'] = [0];
			}),
		).toBe(204);
		await waitFor(() => expect(kinds(monitor)).toContain('hashrate-drop'));
	});

	it('a new api.id and worker id set live start the hour reference afresh: not judged against the one before', async () => {
		const {sim, monitor} = await watch();
		monitor.start();
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(25));
		const doc = JSON.parse(sim.configText()) as {api: Record<string, unknown>; cpu: Record<string, unknown>};
		doc.api['id'] = 'another-rig';
		doc.api['worker-id'] = 'another-rig';
		doc.cpu['rx'] = [0];
		const response = await fetch(`${sim.url}/1/config`, {
			method: 'PUT',
			headers: {Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json'},
			body: JSON.stringify(doc, null, 4),
		});
		expect(response.status).toBe(204);
		await waitFor(() => expect(monitor.getState().snapshot?.workerId).toBe('another-rig'));
		// The same process renamed (its uptime goes on): no restart, no other miner; the reference starts again.
		expect(kinds(monitor)).not.toContain('replaced');
		// Its windows refill at one thread's rate, and it goes on: nothing to compare it with but itself.
		await waitFor(() => expect(monitor.getState().snapshot?.hashrate.total[0]).not.toBeNull());
		await pollsLater(monitor, 30);
		expect(kinds(monitor)).not.toContain('hashrate-drop');
	});

	it('nothing in the first seconds of a session, nor on a steady miner', async () => {
		const {monitor} = await watch();
		monitor.start();
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(60));
		expect(kinds(monitor)).toEqual(['started']);
	});
});

describe('seeded from what is known of the hour before the session', () => {
	it('a miner already cut when the session starts is reported against the stored hour; without it, nothing is known to compare', async () => {
		const asked: number[] = [];
		const stored: PastRates = (before) => {
			asked.push(before);
			// The first ask: the store does not know the miner yet; then 50 minutes at four threads' rate.
			if (asked.length === 1) return null;
			return Array.from({length: 50}, (_, i) => ({t: before - (60 - i) * 60_000, rate: 5000 + (i % 3) * 10, samples: 30}));
		};
		const seeded = await watch({threads: 1}, stored);
		const unseeded = await watch({threads: 1});
		seeded.monitor.start();
		unseeded.monitor.start();
		await waitFor(() => expect(kinds(seeded.monitor)).toContain('hashrate-drop'));
		expect(eventOf(seeded.monitor, 'hashrate-drop')?.message).toMatch(
			/^hashrate down to \d\.\d\d kH\/s, 2\d\.\d% of the 1h average \(5\.0\d kH\/s\)$/,
		);
		// Asked from the second poll, until it answered; never again.
		expect(asked).toHaveLength(2);
		const first = seeded.monitor.getState().events[0]?.at ?? 0;
		expect(asked.every((before) => before === first)).toBe(true);
		await pollsLater(unseeded.monitor, 30);
		expect(kinds(unseeded.monitor)).toEqual(['started']);
		expect(asked).toHaveLength(2);
	});
});

describe('huge pages the miner has', () => {
	it('a miner started without them is flagged once, and "restored" when it gets them', async () => {
		const {sim, monitor} = await watch();
		expect(
			await putCpu(sim, (cpu) => {
				cpu['huge-pages'] = false;
			}),
		).toBe(204);
		await waitFor(() => expect(JSON.parse(sim.configText()).cpu['huge-pages']).toBe(false), 3000);
		monitor.start();
		await waitFor(() => expect(kinds(monitor)).toContain('hugepages-lost'));
		expect(eventOf(monitor, 'hugepages-lost')).toMatchObject({severity: 'warn', message: 'huge pages: 0 of 1 172 allocated'});
		await pollsLater(monitor, 20);
		expect(kinds(monitor).filter((kind) => kind.startsWith('hugepages'))).toEqual(['hugepages-lost']);

		expect(
			await putCpu(sim, (cpu) => {
				cpu['huge-pages'] = true;
			}),
		).toBe(204);
		await waitFor(() => expect(kinds(monitor)).toContain('hugepages-restored'));
		expect(eventOf(monitor, 'hugepages-restored')?.message).toBe('huge pages restored: 0 → 1 172 of 1 172 allocated');
	});
});
