/**
 * The whole chain a user sets up, with the real engine: the built `rigtop exporter --rigs rigs.json` watching
 * simulated miners of every dialect rigtop reads plus one that is down, a real Prometheus (Debian's package) scraping
 * it with docs/prometheus/alerts.yml loaded, and assertions made through Prometheus's HTTP query API: one xmrig_up per
 * miner with the right value, hashrate series for each live miner and none for the down one, the shipped alert pending
 * for the down miner only, every rule evaluating without error, and every query of the shipped Grafana dashboard
 * running without error. Two simulated xmrig-proxies sit beside the miners in the same rigs file: one warm with
 * workers sharing (the dashboard's proxy panels have data), one whose miners hash nothing, so that shares submitted
 * by the test move its counters by exactly that many in Prometheus; one of its workers has a hostile name. Also the
 * live view's --metrics, scraped while the dashboard is on screen. Beside the exporter, a stand-in node_exporter on
 * loopback serves what node_exporter's hwmon and rapl collectors serve on a rig (a k10temp, an NVMe drive, a package's
 * energy counter running at 65 W), scraped as docs/prometheus/prometheus.yml scrapes it, with the `host` label both jobs
 * get, so docs/prometheus/node-exporter.yml's rules and the dashboard's hashes per watt and CPU temperature panels have data.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {createServer, type Server} from 'node:http';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parse} from 'yaml';
import {startSimulator, type ProxySimulator, type SimDialect, type Simulator} from '../../source/sim/simulator.js';
import {
	eventually,
	freePort,
	parseSamples,
	promqlMetricNames,
	select,
	startPrometheus,
	type RunningPrometheus,
} from '../exporter/helpers/prometheus.js';
import {readSynthetic} from '../helpers/captures.js';
import {json, startReplayMiner, type ReplayMiner} from '../miner/helpers/replay-miner.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const docs = path.resolve('docs/prometheus');
const ODD_NAME = 'rig "quoted" \\ ✓';
/** The proxies' token and their miners' pool password: neither may be in any scrape. */
const PROXY_TOKEN = 'e2e-proxy-token-93ac';
const POOL_PASSWORD = 'e2e-pool-password-6f2';
const HOSTILE_WORKER = 'worker "with" \\ quotes';

type Vector = Array<{metric: Record<string, string>; value: [number, string]}>;

let dir = '';
const sims: Array<Simulator | ProxySimulator> = [];
let exactProxy: ProxySimulator | null = null;
const replays: ReplayMiner[] = [];
let exporter: ChildProcess | null = null;
let exporterLog = '';
let metricsUrl = '';
let prometheus: RunningPrometheus | null = null;
let nodeExporter: Server | null = null;
let nodeExporterUrl = '';

/** Package watts of the stand-in node_exporter's RAPL counter. */
const PACKAGE_WATTS = 65;

/** node_exporter's lines for a rig's hwmon and rapl (its collectors' names, labels and units), the energy counter at PACKAGE_WATTS. */
function nodeExporterText(joules: number): string {
	return [
		'# HELP node_hwmon_chip_names Annotation metric for human-readable chip names',
		'# TYPE node_hwmon_chip_names gauge',
		'node_hwmon_chip_names{chip="nvme_nvme0",chip_name="nvme"} 1',
		'node_hwmon_chip_names{chip="pci0000:00_0000:00:18_3",chip_name="k10temp"} 1',
		'# HELP node_hwmon_sensor_label Label for given chip and sensor',
		'# TYPE node_hwmon_sensor_label gauge',
		'node_hwmon_sensor_label{chip="pci0000:00_0000:00:18_3",label="Tctl",sensor="temp1"} 1',
		'node_hwmon_sensor_label{chip="pci0000:00_0000:00:18_3",label="Tccd1",sensor="temp3"} 1',
		'# HELP node_hwmon_temp_celsius Hardware monitor for temperature (input)',
		'# TYPE node_hwmon_temp_celsius gauge',
		'node_hwmon_temp_celsius{chip="nvme_nvme0",sensor="temp1"} 44.85',
		'node_hwmon_temp_celsius{chip="pci0000:00_0000:00:18_3",sensor="temp1"} 71.5',
		'node_hwmon_temp_celsius{chip="pci0000:00_0000:00:18_3",sensor="temp3"} 68.25',
		'# HELP node_rapl_package_joules_total Current RAPL package value in joules',
		'# TYPE node_rapl_package_joules_total counter',
		`node_rapl_package_joules_total{index="0",path="/sys/class/powercap/intel-rapl:0"} ${joules.toFixed(6)}`,
		'',
	].join('\n');
}

