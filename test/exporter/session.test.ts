/**
 * The exporter over a real session: simulated miners of every dialect the simulator speaks, a token-protected miner,
 * one that is down, and every fault of the fault server. What a scraper sees comes from a real HTTP scrape, and the
 * real promtool checks it.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it, type TestContext} from 'vitest';
import {createSession, type Session, type SessionTarget} from '../../source/session/session.js';
import {serveSessionMetrics, type ServedMetrics} from '../../source/exporter/serve.js';
import {defaultDeadlineMs} from '../../source/miner/client.js';
import type {MinerErrorKind} from '../../source/miner/errors.js';
import {UsageError} from '../../source/session/errors.js';
import {startSimulator, type SimDialect, type Simulator} from '../../source/sim/simulator.js';
import {startFaultServer, type FaultMode} from '../helpers/fault-server.js';
import {checkMetrics, freePort, parseSamples, select, type ParsedSample} from './helpers/prometheus.js';

const MINER_TOKEN = 'miner-token-5be1d0c2e7';
const METRICS_TOKEN = 'metrics-token-a41f09e3';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function exporterOf(
	targets: readonly SessionTarget[],
	intervalMs: number,
	options: {tokenFile?: string; listen?: string} = {},
): Promise<{session: Session; served: ServedMetrics; warnings: string[]}> {
	const session = createSession(targets, intervalMs);
	const warnings: string[] = [];
	const served = await serveSessionMetrics(
		session,
		{listen: [options.listen ?? '127.0.0.1:0'], flag: '--listen', tokenFile: options.tokenFile, version: '0.0.0-test'},
		(line) => warnings.push(line),
	);
	cleanups.push(async () => {
		await served.close();
		await session.close();
	});
	session.start();
	return {session, served, warnings};
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<{text: string; ms: number; samples: ParsedSample[]}> {
	const started = performance.now();
	const response = await fetch(url, {headers});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`scrape answered ${response.status}: ${text}`);
	return {text, ms: performance.now() - started, samples: parseSamples(text)};
}

async function allPolled(session: Session, polls = 1): Promise<void> {
	const deadline = Date.now() + 15_000;
	while (!session.miners.every((miner) => miner.monitor.getState().polls >= polls)) {
		if (Date.now() > deadline) throw new Error('the miners were not all polled within 15 s');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

const value = (samples: readonly ParsedSample[], name: string, where: Record<string, string>) =>
	select(samples, name, where).map((sample) => sample.value);

describe('rigtop exporter over simulated miners of every dialect', () => {
	it('serves one xmrig_up per miner, the hashrates of the live ones, nothing else of the one that is down; promtool accepts it', async () => {
		const dialects: SimDialect[] = ['6', '5', '2', '2.14'];
		const sims: Simulator[] = [];
		for (const [index, dialect] of dialects.entries()) {
			const sim = await startSimulator({
				dialect,
				warm: true,
				seed: 40 + index,
				workerId: `sim-${dialect}`,
				threads: 2 + index,
				...(dialect === '6' ? {token: MINER_TOKEN} : {}),
			});
			sims.push(sim);
			cleanups.push(async () => sim.stop());
		}

		const downPort = await freePort();
		const targets: SessionTarget[] = [
			...sims.map((sim, index) => ({url: sim.url, token: index === 0 ? MINER_TOKEN : null, name: `rig-${dialects[index]}`})),
			{url: `http://127.0.0.1:${downPort}`, token: null, name: 'rig-down'},
		];
		// A long interval: after the first polls, nothing reads the miners during the scrapes below.
		const {session, served} = await exporterOf(targets, 60_000);
		await allPolled(session);
		const before = sims.map((sim) => sim.requests.length);

		const {text, samples} = await scrape(served.url);
		for (let index = 0; index < 5; index++) await scrape(served.url);
		expect(sims.map((sim) => sim.requests.length)).toEqual(before); // a scrape never polls a miner

		expect(select(samples, 'xmrig_up').map((sample) => [sample.labels['miner'], sample.value])).toEqual([
			['rig-6', 1],
			['rig-5', 1],
			['rig-2', 1],
			['rig-2.14', 1],
			['rig-down', 0],
		]);
		expect(value(samples, 'xmrig_poll_error', {miner: 'rig-down'})).toEqual([1]);
		expect(select(samples, 'xmrig_poll_error', {miner: 'rig-down'})[0]!.labels['reason']).toBe('unreachable');
		for (const [index, dialect] of dialects.entries()) {
			const miner = `rig-${dialect}`;
			expect(select(samples, 'xmrig_hashrate_hashes_per_second', {miner}).map((sample) => sample.labels['window'])).toEqual([
				'10s',
				'60s',
				'15m',
			]);
			expect(select(samples, 'xmrig_thread_hashrate_hashes_per_second', {miner, window: '10s'})).toHaveLength(2 + index);
			expect(select(samples, 'xmrig_miner_info', {miner})[0]!.labels).toMatchObject({
				worker_id: `sim-${dialect}`,
				dialect: index < 2 ? 'v2' : 'v1',
			});
		}

		const downSeries = samples.filter((sample) => sample.labels['miner'] === 'rig-down').map((sample) => sample.name);
		expect(downSeries.sort()).toEqual(
			[
				'xmrig_exporter_poll_duration_seconds',
				'xmrig_exporter_poll_failures_total',
				'xmrig_exporter_polls_total',
				'xmrig_poll_error',
				'xmrig_up',
			].sort(),
		);
		expect(text).not.toContain(MINER_TOKEN);
		const check = await checkMetrics(text);
		expect(check.stdout + check.stderr).toBe('');
		expect(check.code).toBe(0);
	});

	it('a miner that stops and comes back: its series go, then return; a restart is counted', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, seed: 7, workerId: 'flappy'});
		cleanups.push(async () => sim.stop());
		const {session, served} = await exporterOf([{url: sim.url, token: null, name: 'flappy'}], 500);
		await allPolled(session);
		expect(value((await scrape(served.url)).samples, 'xmrig_up', {miner: 'flappy'})).toEqual([1]);

		await sim.stop();
		const polls = session.miners[0]!.monitor.getState().polls;
		await allPolled(session, polls + 1);
		const down = (await scrape(served.url)).samples;
		expect(value(down, 'xmrig_up', {miner: 'flappy'})).toEqual([0]);
		expect(select(down, 'xmrig_hashrate_hashes_per_second', {miner: 'flappy'})).toEqual([]);
		expect(select(down, 'xmrig_shares_total', {miner: 'flappy'})).toEqual([]);

		sim.restartMiner();
		await sim.start();
		const deadline = Date.now() + 10_000;
		let back = down;
		while (value(back, 'xmrig_up', {miner: 'flappy'})[0] !== 1) {
			if (Date.now() > deadline) throw new Error('the miner was not seen again within 10 s');
			await new Promise((resolve) => setTimeout(resolve, 100));
			back = (await scrape(served.url)).samples;
		}

		expect(value(back, 'xmrig_restarts_total', {miner: 'flappy'})).toEqual([1]);
		expect(value(back, 'xmrig_exporter_poll_failures_total', {miner: 'flappy'})[0]).toBeGreaterThan(0);
	});

	it('--metrics-token-file: a scrape without the token is refused; the token appears nowhere', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-exporter-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const tokenFile = path.join(dir, 'metrics-token');
		writeFileSync(tokenFile, `${METRICS_TOKEN}\n`, {mode: 0o600});
		const sim = await startSimulator({dialect: '6', warm: true, token: MINER_TOKEN});
		cleanups.push(async () => sim.stop());
		const {session, served, warnings} = await exporterOf([{url: sim.url, token: MINER_TOKEN}], 60_000, {tokenFile, listen: '0.0.0.0:0'});
		await allPolled(session);
		expect(warnings).toEqual([]); // every interface, but protected: no warning
		const refused = await fetch(served.url.replace('0.0.0.0', '127.0.0.1'));
		expect(refused.status).toBe(401);
		const {text} = await scrape(served.url.replace('0.0.0.0', '127.0.0.1'), {Authorization: `Bearer ${METRICS_TOKEN}`});
		expect(text).toContain('xmrig_up{');
		expect(text).not.toContain(METRICS_TOKEN);
		expect(text).not.toContain(MINER_TOKEN);
	});

	it('warns when /metrics is reachable from other machines without a token; refuses a bad address or token file', async () => {
		const sim = await startSimulator({dialect: '6', warm: true});
		cleanups.push(async () => sim.stop());
		const {warnings} = await exporterOf([{url: sim.url, token: null}], 60_000, {listen: ':0'});
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^--listen :0 can be reached from other machines and \/metrics is not protected/);

		const session = createSession([{url: sim.url, token: null}], 60_000);
		cleanups.push(async () => session.close());
		const settings = {flag: '--metrics', version: 'x'} as const;
		await expect(serveSessionMetrics(session, {...settings, listen: ['nowhere'], tokenFile: undefined}, () => undefined)).rejects.toThrow(
			UsageError,
		);
		await expect(
			serveSessionMetrics(session, {...settings, listen: ['127.0.0.1:0'], tokenFile: '/nonexistent/token'}, () => undefined),
		).rejects.toThrow('cannot read --metrics-token-file /nonexistent/token: it does not exist');
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-exporter-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		writeFileSync(path.join(dir, 'empty'), '\n', {mode: 0o600});
		await expect(
			serveSessionMetrics(session, {...settings, listen: ['127.0.0.1:0'], tokenFile: path.join(dir, 'empty')}, () => undefined),
		).rejects.toThrow(/is empty/);
	});
});

/** Every fault that stops a miner being read, and the reason the exporter gives (the same as rigtop --once's). */
const faults: ReadonlyArray<{mode: FaultMode; kind: MinerErrorKind; hang?: boolean}> = [
	{mode: 'refused', kind: 'unreachable'},
	{mode: 'reset-before-answer', kind: 'unreachable'},
	{mode: 'reset-mid-body', kind: 'bad-payload'},
	{mode: 'no-answer', kind: 'timeout', hang: true},
	{mode: 'stall-body', kind: 'timeout', hang: true},
	{mode: 'drip', kind: 'timeout', hang: true},
	{mode: 'status-500', kind: 'server-error'},
	{mode: 'status-500-empty', kind: 'server-error'},
	{mode: 'status-503', kind: 'server-error'},
	{mode: 'status-503-empty', kind: 'server-error'},
	{mode: 'html', kind: 'bad-payload'},
	{mode: 'truncated-json', kind: 'bad-payload'},
	{mode: 'nan', kind: 'bad-payload'},
	{mode: 'wrong-shape', kind: 'incompatible'},
	{mode: 'huge', kind: 'too-large'},
	{mode: 'huge-announced', kind: 'too-large'},
	{mode: 'deep', kind: 'bad-payload'},
	{mode: 'not-http', kind: 'incompatible'},
	{mode: 'split-401', kind: 'unauthorized'},
	{mode: 'split-403', kind: 'forbidden'},
	{mode: 'split-415', kind: 'unsupported-media-type'},
	{mode: 'impostor', kind: 'incompatible'},
];

