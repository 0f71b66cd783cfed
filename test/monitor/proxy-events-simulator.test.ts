import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import {afterEach, describe, expect, it} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import {AlertCommand} from '../../source/alerts/command-runner.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {HistoryStore} from '../../source/history/store.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor, type Clock} from '../../source/monitor/monitor.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {tempDir, until} from '../history/helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PASSWORD = 'pool-pass-Zq9-never-shown';

describe("a simulated proxy's worker and upstream events, stored and alerted", () => {
	it('gone / back, joined, quiet / sharing, upstreams in error / recovered, in order; the alert command never sees a password', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		// One clock moved by hand for both: the simulated proxy's time and rigtop's (a worker goes quiet after 5 minutes).
		let offset = 0;
		const sim = await startSimulator({
			kind: 'proxy',
			warm: true,
			lifeEvents: false,
			seed: 3,
			clock: () => performance.now() + offset,
			miners: ['rig-01', 'rig-02', 'rig-03'].map((name) => ({name, password: PASSWORD, hashrate: 6000})),
		});
		cleanups.push(async () => sim.stop());
		const clock: Clock = {
			now: () => Date.now() + offset,
			setTimeout: (fn, ms) => setTimeout(fn, ms),
			clearTimeout: (handle) => {
				clearTimeout(handle as ReturnType<typeof setTimeout>);
			},
		};
		const reader = new MinerReader(new MinerClient({url: sim.url, token: null}));
		const monitor = new Monitor({read: async (signal) => reader.read(signal, {perThread: true}), url: sim.url, intervalMs: 250, clock});
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const store = HistoryStore.open({file});
		const recorder = new HistoryRecorder(store, {intervalMs: 250, flushMs: 100});
		recorder.watch([monitor]);
		const script = path.join(temp.dir, 'record.cjs');
		const out = path.join(temp.dir, 'alerts.jsonl');
		writeFileSync(
			script,
			`let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
	require('node:fs').appendFileSync(process.argv[2], JSON.stringify({stdin: input, argv: process.argv.slice(2), env: process.env}) + '\\n');
});
`,
		);
		const problems: string[] = [];
		const command = new AlertCommand({
			argv: [process.execPath, script, out],
			maxQueued: 200,
			onProblem: (_alert, message) => problems.push(message),
		});
		const center = new AlertCenter([monitor], {sinks: [(alert) => command.run(alert)]});
		cleanups.push(async () => {
			center.stop();
			monitor.stop();
			recorder.close();
			await command.close();
		});
		monitor.start();
		await until(() => (monitor.getState().snapshot?.proxy?.workers?.length ?? 0) === 3, 8000, 'the workers listed');
		center.start();
		const kinds = () => monitor.getState().events.map((event) => event.kind);
		const logged = (kind: string) => kinds().includes(kind as never);

		sim.dropWorker('rig-01');
		await until(() => logged('worker-gone'), 8000, 'rig-01 gone');
		sim.connectMiner({name: 'rig-01', password: PASSWORD, hashrate: 6000});
		await until(() => logged('worker-back'), 8000, 'rig-01 back');
		sim.connectMiner({name: 'rig-04', password: PASSWORD, hashrate: 6000});
		await until(() => logged('worker-joined'), 8000, 'rig-04 joined');
		sim.quietWorker('rig-02');
		offset += 6 * 60_000;
		await until(() => logged('worker-quiet'), 8000, 'rig-02 quiet');
		sim.wakeWorker('rig-02');
		sim.submitShares('rig-02', 1);
		await until(() => logged('worker-sharing'), 8000, 'rig-02 sharing again');
		sim.failUpstream();
		await until(() => logged('upstream-error'), 8000, 'upstreams in error');
		sim.restoreUpstream();
		await until(() => logged('upstream-recovered'), 8000, 'upstreams recovered');
		sim.restartProxy();
		await until(() => logged('restarted'), 8000, 'restarted');
		const polls = monitor.getState().polls;
		await until(() => monitor.getState().polls >= polls + 6, 8000, 'polls after the restart');

		const events = monitor.getState().events;
		const order = [
			'worker-gone',
			'worker-back',
			'worker-joined',
			'worker-quiet',
			'worker-sharing',
			'upstream-error',
			'upstream-recovered',
			'restarted',
		];
		const firsts = order.map((kind) => events.findIndex((event) => event.kind === kind));
		expect(firsts.every((index) => index >= 0)).toBe(true);
		expect([...firsts].sort((a, b) => a - b)).toEqual(firsts);
		const named = (kind: string) => events.find((event) => event.kind === kind);
		expect(named('worker-gone')).toMatchObject({worker: 'rig-01', message: 'worker rig-01 gone: no connection left'});
		expect(named('worker-back')).toMatchObject({worker: 'rig-01', message: 'worker rig-01 back'});
		expect(named('worker-joined')).toMatchObject({worker: 'rig-04', message: 'worker rig-04 joined'});
		expect(named('worker-quiet')?.worker).toBe('rig-02');
		expect(named('worker-quiet')?.message).toMatch(/^worker rig-02 quiet: no share for [56]m \d\ds$/);
		expect(named('worker-sharing')).toMatchObject({worker: 'rig-02', message: 'worker rig-02 sharing again'});
		expect(named('upstream-error')?.message).toMatch(/^upstreams in error: \d+ of \d+$/);
		// The restart empties the proxy's list as its miners log in again: no worker is called gone for it.
		const restart = events.findIndex((event) => event.kind === 'restarted');
		expect(events.slice(restart).filter((event) => event.kind === 'worker-gone' || event.kind === 'worker-joined')).toEqual([]);

		// Stored: the proxy's events, each worker's named; a worker's own read alone.
		recorder.flush();
		const history = new HistoryReader(store);
		const proxyId = recorder.writtenMinerOf(0) ?? -1;
		const stored = history.events(proxyId, {since: 0});
		for (const kind of order) expect(stored.map((event) => event.kind)).toContain(kind);
		expect(history.events(proxyId, {since: 0, worker: 'rig-02'}).map((event) => event.kind)).toEqual(['worker-quiet', 'worker-sharing']);

		// Alerted: the command got each trouble and its all-clear, with the worker named.
		await until(
			() => {
				try {
					return readFileSync(out, 'utf8').trim().split('\n').length >= 6;
				} catch {
					return false;
				}
			},
			10_000,
			'the alert commands',
		);
		await command.close();
		const runs = readFileSync(out, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as {stdin: string; argv: string[]; env: Record<string, string>});
		const alerts = runs.map((run) => JSON.parse(run.stdin) as {kind: string; worker?: string});
		expect(alerts.map((alert) => [alert.kind, alert.worker ?? null])).toEqual(
			expect.arrayContaining([
				['worker-gone', 'rig-01'],
				['worker-back', 'rig-01'],
				['worker-quiet', 'rig-02'],
				['worker-sharing', 'rig-02'],
				['upstream-error', null],
				['upstream-recovered', null],
			]),
		);
		expect(problems).toEqual([]);
		// The simulator's pool password: in nothing the command was given, nor in the store's files.
		expect(readFileSync(out, 'utf8')).not.toContain(PASSWORD);
		recorder.close();
		const folder = path.dirname(file);
		for (const name of readdirSync(folder)) expect(readFileSync(path.join(folder, name)).includes(PASSWORD)).toBe(false);
	}, 60_000);
});
