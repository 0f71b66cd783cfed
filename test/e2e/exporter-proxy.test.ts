/**
 * The built `rigtop exporter` watching a simulated xmrig-proxy: --worker-metrics-limit through the worker thread (the
 * series kept, the one warn line in the log), --no-worker-metrics (no worker series, /1/workers read at most once),
 * and the live view refusing both flags.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type ProxySimulator} from '../../source/sim/simulator.js';
import {eventually, parseSamples, select, type ParsedSample} from '../exporter/helpers/prometheus.js';
import {runCli} from './helpers/cli.js';
import {startExporter} from './helpers/exporter.js';

const TOKEN = 'e2e-proxy-exporter-token';
const PASSWORD = 'e2e-proxy-exporter-pool-pass';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyWithTokenFile(): Promise<{proxy: ProxySimulator; tokenFile: string}> {
	const proxy = await startSimulator({
		kind: 'proxy',
		warm: true,
		lifeEvents: false,
		seed: 11,
		token: TOKEN,
		workerId: 'e2e-proxy',
		miners: ['w-a', 'w-b', 'w-c', 'w-d', 'w-e'].map((name, index) => ({
			name,
			user: 'wallet',
			password: PASSWORD,
			hashrate: 1000 * (index + 1),
		})),
	});
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-proxy-'));
	const tokenFile = path.join(dir, 'token');
	writeFileSync(tokenFile, `${TOKEN}\n`, {mode: 0o600});
	cleanups.push(async () => {
		await proxy.stop();
		rmSync(dir, {recursive: true, force: true});
	});
	return {proxy, tokenFile};
}

const polled = async (url: string, polls: number): Promise<{text: string; samples: ParsedSample[]}> =>
	eventually(
		async () => {
			const text = await (await fetch(url)).text();
			const samples = parseSamples(text);
			return (select(samples, 'xmrig_exporter_polls_total')[0]?.value ?? 0) >= polls ? {text, samples} : undefined;
		},
		20_000,
		`${polls} polls`,
	);

describe('rigtop exporter watching an xmrig-proxy', () => {
	it('--worker-metrics-limit 2: two workers served, one warn line naming the three left out, whatever the polls', async () => {
		const {proxy, tokenFile} = await proxyWithTokenFile();
		const exporter = await startExporter([proxy.url, '--token-file', tokenFile, '--worker-metrics-limit', '2'], cleanups);
		const {text, samples} = await polled(exporter.metricsUrl, 5);
		expect(select(samples, 'xmrig_proxy_worker_connections')).toHaveLength(2);
		expect(select(samples, 'xmrig_exporter_proxy_workers_omitted')[0]?.value).toBe(3);
		expect(select(samples, 'xmrig_proxy_hashrate_hashes_per_second')).toHaveLength(5);
		expect(text).not.toContain(PASSWORD);
		expect(text).not.toContain(TOKEN);
		const lines = exporter
			.log()
			.split('\n')
			.filter((line) => line.includes('worker-metrics-limit'));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(
			/^ts=\S+Z level=warn msg="127\.0\.0\.1:\d+: 5 workers, more than --worker-metrics-limit 2: the 3 with the lowest 10 min hashrate have no per-worker series \(.+\); xmrig_exporter_proxy_workers_omitted counts them at each scrape"$/,
		);
		expect(exporter.log()).not.toContain(PASSWORD);
		expect(exporter.log()).not.toContain(TOKEN);
		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);
	});

	it('--no-worker-metrics: no worker series, /1/workers read at most once; the live view refuses both flags', async () => {
		const {proxy, tokenFile} = await proxyWithTokenFile();
		const exporter = await startExporter([proxy.url, '--token-file', tokenFile, '--no-worker-metrics'], cleanups);
		const {text, samples} = await polled(exporter.metricsUrl, 4);
		expect(text).not.toContain('xmrig_proxy_worker_');
		expect(select(samples, 'xmrig_proxy_workers')[0]?.value).toBe(5);
		expect(proxy.requests.filter((request) => request.path === '/1/workers').length).toBeLessThanOrEqual(1);
		expect(proxy.requests.filter((request) => request.path === '/1/miners')).toEqual([]);
		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);

		const live = await runCli(['--once', proxy.url, '--no-worker-metrics']);
		expect(live.code).toBe(2);
		expect(live.stderr).toMatch(/^rigtop: --no-worker-metrics goes with rigtop exporter\n/);
		const limit = await runCli(['--once', proxy.url, '--worker-metrics-limit', '5']);
		expect(limit.code).toBe(2);
		expect(limit.stderr).toMatch(/^rigtop: --worker-metrics-limit goes with rigtop exporter\n/);
		const bad = await runCli(['exporter', proxy.url, '--worker-metrics-limit', '0']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/^rigtop: --worker-metrics-limit takes a whole number of workers, at least 1/);
	});
});
