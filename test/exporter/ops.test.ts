/**
 * What a service manager and an operator see of the exporter besides /metrics: /-/healthy and /-/ready as Prometheus's
 * own components answer them, and the landing page with the version. Real simulated miners behind a real session.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {createSession, type Session, type SessionTarget} from '../../source/session/session.js';
import {createFleet, type Fleet} from '../../source/exporter/fleet.js';
import {exporterHelp} from '../../source/exporter/help.js';
import {prepareServing, serveMiners, serveSessionMetrics, type ServedMetrics} from '../../source/exporter/serve.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {checkMetrics, parseSamples, select, type ParsedSample} from './helpers/prometheus.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function exporterOf(targets: readonly SessionTarget[]): Promise<{session: Session; served: ServedMetrics}> {
	const session = createSession(targets, 500);
	const served = await serveSessionMetrics(
		session,
		{listen: ['127.0.0.1:0'], flag: '--listen', tokenFile: undefined, version: '1.2.3-test'},
		() => undefined,
	);
	cleanups.push(async () => {
		await served.close();
		await session.close();
	});
	return {session, served};
}

async function get(url: string, method = 'GET'): Promise<{status: number; text: string; type: string | null}> {
	const response = await fetch(url, {method});
	return {status: response.status, text: await response.text(), type: response.headers.get('content-type')};
}

describe('the exporter as a service', () => {
	it('/-/healthy is 200 at once; /-/ready is 503 until every miner has had its first poll, then 200', async () => {
		const sim = await startSimulator({dialect: '6', warm: true});
		cleanups.push(async () => sim.stop());
		const {session, served} = await exporterOf([{url: sim.url, token: null}]);
		const base = served.url.replace(/\/metrics$/, '');

		expect(await get(`${base}/-/healthy`)).toMatchObject({status: 200, text: 'rigtop exporter is Healthy.\n'});
		expect((await get(`${base}/-/healthy`, 'HEAD')).status).toBe(200);
		// Not started: no poll yet.
		const before = await get(`${base}/-/ready`);
		expect(before.status).toBe(503);
		expect(before.text).toMatch(/first poll/);

		session.start();
		await session.firstPolls(10_000);
		expect(await get(`${base}/-/ready`)).toMatchObject({status: 200, text: 'rigtop exporter is Ready.\n'});
	});

	it('a miner that cannot be read still counts as polled: ready once its first poll failed', async () => {
		const {session, served} = await exporterOf([{url: '127.0.0.1:9', token: null}]);
		const base = served.url.replace(/\/metrics$/, '');
		expect((await get(`${base}/-/ready`)).status).toBe(503);
		session.start();
		await session.firstPolls(10_000);
		expect((await get(`${base}/-/ready`)).status).toBe(200);
	});

	it('the landing page names rigtop and its version and links /metrics and the health endpoints', async () => {
		const {served} = await exporterOf([{url: '127.0.0.1:9', token: null}]);
		const page = await get(served.url.replace(/\/metrics$/, '/'));
		expect(page.status).toBe(200);
		expect(page.type).toMatch(/^text\/html/);
		expect(page.text).toContain('<h1>rigtop exporter 1.2.3-test</h1>');
		for (const link of ['/metrics', '/-/healthy', '/-/ready']) expect(page.text).toContain(`href="${link}"`);
	});
});

/** One miner's series in a scrape: every sample carrying its `miner` label. */
const seriesOf = (samples: readonly ParsedSample[], miner: string) => samples.filter((sample) => sample.labels['miner'] === miner).length;

/** The figures `rigtop exporter --help` states: "about B series plus T per CPU thread; about N with --no-thread-metrics". */
function helpFigures(): {base: number; perThread: number; without: number} {
	const help = exporterHelp().replaceAll(/\s+/g, ' ');
	const match = /about (\d+) series plus (\d+) per CPU thread.*?about (\d+) with --no-thread-metrics/.exec(help);
	if (!match) throw new Error(`the help states no series counts:\n${help}`);
	return {base: Number(match[1]), perThread: Number(match[2]), without: Number(match[3])};
}