async function startNodeExporter(): Promise<string> {
	const started = Date.now();
	nodeExporter = createServer((request, response) => {
		response.writeHead(request.url === '/metrics' ? 200 : 404, {'Content-Type': 'text/plain; version=0.0.4; charset=utf-8'});
		response.end(request.url === '/metrics' ? nodeExporterText(24_061.25 + (PACKAGE_WATTS * (Date.now() - started)) / 1000) : '');
	});
	await new Promise<void>((resolve) => nodeExporter!.listen(0, '127.0.0.1', resolve));
	const address = nodeExporter.address();
	if (address === null || typeof address === 'string') throw new Error('the stand-in node_exporter has no port');
	return `http://127.0.0.1:${address.port}/metrics`;
}
/** rig name → whether it is up. */
const expected = new Map<string, boolean>();
/** The rigs that are xmrig-proxies. */
const PROXIES = ['proxy-warm', 'proxy-exact'];

async function startExporter(rigsFile: string): Promise<string> {
	const env = {...process.env};
	delete env['CI'];
	const child = spawn('node', [CLI, 'exporter', '--rigs', rigsFile, '--listen', '127.0.0.1:0', '--interval', '1'], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	exporter = child;
	return new Promise((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			exporterLog += chunk.toString();
			const match = /serving (http:\/\/\S+\/metrics)/.exec(exporterLog);
			if (match) resolve(match[1]!);
		});
		child.once('exit', (code) => reject(new Error(`rigtop exporter exited (${code}) before serving:\n${exporterLog}`)));
	});
}

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-prometheus-'));
	const rigs: Array<{name: string; url: string; tokenFile?: string}> = [];
	// The simulator's dialects: 6.x and 5.x (/2/summary + /2/backends), 2.16 and 2.14 (/1/summary + /1/threads).
	for (const [index, dialect] of (['6', '5', '2', '2.14'] as SimDialect[]).entries()) {
		const sim = await startSimulator({dialect, warm: true, seed: 90 + index, workerId: `sim-${dialect}`, threads: 2});
		sims.push(sim);
		rigs.push({name: index === 0 ? ODD_NAME : `rig-${dialect}`, url: sim.url});
	}

	// The two dialects only older or odd miners speak, replayed from payloads of their shape.
	const legacy = await startReplayMiner({
		'GET /1/summary': json(readSynthetic('v6-live-summary-v1.json')),
		'GET /2/backends': json(readSynthetic('v6-live-backends.json')),
	});
	const summaryOnly = await startReplayMiner({}, json(readSynthetic('v2.5-summary.json')));
	// A GPU miner (xmrig-nvidia 2.14: health per GPU thread), so the dashboard's GPU panels have data too.
	const nvidia = await startReplayMiner(
		{'GET /1/threads': json(readSynthetic('nvidia-2.14-threads.json'))},
		json(readSynthetic('nvidia-2.14-summary.json')),
	);
	replays.push(legacy, summaryOnly, nvidia);
	rigs.push({name: 'rig-legacy-summary', url: legacy.url}, {name: 'rig-2.5', url: summaryOnly.url}, {name: 'rig-nvidia', url: nvidia.url});
	rigs.push({name: 'rig-down', url: `127.0.0.1:${await freePort()}`});

	// Two xmrig-proxies beside the miners (a token each, read from a file as the rigs file says).
	writeFileSync(path.join(dir, 'proxy.token'), `${PROXY_TOKEN}\n`, {mode: 0o600});
	const warm = await startSimulator({
		kind: 'proxy',
		warm: true,
		lifeEvents: false,
		seed: 41,
		token: PROXY_TOKEN,
		workerId: 'proxy-warm',
		workers: 4,
	});
	exactProxy = await startSimulator({
		kind: 'proxy',
		lifeEvents: false,
		seed: 42,
		token: PROXY_TOKEN,
		workerId: 'proxy-exact',
		miners: [
			{name: 'exact-1', user: 'wallet', password: POOL_PASSWORD, hashrate: 0},
			{name: HOSTILE_WORKER, user: 'wallet', password: POOL_PASSWORD, hashrate: 0},
		],
	});
	sims.push(warm, exactProxy);
	rigs.push(
		{name: 'proxy-warm', url: warm.url, tokenFile: 'proxy.token'},
		{name: 'proxy-exact', url: exactProxy.url, tokenFile: 'proxy.token'},
	);
	for (const rig of rigs) expected.set(rig.name, rig.name !== 'rig-down');

	const rigsFile = path.join(dir, 'rigs.json');
	writeFileSync(rigsFile, JSON.stringify(rigs));
	metricsUrl = await startExporter(rigsFile);
	const target = new URL(metricsUrl).host;
	nodeExporterUrl = await startNodeExporter();
	// The `host` relabelling as docs/prometheus/prometheus.yml has it, for both jobs.
	const relabel = (job: string) =>
		(
			parse(readFileSync(path.join(docs, 'prometheus.yml'), 'utf8')) as {
				scrape_configs: Array<{job_name: string; relabel_configs: unknown}>;
			}
		).scrape_configs.find((entry) => entry.job_name === job)!.relabel_configs;
	prometheus = await startPrometheus(
		[
			'global:',
			'  scrape_interval: 1s',
			'  evaluation_interval: 1s',
			'rule_files:',
			'  - alerts.yml',
			'  - node-exporter.yml',
			'scrape_configs:',
			'  - job_name: rigtop',
			'    static_configs:',
			`      - targets: ['${target}']`,
			`    relabel_configs: ${JSON.stringify(relabel('rigtop-fleet'))}`,
			'  - job_name: node',
			'    static_configs:',
			`      - targets: ['${new URL(nodeExporterUrl).host}']`,
			`    relabel_configs: ${JSON.stringify(relabel('node'))}`,
			'',
		].join('\n'),
		{
			'alerts.yml': readFileSync(path.join(docs, 'alerts.yml'), 'utf8'),
			'node-exporter.yml': readFileSync(path.join(docs, 'node-exporter.yml'), 'utf8'),
		},
	);
}, 60_000);

