/**
 * Issue 28: Prometheus users run node_exporter, which exports the rig's hwmon temperatures, RAPL energy and cpufreq
 * clocks already; the exporter does not serve them again (docs/prometheus/README.md joins the two instead). A real
 * simulated CPU miner, watched by a monitor whose every poll carries a full sensor reading as a local miner's does
 * (several packages' temperatures, the clock, throttling, package power, H/W), is served without any such series.
 */
import {afterEach, expect, test, vi} from 'vitest';
import {minerFragments} from '../../source/exporter/collector.js';
import {writeExposition} from '../../source/exporter/exposition.js';
import {allFamilies} from '../../source/exporter/families.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor} from '../../source/monitor/monitor.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {coretemp, makeReading, powerOk} from '../helpers/sensors.js';
import {checkMetrics, parseSamples} from './helpers/prometheus.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What node_exporter's hwmon, rapl, thermal_zone and cpufreq collectors serve, by the words in their names. */
const NODE_EXPORTER_WORDS = /hwmon|rapl|temp|celsius|watts|joules|freq|thermal|throttl/i;

test('a local miner with sensors is served without temperature, power or clock series: node_exporter has them', async () => {
	const sim = await startSimulator({warm: true, seed: 3, threads: 4, token: 'exporter-sensors-token'});
	const client = new MinerClient({url: sim.url, token: 'exporter-sensors-token'}, {connectTimeoutMs: 1000, deadlineMs: 2000});
	const reader = new MinerReader(client);
	const reading = {
		...makeReading({
			temps: [coretemp(0, 'Package id 0', 71), coretemp(0, 'Core 0', 69), coretemp(1, 'Package id 1', 74), coretemp(1, 'Core 0', 72)],
			throttle: 12,
			power: powerOk(61.5, 63.2),
		}),
		hashesPerWatt: 38.6,
	};
	const monitor = new Monitor({
		read: async (signal) => ({...(await reader.read(signal)), sensors: reading}),
		url: sim.url,
		intervalMs: 1000,
	});
	cleanups.push(async () => {
		monitor.stop();
		await client.close();
		await sim.stop();
	});
	monitor.start();
	await vi.waitFor(() => expect(monitor.getState().snapshot?.sensors).toBeDefined(), {timeout: 15_000, interval: 20});

	for (const format of ['text', 'openmetrics'] as const) {
		const text = writeExposition(allFamilies, [minerFragments('rig-01', monitor)], format);
		const samples = parseSamples(text);
		// The miner is served (its hashrate, threads, shares), so the check below looks at a full exposition.
		expect(samples.some((sample) => sample.name === 'xmrig_hashrate_hashes_per_second')).toBe(true);
		expect(samples.some((sample) => sample.name === 'xmrig_thread_hashrate_hashes_per_second')).toBe(true);
		const names = new Set([
			...samples.map((sample) => sample.name),
			...[...text.matchAll(/^# (?:HELP|TYPE) (\S+)/gm)].map((match) => match[1]!),
		]);
		expect([...names].filter((name) => NODE_EXPORTER_WORDS.test(name))).toEqual([]);
		// Nor under another name: no label of any series carries a reading.
		const labelValues = samples.flatMap((sample) => Object.entries(sample.labels).map(([key, value]) => `${key}=${value}`));
		expect(labelValues.filter((pair) => /coretemp|Package id|intel-rapl|package-0|°C/.test(pair))).toEqual([]);
		if (format === 'text') expect((await checkMetrics(text)).code).toBe(0);
	}

	// The words would catch such a series: node_exporter's own names, and the GPU's that XMRig reports itself.
	for (const name of [
		'node_hwmon_temp_celsius',
		'node_rapl_package_joules_total',
		'node_cpu_scaling_frequency_hertz',
		'xmrig_gpu_power_watts',
	]) {
		expect(NODE_EXPORTER_WORDS.test(name), name).toBe(true);
	}
});