describe('--no-thread-metrics', () => {
	async function fleetExporter(targets: readonly SessionTarget[], threads: boolean): Promise<{fleet: Fleet; url: string}> {
		const fleet = createFleet(targets, 250, {threads});
		const prepared = await prepareServing({listen: ['127.0.0.1:0'], flag: '--listen', tokenFile: undefined}, () => undefined);
		const served = await serveMiners(fleet, prepared, '0.0.0-test');
		cleanups.push(async () => {
			await served.close();
			await fleet.close();
		});
		fleet.start();
		return {fleet, url: served.url};
	}

	async function polled(fleet: Fleet, polls: number): Promise<void> {
		const deadline = Date.now() + 15_000;
		while (!fleet.miners.every((miner) => miner.monitor.getState().polls >= polls)) {
			if (Date.now() > deadline) throw new Error(`not polled ${polls} times within 15 s`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}

	it('drops the per-thread series and stops reading /2/backends; the help states the counts within 10%', async () => {
		const sims = [
			await startSimulator({dialect: '6', warm: true, threads: 2, workerId: 'two'}),
			await startSimulator({dialect: '6', warm: true, threads: 8, workerId: 'eight'}),
			await startSimulator({dialect: '6', warm: true, threads: 8, workerId: 'lean'}),
		];
		for (const sim of sims) cleanups.push(async () => sim.stop());
		const full = await fleetExporter(
			[
				{url: sims[0]!.url, token: null, name: 'two'},
				{url: sims[1]!.url, token: null, name: 'eight'},
			],
			true,
		);
		const lean = await fleetExporter([{url: sims[2]!.url, token: null, name: 'lean'}], false);
		await polled(full.fleet, 3);
		await polled(lean.fleet, 3);
		const backendsBefore = sims[2]!.requests.filter((request) => request.path === '/2/backends').length;
		await polled(lean.fleet, 6);
		const fullSamples = parseSamples(await (await fetch(full.url)).text());
		const leanText = await (await fetch(lean.url)).text();
		const leanSamples = parseSamples(leanText);

		expect(leanText).not.toContain('xmrig_thread_hashrate_hashes_per_second');
		expect(select(leanSamples, 'xmrig_hashrate_hashes_per_second', {miner: 'lean'}).length).toBeGreaterThan(0);
		// At most the one read that told the dialect; none at the later polls.
		expect(sims[2]!.requests.filter((request) => request.path === '/2/backends').length).toBe(backendsBefore);
		expect(backendsBefore).toBeLessThanOrEqual(1);
		expect(sims[1]!.requests.filter((request) => request.path === '/2/backends').length).toBeGreaterThanOrEqual(3);

		const two = seriesOf(fullSamples, 'two');
		const eight = seriesOf(fullSamples, 'eight');
		const without = seriesOf(leanSamples, 'lean');
		const perThread = (eight - two) / 6;
		const base = two - 2 * perThread;
		const stated = helpFigures();
		process.stdout.write(`series per miner: ${base} + ${perThread} per thread; ${without} with --no-thread-metrics\n`);
		expect(stated.perThread).toBe(perThread);
		expect(Math.abs(stated.base - base) / base).toBeLessThanOrEqual(0.1);
		expect(Math.abs(stated.without - without) / without).toBeLessThanOrEqual(0.1);
	});
});

describe('freshness and identity per miner; the exporter heap', () => {
	it('last good poll time, a start time that two exporters agree on, the heap; promtool accepts it', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'steady'});
		cleanups.push(async () => sim.stop());
		const target = {url: sim.url, token: null, name: 'steady'};
		const first = await exporterOf([target]);
		const before = Date.now() / 1000;
		first.session.start();
		await first.session.firstPolls(10_000);
		const after = Date.now() / 1000;
		const text = await (await fetch(first.served.url)).text();
		const samples = parseSamples(text);
		const lastSuccess = select(samples, 'xmrig_last_success_timestamp_seconds', {miner: 'steady'})[0]!.value;
		expect(lastSuccess).toBeGreaterThanOrEqual(before - 0.001);
		expect(lastSuccess).toBeLessThanOrEqual(after + 0.001);
		const uptime = select(samples, 'xmrig_uptime_seconds', {miner: 'steady'})[0]!.value;
		const started = select(samples, 'xmrig_start_time_seconds', {miner: 'steady'})[0]!.value;
		expect(Math.abs(started - (lastSuccess - uptime))).toBeLessThanOrEqual(0.5);
		expect(Number.isInteger(started)).toBe(true);

		// A second exporter (as after a restart): its restart count starts again, the miner's start time does not move.
		const second = await exporterOf([target]);
		second.session.start();
		await second.session.firstPolls(10_000);
		const again = parseSamples(await (await fetch(second.served.url)).text());
		expect(Math.abs(select(again, 'xmrig_start_time_seconds', {miner: 'steady'})[0]!.value - started)).toBeLessThanOrEqual(1);
		expect(select(again, 'xmrig_restarts_total', {miner: 'steady'})[0]!.value).toBe(0);

		const used = select(samples, 'nodejs_heap_size_used_bytes')[0]!.value;
		const total = select(samples, 'nodejs_heap_size_total_bytes')[0]!.value;
		const limit = select(samples, 'nodejs_heap_size_limit_bytes')[0]!.value;
		expect(used).toBeGreaterThan(0);
		expect(used).toBeLessThanOrEqual(total);
		expect(total).toBeLessThan(limit);
		const checked = await checkMetrics(text);
		expect(checked.stderr + checked.stdout).toBe('');
		expect(checked.code).toBe(0);
	});

	it('keeps the last good poll time while the miner is down, and drops its start time', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'leaving'});
		const {session, served} = await exporterOf([{url: sim.url, token: null, name: 'leaving'}]);
		session.start();
		await session.firstPolls(10_000);
		const good = select(parseSamples(await (await fetch(served.url)).text()), 'xmrig_last_success_timestamp_seconds')[0]!.value;
		await sim.stop();
		const miner = session.miners[0]!.monitor;
		const deadline = Date.now() + 15_000;
		while (miner.getState().status === 'live') {
			if (Date.now() > deadline) throw new Error('the miner did not go down');
			await new Promise((resolve) => setTimeout(resolve, 50));
		}

		const down = parseSamples(await (await fetch(served.url)).text());
		expect(select(down, 'xmrig_up')[0]!.value).toBe(0);
		expect(select(down, 'xmrig_last_success_timestamp_seconds')[0]!.value).toBe(good);
		expect(select(down, 'xmrig_start_time_seconds')).toEqual([]);
	});
});