/** A scrape must not wait for a miner: far below the miner's 8 s deadline, whatever the miner does. */
const PROMPT_MS = 2000;

describe.concurrent('rigtop exporter against every fault of the fault server', () => {
	for (const fault of faults) {
		it(`${fault.mode}: scrapes answered at once throughout, the miner marked down (${fault.kind}), its series gone; back when healthy`, async (context: TestContext) => {
			const {expect} = context;
			const server = await startFaultServer({token: MINER_TOKEN, workerId: 'fault-rig', hashrate: [2500, 2400, null]});
			context.onTestFinished(async () => server.close());
			const session = createSession([{url: server.url, token: MINER_TOKEN, name: 'fault-rig'}], 1000);
			const served = await serveSessionMetrics(
				session,
				{listen: ['127.0.0.1:0'], flag: '--listen', tokenFile: undefined, version: 'x'},
				() => undefined,
			);
			context.onTestFinished(async () => {
				await served.close();
				await session.close();
			});
			session.start();
			const live = async () => value((await scrape(served.url)).samples, 'xmrig_up', {miner: 'fault-rig'})[0] === 1;
			const until = async (test: () => Promise<boolean>, ms: number, what: string, scrapes: number[]) => {
				const deadline = Date.now() + ms;
				for (;;) {
					const started = performance.now();
					const done = await test();
					scrapes.push(performance.now() - started);
					if (done) return;
					if (Date.now() > deadline) throw new Error(`${fault.mode}: not ${what} within ${ms} ms`);
					await new Promise((resolve) => setTimeout(resolve, 200));
				}
			};

			const durations: number[] = [];
			await until(live, 10_000, 'live at first', durations);
			await server.setMode(fault.mode);
			let last: ParsedSample[] = [];
			await until(
				async () => {
					last = (await scrape(served.url)).samples;
					return value(last, 'xmrig_up', {miner: 'fault-rig'})[0] === 0;
				},
				(fault.hang ? defaultDeadlineMs : 0) + 10_000,
				'marked down',
				durations,
			);
			expect(select(last, 'xmrig_poll_error', {miner: 'fault-rig'})[0]?.labels['reason']).toBe(fault.kind);
			expect(select(last, 'xmrig_hashrate_hashes_per_second', {miner: 'fault-rig'})).toEqual([]);
			expect(select(last, 'xmrig_miner_info', {miner: 'fault-rig'})).toEqual([]);
			expect(Math.max(...durations)).toBeLessThan(PROMPT_MS);

			await server.setMode('healthy');
			await until(live, 45_000, 'live again', durations);
			expect(Math.max(...durations)).toBeLessThan(PROMPT_MS);
		});
	}
});