afterAll(async () => {
	await prometheus?.stop();
	await new Promise((resolve) => (nodeExporter ? nodeExporter.close(resolve) : resolve(undefined)));
	if (exporter && exporter.exitCode === null) {
		const exited = new Promise((resolve) => exporter!.once('exit', resolve));
		exporter.kill('SIGTERM');
		await exited;
	}

	await Promise.all(sims.map(async (sim) => sim.stop()));
	await Promise.all(replays.map(async (replay) => replay.close()));
	if (dir) rmSync(dir, {recursive: true, force: true});
});

const instant = async (query: string): Promise<Vector> => (await prometheus!.api<{result: Vector}>('query', {query})).result;

describe('rigtop exporter → a real Prometheus', () => {
	it('one xmrig_up per miner with the right value; hashrates for each live miner, none for the down one', async () => {
		// Wait until Prometheus has scraped the exporter after every miner's first poll.
		const ups = await eventually(
			async () => {
				const result = await instant('xmrig_up');
				return result.length === expected.size &&
					result.every((sample) => (sample.value[1] === '1') === expected.get(sample.metric['miner']!))
					? result
					: undefined;
			},
			30_000,
			`Prometheus to hold xmrig_up for the ${expected.size} miners, with the right values`,
		);
		expect(new Map(ups.map((sample) => [sample.metric['miner'], sample.value[1] === '1']))).toEqual(expected);
		expect(ups.every((sample) => sample.metric['job'] === 'rigtop')).toBe(true);
		expect((await instant('up{job="rigtop"}')).map((sample) => sample.value[1])).toEqual(['1']);

		const hashing = await eventually(
			async () => {
				const result = await instant('count by (miner) (xmrig_hashrate_hashes_per_second)');
				return result.length === expected.size - 1 - PROXIES.length ? result : undefined;
			},
			15_000,
			'hashrate series for every live miner',
		);
		const live = [...expected].filter(([name, up]) => up && !PROXIES.includes(name)).map(([name]) => name);
		expect(hashing.map((sample) => sample.metric['miner']).sort()).toEqual(live.sort());
		expect(await instant('xmrig_hashrate_hashes_per_second{miner="rig-down"}')).toEqual([]);
		expect(await instant('xmrig_shares_total{miner="rig-down"}')).toEqual([]);
		const reasons = await instant('xmrig_poll_error');
		expect(reasons.map((sample) => [sample.metric['miner'], sample.metric['reason']])).toEqual([['rig-down', 'unreachable']]);

		// Every dialect under the same names, one per reader dialect.
		const info = await instant('xmrig_miner_info');
		expect(new Set(info.map((sample) => sample.metric['dialect']))).toEqual(
			new Set(['v2', 'v2-legacy-summary', 'v1', 'v1-summary-only', 'proxy']),
		);
		expect(info.filter((sample) => sample.metric['kind'] === 'proxy').map((sample) => sample.metric['miner'])).toEqual(
			expect.arrayContaining(PROXIES),
		);
		expect(info.filter((sample) => sample.metric['kind'] === 'proxy')).toHaveLength(2);
		// Per-thread series for the miners that report threads (2 threads, 3 windows each for the simulators).
		expect((await instant(`count(xmrig_thread_hashrate_hashes_per_second{miner="rig-5"})`))[0]?.value[1]).toBe('6');
	});

	it('Prometheus read OpenMetrics (counters stored under their family names) and the escaped rig name came through', async () => {
		const metadata = await prometheus!.api<Record<string, Array<{type: string}>>>('metadata', {metric: 'xmrig_shares_good'});
		expect(metadata['xmrig_shares_good']?.[0]?.type).toBe('counter');
		const odd = await instant('xmrig_up{miner=~"rig \\"quoted\\".*"}');
		expect(odd.map((sample) => sample.metric['miner'])).toEqual([ODD_NAME]);
	});

	it("an xmrig-proxy's own series and its workers' reach Prometheus with the right values; shares move them by n", async () => {
		// Every window of the warm proxy, its workers, its upstreams; the miners' windows none.
		const windows = await eventually(
			async () => {
				const result = await instant('xmrig_proxy_hashrate_hashes_per_second{miner="proxy-warm"}');
				return result.length === 5 ? result : undefined;
			},
			15_000,
			"the warm proxy's five windows",
		);
		expect(windows.map((sample) => sample.metric['window']).sort()).toEqual(['10m', '12h', '1h', '1m', '24h']);
		expect(windows.every((sample) => Number(sample.value[1]) > 0)).toBe(true);
		expect(await instant('xmrig_hashrate_hashes_per_second{miner=~"proxy-.*"}')).toEqual([]);
		expect(await instant('xmrig_shares_total{miner=~"proxy-.*"}')).toEqual([]);
		const workers = await instant('xmrig_proxy_worker_connections{miner="proxy-warm"}');
		expect(workers).toHaveLength(4);
		expect((await instant('xmrig_proxy_upstreams{miner="proxy-warm",state="active"}'))[0]?.value[1]).toBe('1');
		// The start time is the proxy's: the poll less its uptime.
		const [start] = await instant(
			'xmrig_start_time_seconds{miner="proxy-warm"} - (xmrig_last_success_timestamp_seconds - xmrig_uptime_seconds)',
		);
		expect(Math.abs(Number(start!.value[1]))).toBeLessThanOrEqual(1);

		// The hostile worker name came through as it is.
		const exactWorkers = await eventually(
			async () => {
				const result = await instant('xmrig_proxy_worker_connections{miner="proxy-exact"}');
				return result.length === 2 ? result : undefined;
			},
			15_000,
			"the exact proxy's two workers",
		);
		expect(exactWorkers.map((sample) => sample.metric['worker']).sort()).toEqual(['exact-1', HOSTILE_WORKER].sort());

		// Shares submitted now move the counters by exactly that many, the proxy's and the worker's.
		const accepted = async (selector: string) => Number((await instant(`xmrig_proxy${selector}`))[0]?.value[1] ?? Number.NaN);
		const proxyBefore = await accepted('_shares_total{miner="proxy-exact",result="accepted"}');
		const workerBefore = await accepted('_worker_shares_total{miner="proxy-exact",worker="exact-1",result="accepted"}');
		expect(Number.isFinite(proxyBefore)).toBe(true);
		exactProxy!.submitShares('exact-1', 7);
		exactProxy!.submitShares(HOSTILE_WORKER, 2);
		const proxyAfter = await eventually(
			async () => {
				const now = await accepted('_shares_total{miner="proxy-exact",result="accepted"}');
				return now === proxyBefore ? undefined : now;
			},
			15_000,
			'the submitted shares in Prometheus',
		);
		expect(proxyAfter - proxyBefore).toBe(9);
		expect((await accepted('_worker_shares_total{miner="proxy-exact",worker="exact-1",result="accepted"}')) - workerBefore).toBe(7);

		// No pool password and no token in what Prometheus scrapes (either format).
		for (const accept of ['text/plain', 'application/openmetrics-text; version=1.0.0']) {
			const text = await (await fetch(metricsUrl, {headers: {accept}})).text();
			expect(text).toContain('xmrig_proxy_worker_');
			expect(text).not.toContain(POOL_PASSWORD);
			expect(text).not.toContain(PROXY_TOKEN);
		}
	});

	it('the shipped alert rules evaluate without error, and XmrigMinerDown is pending for the down miner only', async () => {
		const groups = await eventually(
			async () => {
				const data = await prometheus!.api<{
					groups: Array<{name: string; rules: Array<{name: string; health: string; lastError?: string; lastEvaluation: string}>}>;
				}>('rules');
				const rules = data.groups.flatMap((group) => group.rules);
				return rules.length > 0 && rules.every((rule) => !rule.lastEvaluation.startsWith('0001')) ? data.groups : undefined;
			},
			20_000,
			'every rule to be evaluated',
		);
		const rules = groups.flatMap((group) => group.rules);
		expect(rules.map((rule) => rule.name).sort()).toEqual(
			[
				'RigtopExporterDown',
				'XmrigHashrateLow',
				'XmrigHugePagesMissing',
				'XmrigMinerDown',
				'XmrigPausedTooLong',
				'XmrigPoolDisconnected',
				'XmrigRejectRateHigh',
				'miner_worker:xmrig_proxy_worker_last_share_age:seconds',
				'miner:xmrig_proxy_workers_connected:count',
				'miner:xmrig_proxy_hashes:rate5m',
				'miner:xmrig_proxy_shares_refused:ratio_rate30m',
				'XmrigProxyDown',
				'XmrigProxyNoUpstream',
				'XmrigProxyUpstreamErrors',
				'XmrigProxyRejectRateHigh',
				'XmrigProxyWorkerQuiet',
				'XmrigProxyWorkerDisconnected',
				'host:node_rapl_package_watts:sum_rate2m',
				'host:xmrig_hashrate_hashes_per_second:sum',
				'host:xmrig_hashes_per_watt:ratio',
				'host:node_cpu_temperature_celsius:max',
			].sort(),
		);
		for (const rule of rules)
			expect({rule: rule.name, health: rule.health, error: rule.lastError ?? ''}).toEqual({rule: rule.name, health: 'ok', error: ''});

		const alerts = await eventually(
			async () => {
				const data = await prometheus!.api<{alerts: Array<{labels: Record<string, string>; state: string}>}>('alerts');
				return data.alerts.length > 0 ? data.alerts : undefined;
			},
			20_000,
			'an alert',
		);
		expect(alerts.map((alert) => [alert.labels['alertname'], alert.labels['miner'], alert.state])).toEqual([
			['XmrigMinerDown', 'rig-down', 'pending'],
		]);
	});

	it('the shipped Grafana dashboard: its variables resolve, every query runs and finds data, every metric is in a live /metrics', async () => {
		const dashboard = JSON.parse(readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8')) as {
			panels: Array<{title: string; targets: Array<{expr: string}>}>;
			templating: {list: Array<{name: string; type: string; query: string | {query: string}; allValue?: string}>};
		};
		const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({title: panel.title, expr: target.expr})));

		// The metrics every query and variable reads are all in what the exporter serves now.
		const live = new Set(parseSamples(await (await fetch(metricsUrl)).text()).map((sample) => sample.name));
		// node_exporter's series the hashes per watt and CPU temperature panels join with.
		for (const sample of parseSamples(await (await fetch(nodeExporterUrl)).text())) live.add(sample.name);
		const variables = dashboard.templating.list.filter((variable) => variable.type === 'query');
		const variableQueries = variables.map((variable) => (typeof variable.query === 'string' ? variable.query : variable.query.query));
		const read = [...exprs.map(({expr}) => expr), ...variableQueries.map((query) => query.replace(/^label_values\((.+), \w+\)$/, '$1'))];
		const names = new Set(read.flatMap(promqlMetricNames));
		expect(names.size).toBeGreaterThan(20);
		expect([...names].filter((name) => !live.has(name))).toEqual([]);

		// Resolve job, instance and miner in order, as Grafana does with "All" picked in each: without an allValue
		// "All" is every value found, as a regex; with one, the allValue.
		const substitute = (text: string, values: ReadonlyMap<string, string>) =>
			text.replaceAll(/\$(\w+)/g, (whole, name: string) => values.get(name) ?? whole);
		const picked = new Map<string, string>([['__rate_interval', '15s']]);
		const found = new Map<string, string[]>();
		for (const variable of variables) {
			const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
			const [, selector, label] = /^label_values\((.+), (\w+)\)$/.exec(query)!;
			const values = await prometheus!.api<string[]>(`label/${label}/values`, {'match[]': substitute(selector!, picked)});
			found.set(variable.name, values.sort());
			const escaped = values.map((value) => value.replaceAll(/[.*+?^$()|[\]{}\\]/g, String.raw`\$&`));
			picked.set(variable.name, variable.allValue ?? `(${escaped.join('|')})`);
		}

		expect(found.get('job')).toEqual(['rigtop']);
		expect(found.get('instance')).toEqual([new URL(metricsUrl).host]);
		expect(found.get('miner')).toEqual([...expected.keys()].sort());

		// Let rates see a few scrapes, then run each panel's queries over the last minute as Grafana would.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const end = Date.now() / 1000;
		const empty: string[] = [];
		for (const {title, expr} of exprs) {
			const data = await prometheus!.api<{result: unknown[]}>('query_range', {
				query: substitute(expr, picked),
				start: String(end - 60),
				end: String(end),
				step: '2',
			});
			if (data.result.length === 0) empty.push(`${title}: ${expr}`);
		}

		expect(empty).toEqual([]);
	});

	it("node-exporter.yml's rules join the rig's hashrate with node_exporter's power and temperature on host", async () => {
		const [watts] = await eventually(
			async () => {
				const result = await instant('host:node_rapl_package_watts:sum_rate2m');
				return result.length === 1 ? result : undefined;
			},
			20_000,
			'the package watts recorded',
		);
		expect(watts?.metric).toEqual({__name__: 'host:node_rapl_package_watts:sum_rate2m', host: '127.0.0.1'});
		// A rate over a window the series has not filled yet is under the counter's 65 W, never over it (the exact
		// figures are node-exporter.test.yml's); the counter itself runs at 65 W.
		expect(Number(watts?.value[1])).toBeGreaterThan(0);
		expect(Number(watts?.value[1])).toBeLessThan(PACKAGE_WATTS + 1);
		const instantWatts = Number((await instant('irate(node_rapl_package_joules_total[10s])'))[0]?.value[1]);
		expect(Math.abs(instantWatts - PACKAGE_WATTS)).toBeLessThan(5);
		// The three rules of one evaluation: hashes per watt is the rig's hashrate over those watts, joined on host.
		expect(Number((await instant('count(host:xmrig_hashrate_hashes_per_second:sum > 0)'))[0]?.value[1])).toBe(1);
		const [check] = await instant(
			'host:xmrig_hashes_per_watt:ratio / on (host) (host:xmrig_hashrate_hashes_per_second:sum / on (host) host:node_rapl_package_watts:sum_rate2m)',
		);
		expect(check?.metric).toEqual({host: '127.0.0.1'});
		expect(Number(check?.value[1])).toBeCloseTo(1, 9);
		// The hottest CPU sensor is k10temp's Tctl, not the NVMe drive.
		const [temperature] = await instant('host:node_cpu_temperature_celsius:max');
		expect(temperature?.metric['host']).toBe('127.0.0.1');
		expect(temperature?.value[1]).toBe('71.5');
	});

	it('the exporter logged the down miner once, never a token, and stops cleanly on SIGTERM', async () => {
		expect(exporterLog).toMatch(/^ts=\S+Z level=info msg="serving http:\/\/127\.0\.0\.1:\d+\/metrics: 10 miners, polled every 1 s"$/m);
		expect(exporterLog.match(/rig-down: down/g)).toHaveLength(1);
		const exited = new Promise<number | null>((resolve) => exporter!.once('exit', resolve));
		exporter!.kill('SIGTERM');
		expect(await exited).toBe(0);
		expect(exporterLog).toMatch(/ level=info msg="exporter stopped"\n$/);
	});
});

