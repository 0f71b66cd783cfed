/**
 * `rigtop exporter`'s fleet and collector with a simulated xmrig-proxy over a real loopback socket, beside a simulated
 * miner: each rig under its own families, the proxy's counters following its shares and restarts, the per-worker
 * series' flags and limits, hostile worker names, and no pool password or token anywhere in a scrape.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {createFleet, type Fleet} from '../../source/exporter/fleet.js';
import {exporterHelp} from '../../source/exporter/help.js';
import {prepareServing, serveMiners} from '../../source/exporter/serve.js';
import type {WorkerMetrics} from '../../source/exporter/worker-metrics.js';
import type {SessionTarget} from '../../source/session/session.js';
import {startSimulator, type ProxyMinerSpec, type ProxySimulator} from '../../source/sim/simulator.js';
import {checkMetrics, parseSamples, select, type ParsedSample} from './helpers/prometheus.js';

const TOKEN = 'proxy-token-5d1e';
const PASSWORD = 'pool-pass-never-shown-71';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A proxy with exact numbers: no life events, miners that hash nothing until a test submits their shares. */
async function quietProxy(miners: readonly ProxyMinerSpec[], workerId = 'proxy-sim', restricted = true): Promise<ProxySimulator> {
	const sim = await startSimulator({kind: 'proxy', seed: 3, lifeEvents: false, token: TOKEN, workerId, miners, restricted});
	cleanups.push(async () => sim.stop());
	return sim;
}

const spec = (name: string, hashrate = 0): ProxyMinerSpec => ({name, user: 'wallet', password: PASSWORD, ip: '10.0.0.7', hashrate});

type Exporter = {fleet: Fleet; url: string; notices: string[]; scrape: () => Promise<{text: string; samples: ParsedSample[]}>};