describe('rigtop exporter --help', () => {
	it('fits 80 columns and names every flag of the exporter, the endpoints and the signals', () => {
		const help = exporterHelp();
		for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
		for (const word of [
			'--listen',
			'--metrics-token-file',
			'--no-thread-metrics',
			'--no-worker-metrics',
			'--worker-metrics-limit',
			'xmrig_proxy_',
			'--log.format',
			'--log.level',
			'/-/healthy',
			'/-/ready',
			'SIGHUP',
			'SIGTERM',
		])
			expect(help).toContain(word);
	});
});

describe('the fleet a reload reconciles', () => {
	it('keeps the monitor of a rig with the same URL and token (renamed or not), makes a new one when the token changed', async () => {
		const fleet = createFleet(
			[
				{url: 'http://127.0.0.1:9', token: 'a', name: 'one'},
				{url: 'http://127.0.0.1:10', token: null, name: 'two'},
			],
			1000,
		);
		cleanups.push(async () => fleet.close());
		const [one, two] = fleet.miners;
		const {added, removed} = fleet.reconcile([
			{url: 'http://127.0.0.1:9', token: 'a', name: 'uno'},
			{url: 'http://127.0.0.1:10', token: 'b', name: 'two'},
		]);
		expect(fleet.miners[0]!.monitor).toBe(one!.monitor);
		expect(fleet.miners[0]!.target.name).toBe('uno');
		expect(fleet.miners[1]!.monitor).not.toBe(two!.monitor);
		expect(added.map((miner) => miner.target.token)).toEqual(['b']);
		expect(removed).toEqual([two]);
	});
});