describe('the live view with --metrics', () => {
	it('serves the same metrics while the dashboard is on screen', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'live-rig'});
		const port = await freePort();
		const terminal = await TmuxTerminal.start(['node', CLI, sim.url, '--metrics', `127.0.0.1:${port}`]);
		try {
			await terminal.waitFor('live-rig', 15_000);
			const text = await eventually(
				async () => {
					const response = await fetch(`http://127.0.0.1:${port}/metrics`);
					const body = await response.text();
					return body.includes('xmrig_thread_hashrate_hashes_per_second') ? body : undefined;
				},
				10_000,
				'/metrics with the per-thread series',
			);
			const samples = parseSamples(text);
			expect(select(samples, 'xmrig_up').map((sample) => sample.value)).toEqual([1]);
			expect(select(samples, 'xmrig_miner_info')[0]?.labels['worker_id']).toBe('live-rig');
			const screen = await terminal.screen();
			expect(screen).toContain('live-rig');
			expect(screen).not.toContain('metrics'); // nothing printed over the dashboard
		} finally {
			await terminal.kill();
			await sim.stop();
		}
	});
});

describe('rigtop exporter that cannot serve', () => {
	async function exporterRun(args: readonly string[]): Promise<{code: number | null; stderr: string}> {
		const env = {...process.env};
		delete env['CI'];
		return new Promise((resolve) => {
			const child = spawn('node', [CLI, 'exporter', ...args], {env, stdio: ['ignore', 'ignore', 'pipe']});
			let stderr = '';
			child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			child.once('exit', (code) => resolve({code, stderr}));
		});
	}

	it('a port in use: one line saying so, exit 1; a bad address: usage, exit 2', async () => {
		const sim = await startSimulator({dialect: '6', warm: true});
		try {
			const taken = await exporterRun(['--listen', `127.0.0.1:${sim.port}`, sim.url]);
			expect(taken.code).toBe(1);
			expect(taken.stderr).toMatch(
				new RegExp(
					`^ts=\\S+Z level=error msg="cannot listen on 127\\.0\\.0\\.1:${sim.port}: the address is already in use \\(another exporter\\?\\)"\\n$`,
				),
			);
			const bad = await exporterRun(['--listen', '9189', sim.url]);
			expect(bad.code).toBe(2);
			expect(bad.stderr).toMatch(/^rigtop: --listen "9189": not an address and port; write HOST:PORT/);
		} finally {
			await sim.stop();
		}
	});
});