async function exporter(targets: readonly SessionTarget[], options: {threads?: boolean; workers?: WorkerMetrics} = {}): Promise<Exporter> {
	const fleet = createFleet(targets, 250, {threads: options.threads ?? true, workers: options.workers?.enabled ?? true});
	const prepared = await prepareServing({listen: ['127.0.0.1:0'], flag: '--listen', tokenFile: undefined}, () => undefined);
	const notices: string[] = [];
	const served = await serveMiners(fleet, prepared, '0.0.0-test', {
		...(options.workers ? {workers: options.workers} : {}),
		notice: (line) => notices.push(line),
	});
	cleanups.push(async () => {
		await served.close();
		await fleet.close();
	});
	fleet.start();
	const scrape = async () => {
		const text = await (await fetch(served.url)).text();
		return {text, samples: parseSamples(text)};
	};

	return {fleet, url: served.url, notices, scrape};
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const value = (samples: readonly ParsedSample[], metric: string, labels: Record<string, string>) =>
	select(samples, metric, labels).map((sample) => sample.value);

describe('a proxy beside a miner in one exporter', () => {
	it('each rig has its own families, xmrig_up and xmrig_miner_info; submitted shares move the counters by exactly n', async () => {
		const proxy = await quietProxy([spec('alpha'), spec('beta')]);
		const miner = await startSimulator({dialect: '6', warm: true, workerId: 'miner-sim', threads: 2});
		cleanups.push(async () => miner.stop());
		const {scrape} = await exporter([
			{url: proxy.url, token: TOKEN, name: 'the-proxy'},
			{url: miner.url, token: null, name: 'the-miner'},
		]);
		const first = await until('both rigs read, the workers listed', async () => {
			const {samples} = await scrape();
			return select(samples, 'xmrig_up').filter((s) => s.value === 1).length === 2 &&
				select(samples, 'xmrig_proxy_worker_connections').length === 2
				? samples
				: undefined;
		});

		const kinds = select(first, 'xmrig_miner_info').map((s) => [s.labels['miner'], s.labels['kind'] === 'proxy']);
		expect(kinds).toEqual([
			['the-proxy', true],
			['the-miner', false],
		]);
		// The proxy's own families only; the miner's own only.
		const names = (miner: string) => new Set(first.filter((s) => s.labels['miner'] === miner).map((s) => s.name));
		const proxyNames = names('the-proxy');
		const minerNames = names('the-miner');
		expect(proxyNames).toContain('xmrig_proxy_hashrate_hashes_per_second');
		expect(proxyNames).not.toContain('xmrig_hashrate_hashes_per_second');
		expect(proxyNames).not.toContain('xmrig_shares_total');
		expect(proxyNames).not.toContain('xmrig_pool_connected');
		expect([...minerNames].filter((name) => name.startsWith('xmrig_proxy_'))).toEqual([]);
		expect(minerNames).toContain('xmrig_hashrate_hashes_per_second');
		expect(minerNames).toContain('xmrig_thread_hashrate_hashes_per_second');
		expect(value(first, 'xmrig_proxy_upstreams', {miner: 'the-proxy', state: 'active'})).toEqual([1]);
		expect(value(first, 'xmrig_proxy_miners', {miner: 'the-proxy'})).toEqual([2]);

		const shares = (samples: readonly ParsedSample[], result: string) =>
			value(samples, 'xmrig_proxy_shares_total', {miner: 'the-proxy', result})[0]!;
		const workerShares = (samples: readonly ParsedSample[], worker: string) =>
			value(samples, 'xmrig_proxy_worker_shares_total', {miner: 'the-proxy', worker, result: 'accepted'})[0]!;
		const before = shares(first, 'accepted');
		const alphaBefore = workerShares(first, 'alpha');
		proxy.submitShares('alpha', 5);
		const after = await until('the shares in a scrape', async () => {
			const {samples} = await scrape();
			return shares(samples, 'accepted') !== before ? samples : undefined;
		});
		expect(shares(after, 'accepted') - before).toBe(5);
		expect(workerShares(after, 'alpha') - alphaBefore).toBe(5);
		expect(workerShares(after, 'beta')).toBe(workerShares(first, 'beta'));
		// The last share time is the proxy's, in seconds.
		const lastShare = value(after, 'xmrig_proxy_worker_last_share_timestamp_seconds', {miner: 'the-proxy', worker: 'alpha'})[0]!;
		expect(Math.abs(lastShare - Date.now() / 1000)).toBeLessThan(60);

		const checked = await checkMetrics((await scrape()).text);
		expect(checked.stdout + checked.stderr).toBe('');
		expect(checked.code).toBe(0);
	});

	it("a proxy restart moves its start time on and its counters back; a worker gone from the proxy's list has no series", async () => {
		const proxy = await quietProxy([spec('stays'), spec('leaves')]);
		const {scrape} = await exporter([{url: proxy.url, token: TOKEN, name: 'p'}]);
		proxy.submitShares('stays', 3);
		proxy.submitShares('leaves', 2);
		const before = await until('the shares', async () => {
			const {samples} = await scrape();
			return value(samples, 'xmrig_proxy_shares_total', {result: 'accepted'})[0] === 5 ? samples : undefined;
		});
		const startedBefore = value(before, 'xmrig_start_time_seconds', {miner: 'p'})[0]!;
		const uptime = value(before, 'xmrig_uptime_seconds', {miner: 'p'})[0]!;
		const polled = value(before, 'xmrig_last_success_timestamp_seconds', {miner: 'p'})[0]!;
		expect(Math.abs(startedBefore - (polled - uptime))).toBeLessThanOrEqual(1);

		// Its miner leaves: still listed, 0 connections, still served.
		proxy.dropWorker('leaves');
		await until('the worker at 0 connections', async () => {
			const {samples} = await scrape();
			return value(samples, 'xmrig_proxy_worker_connections', {worker: 'leaves'})[0] === 0 ? true : undefined;
		});
		// The proxy restarts: the miners connected now log in again, the one that left is forgotten.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		proxy.restartProxy();
		const after = await until('the restarted proxy', async () => {
			const {samples} = await scrape();
			return value(samples, 'xmrig_proxy_shares_total', {result: 'accepted'})[0] === 0 ? samples : undefined;
		});
		expect(value(after, 'xmrig_start_time_seconds', {miner: 'p'})[0]!).toBeGreaterThan(startedBefore);
		expect(select(after, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker'])).toEqual(['stays']);
		expect((await scrape()).text).not.toContain('worker="leaves"');
	});
});

describe('a reload (SIGHUP) that adds and removes a proxy', () => {
	it("a proxy added to the rigs is polled and served under its own families; one removed takes its workers' series with it", async () => {
		const miner = await startSimulator({dialect: '6', warm: true, workerId: 'stays'});
		cleanups.push(async () => miner.stop());
		const proxy = await quietProxy([spec('added-1', 2000)]);
		const fleet = createFleet([{url: miner.url, token: null, name: 'miner'}], 250);
		const prepared = await prepareServing({listen: ['127.0.0.1:0'], flag: '--listen', tokenFile: undefined}, () => undefined);
		const served = await serveMiners(fleet, prepared, '0.0.0-test');
		cleanups.push(async () => {
			await served.close();
			await fleet.close();
		});
		fleet.start();
		const scrape = async () => parseSamples(await (await fetch(served.url)).text());

		const {added} = fleet.reconcile([
			{url: miner.url, token: null, name: 'miner'},
			{url: proxy.url, token: TOKEN, name: 'late-proxy'},
		]);
		served.setMiners(fleet.miners);
		expect(added).toHaveLength(1);
		const samples = await until('the added proxy and its worker', async () => {
			const found = await scrape();
			return select(found, 'xmrig_proxy_worker_connections', {miner: 'late-proxy'}).length === 1 ? found : undefined;
		});
		expect(value(samples, 'xmrig_up', {miner: 'late-proxy'})).toEqual([1]);
		expect(select(samples, 'xmrig_hashrate_hashes_per_second', {miner: 'late-proxy'})).toEqual([]);
		expect(select(samples, 'xmrig_hashrate_hashes_per_second', {miner: 'miner'}).length).toBeGreaterThan(0);

		fleet.reconcile([{url: miner.url, token: null, name: 'miner'}]);
		served.setMiners(fleet.miners);
		const after = await scrape();
		expect(after.filter((sample) => sample.labels['miner'] === 'late-proxy')).toEqual([]);
		expect(value(after, 'xmrig_up', {miner: 'miner'})).toEqual([1]);
	});
});

describe('per-worker series: flags, limits, names and secrets', () => {
	it('--no-worker-metrics: no per-worker series and no /1/workers read after the first; the help states the counts', async () => {
		const proxy = await quietProxy([spec('w1'), spec('w2'), spec('w3')]);
		const lean = await quietProxy([spec('w1'), spec('w2'), spec('w3')], 'lean-sim');
		const full = await exporter([{url: proxy.url, token: TOKEN, name: 'full'}]);
		const none = await exporter([{url: lean.url, token: TOKEN, name: 'lean'}], {workers: {enabled: false, limit: 1000}});
		const polls = async (fleet: Fleet, n: number) =>
			until(`${n} polls`, async () => (fleet.miners.every((m) => m.monitor.getState().polls >= n) ? true : undefined));
		// Every worker of the full one has shared once (a last share time is served from the first share on).
		for (const name of ['w1', 'w2', 'w3']) {
			proxy.submitShares(name, 1);
			lean.submitShares(name, 1);
		}

		await polls(full.fleet, 3);
		await polls(none.fleet, 3);
		const workersBefore = lean.requests.filter((request) => request.path === '/1/workers').length;
		await polls(none.fleet, 6);
		expect(lean.requests.filter((request) => request.path === '/1/workers').length).toBe(workersBefore);
		expect(workersBefore).toBeLessThanOrEqual(1);
		expect(proxy.requests.filter((request) => request.path === '/1/workers').length).toBeGreaterThanOrEqual(3);

		const fullSamples = (await full.scrape()).samples;
		const leanScrape = await none.scrape();
		expect(leanScrape.text).not.toContain('xmrig_proxy_worker_');
		expect(value(leanScrape.samples, 'xmrig_proxy_workers', {miner: 'lean'})).toEqual([3]);

		const own = leanScrape.samples.filter((s) => s.labels['miner'] === 'lean').length;
		const perWorker = (fullSamples.filter((s) => s.labels['miner'] === 'full').length - own - 1) / 3;
		const help = exporterHelp().replaceAll(/\s+/g, ' ');
		const stated = /stay: about (\d+)\).*?highest 10 min hashrates \(1000; (\d+) series each\)/.exec(help);
		expect(stated).not.toBeNull();
		process.stdout.write(`proxy series: ${own} of its own + ${perWorker} per worker\n`);
		expect(Number(stated![2])).toBe(perWorker);
		expect(Math.abs(Number(stated![1]) - own) / own).toBeLessThanOrEqual(0.1);
	});

	it('--worker-metrics-limit keeps the fastest workers and says once in the log which it left out', async () => {
		const proxy = await startSimulator({
			kind: 'proxy',
			seed: 5,
			lifeEvents: false,
			warm: true,
			token: TOKEN,
			miners: [spec('slow', 1000), spec('fast', 9000), spec('mid', 5000), spec('crawl', 500)],
		});
		cleanups.push(async () => proxy.stop());
		const {scrape, notices, fleet} = await exporter([{url: proxy.url, token: TOKEN, name: 'limited'}], {
			workers: {enabled: true, limit: 2},
		});
		const samples = await until('the workers', async () => {
			const {samples} = await scrape();
			return select(samples, 'xmrig_proxy_worker_connections').length > 0 ? samples : undefined;
		});
		expect(select(samples, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker'])).toEqual(['fast', 'mid']);
		expect(value(samples, 'xmrig_exporter_proxy_workers_omitted', {miner: 'limited'})).toEqual([2]);
		await until('more polls', async () => (fleet.miners[0]!.monitor.getState().polls >= 4 ? true : undefined));
		// Once, however many polls: the two slowest named (in the order of their rates, which the proxy measured).
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(
			/^limited: 4 workers, more than --worker-metrics-limit 2: the 2 with the lowest 10 min hashrate have no per-worker series \("(slow|crawl)", "(slow|crawl)"\); xmrig_exporter_proxy_workers_omitted counts them at each scrape$/,
		);
		expect(notices[0]).toContain('"slow"');
		expect(notices[0]).toContain('"crawl"');
	});

	it('hostile worker names (quotes, backslashes, line feeds, 10 kB) never break a scrape; promtool accepts it', async () => {
		const long = 'z'.repeat(10_240);
		const hostile = ['quote " name', 'back\\slash', 'new\nline} 1\nxmrig_up{miner="forged"} 1', long, `${long}!`];
		const proxy = await quietProxy([spec('plain'), ...hostile.map((name) => spec(name))]);
		const {scrape} = await exporter([{url: proxy.url, token: TOKEN, name: 'hostile'}]);
		const {text, samples} = await until('the workers', async () => {
			const scraped = await scrape();
			return select(scraped.samples, 'xmrig_proxy_worker_connections').length === hostile.length + 1 ? scraped : undefined;
		});
		expect(select(samples, 'xmrig_up').map((s) => s.labels['miner'])).toEqual(['hostile']);
		const workers = select(samples, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker']!);
		expect(new Set(workers).size).toBe(workers.length);
		expect(workers).toContain('quote " name');
		expect(workers).toContain('back\\slash');
		expect(workers).toContain('new line} 1 xmrig_up{miner="forged"} 1');
		for (const line of text.split('\n')) expect(line.length).toBeLessThan(1000);
		const checked = await checkMetrics(text);
		expect(checked.stdout + checked.stderr).toBe('');
		expect(checked.code).toBe(0);
	});

	it('a proxy switched to name its workers by pool password ("workers": "password") serves no worker, and says so once', async () => {
		const proxy = await quietProxy([spec('by-name', 1000)], 'writable', false);
		const {scrape, notices} = await exporter([{url: proxy.url, token: TOKEN, name: 'by-pass'}]);
		await until('the worker by name', async () =>
			select((await scrape()).samples, 'xmrig_proxy_worker_connections').length === 1 ? true : undefined,
		);
		// The proxy's config changed through its own API, as an operator would.
		const config = JSON.parse(proxy.configText()) as Record<string, unknown>;
		const put = await fetch(`${proxy.url}/1/config`, {
			method: 'PUT',
			headers: {authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json'},
			body: JSON.stringify({...config, workers: 'password'}),
		});
		expect(put.status).toBe(204);
		const text = await until('the workers gone from the scrape', async () => {
			const scraped = await scrape();
			return scraped.text.includes('xmrig_proxy_worker_') ? undefined : scraped.text;
		});
		expect(text).not.toContain(PASSWORD);
		expect(text).toContain('xmrig_proxy_workers{miner="by-pass"}');
		expect(notices).toEqual([
			'by-pass: the proxy names its 1 worker by their pool password ("workers": "password" in its config): no per-worker series are served for it',
		]);
		expect(notices.join('\n')).not.toContain(PASSWORD);
	});

	it("neither the miners' pool password nor the proxy's token is in any scrape, nor /1/miners read", async () => {
		const proxy = await quietProxy([spec('p1', 2000), spec('p2', 3000)]);
		const {url, fleet} = await exporter([{url: proxy.url, token: TOKEN, name: 'secretive'}]);
		await until('a few polls', async () => (fleet.miners[0]!.monitor.getState().polls >= 3 ? true : undefined));
		for (const format of ['text/plain', 'application/openmetrics-text; version=1.0.0']) {
			const text = await (await fetch(url, {headers: {accept: format}})).text();
			expect(text).toContain('xmrig_proxy_worker_connections');
			expect(text).not.toContain(PASSWORD);
			expect(text).not.toContain(TOKEN);
		}

		expect(proxy.requests.filter((request) => request.path === '/1/miners')).toEqual([]);
	});
});
