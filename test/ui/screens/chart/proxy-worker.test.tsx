/**
 * The chart (`g`) and the event view (`e`) of an xmrig-proxy and of one worker behind it, against a real simulated
 * proxy recorded into a real SQLite store: the proxy's line is its 1 min rate, a worker's chart and events are its own.
 */
import path from 'node:path';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {attachHistory} from '../../../../source/history/attach.js';
import {memoryCapacity, SessionHistory, WorkerHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {createSession, type Session} from '../../../../source/session/session.js';
import {startSimulator} from '../../../../source/sim/simulator.js';
import {ChartView} from '../../../../source/ui/screens/chart/view.js';
import {EventView} from '../../../../source/ui/screens/events/view.js';
import {tempDir, until} from '../../../history/helpers.js';
import {expectFits, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function recordedProxy() {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const sim = await startSimulator({kind: 'proxy', warm: true, workers: 3, lifeEvents: false, seed: 11});
	cleanups.push(async () => sim.stop());
	const session: Session = attachHistory(
		createSession([{url: sim.url, token: null}], 250),
		{mode: 'live', intervalMs: 250},
		() => undefined,
		{file: path.join(temp.dir, 'rigtop', 'history.sqlite')},
	);
	const [watched] = session.miners;
	if (!watched) throw new Error('no proxy');
	const source = new SessionHistory({
		monitor: watched.monitor,
		slot: 0,
		recorder: session.recorder ?? null,
		intervalMs: 250,
		capacity: memoryCapacity(1),
	});
	const history = new HistoryStores(
		source,
		watched.monitor,
		(worker) =>
			new WorkerHistory(source, {
				monitor: watched.monitor,
				slot: 0,
				recorder: session.recorder ?? null,
				capacity: memoryCapacity(1),
				worker,
			}),
	);
	cleanups.push(async () => {
		history.close();
		await session.close();
	});
	session.start();
	await until(() => (watched.monitor.getState().snapshot?.proxy?.workers?.length ?? 0) === 3, 8000, 'the workers listed');
	sim.dropWorker('rig-02');
	await until(() => watched.monitor.getState().events.some((event) => event.kind === 'worker-gone'), 8000, 'rig-02 gone');
	session.recorder?.flush();
	return {sim, monitor: watched.monitor, history};
}

describe("an xmrig-proxy's chart and events, and one worker's", () => {
	it.each([
		{columns: 80, rows: 24},
		{columns: 200, rows: 50},
	])(
		'the proxy: its 1m rate drawn, its 10m window the reference; a worker: its own line, titled ($columns×$rows)',
		async (size) => {
			const {monitor, history} = await recordedProxy();
			const proxyChart = await renderTerminal(<ChartView store={monitor} history={history} caps={{close: vi.fn(), quit: vi.fn()}} />, size);
			await proxyChart.waitFor('⠤⠤ 1m hashrate');
			await proxyChart.waitFor(/10m \d/);
			expect(proxyChart.frame()).not.toContain('15m');
			expect(proxyChart.frame()).not.toContain('60s');
			expect(proxyChart.frame()).toMatch(/[\u2801-\u28FF]/);
			proxyChart.unmount();

			const workerHistory = history.worker('rig-01');
			expect(history.worker('rig-01')).toBe(workerHistory);
			const chart = await renderTerminal(
				<ChartView store={monitor} history={workerHistory} worker="rig-01" caps={{close: vi.fn(), quit: vi.fn()}} />,
				size,
			);
			await chart.waitFor('· worker rig-01');
			await chart.waitFor(/[\u2801-\u28FF]/);
			expect(chart.frame()).toContain('⠤⠤ 1m hashrate');
			expect(chart.frame()).not.toContain('session');
			expectFits(chart, size.columns, size.rows);
			chart.unmount();
		},
		30_000,
	);

	it("the event view of a worker lists that worker's events alone; the proxy's lists them all", async () => {
		const {monitor, history} = await recordedProxy();
		const workerEvents = async (worker: string) =>
			renderTerminal(
				<EventView
					sources={[{name: 'sim-proxy', store: monitor, history: history.worker(worker)}]}
					title={`sim-proxy · worker ${worker}`}
					caps={{close: vi.fn(), quit: vi.fn()}}
				/>,
			);
		const gone = await workerEvents('rig-02');
		await gone.waitFor('worker rig-02 gone: no connection left');
		expect(gone.frame()).not.toContain('watching');
		gone.unmount();
		const other = await workerEvents('rig-01');
		await other.waitFor('sim-proxy · worker rig-01');
		expect(other.frame()).not.toContain('rig-02 gone');
		other.unmount();
		const all = await renderTerminal(
			<EventView sources={[{name: 'sim-proxy', store: monitor, history}]} title="sim-proxy" caps={{close: vi.fn(), quit: vi.fn()}} />,
		);
		await all.waitFor('worker rig-02 gone: no connection left');
		await all.waitFor('watching');
		all.unmount();
	}, 30_000);
});

describe('a worker with history off (--no-history)', () => {
	it("draws the worker's polls seen this session and lists its events from the monitor's log", async () => {
		const sim = await startSimulator({kind: 'proxy', warm: true, workers: 2, lifeEvents: false, seed: 12});
		cleanups.push(async () => sim.stop());
		const session = createSession([{url: sim.url, token: null}], 250);
		const [watched] = session.miners;
		if (!watched) throw new Error('no proxy');
		const source = new SessionHistory({monitor: watched.monitor, slot: 0, recorder: null, intervalMs: 250, capacity: 100});
		const worker = new WorkerHistory(source, {monitor: watched.monitor, slot: 0, recorder: null, capacity: 100, worker: 'rig-01'});
		cleanups.push(async () => {
			worker.close();
			source.close();
			await session.close();
		});
		session.start();
		await until(() => watched.monitor.getState().polls >= 3, 8000, 'polls');
		sim.dropWorker('rig-01');
		await until(() => watched.monitor.getState().events.some((event) => event.kind === 'worker-gone'), 8000, 'rig-01 gone');
		expect(worker.where()).toBe('session');
		const now = Date.now();
		const series = worker.series({from: now - 60_000, to: now + 1000, points: 10});
		expect(series.points.reduce((sum, point) => sum + point.samples, 0)).toBeGreaterThanOrEqual(3);
		expect(worker.events({since: 0}).map((event) => [event.kind, event.worker])).toEqual([['worker-gone', 'rig-01']]);
		expect(worker.intervalMs).toBe(60_000);
	}, 30_000);
});
