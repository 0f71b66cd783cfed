// The exposition of N miners' series, written by rigtop's writer (source/exporter) and by prom-client (the well-kept
// library, as its docs use it: one Gauge or Counter per family, a label set per series, registry.metrics()), from the
// same monitor states: a warm 6.x CPU+GPU rig each (4 CPU and 2 GPU threads, like test/fixtures/xmrig/synthetic).
//
//   node exposition-driver.mjs MINERS ROUNDS
//
// Prints one JSON line: the median and 90th percentile time to write one scrape (ms), in the text format and in
// OpenMetrics, for both; the time to take in one poll (ms per miner), and the output sizes.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import {Counter, Gauge, Registry} from 'prom-client';
import {createCollector, minerLabels, type CollectedMiner} from '../source/exporter/collector.js';
import {minerFamilies, type MinerFamilyKey} from '../source/exporter/families.js';
import {minerSamples} from '../source/exporter/samples.js';
import {normalizeSnapshot} from '../source/miner/normalize.js';
import type {PollStats} from '../source/monitor/monitor.js';
import type {MonitorState} from '../source/monitor/types.js';

const count = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 30);
const synthetic = (name: string): unknown =>
	JSON.parse(readFileSync(path.join(process.cwd(), 'test/fixtures/xmrig/synthetic', name), 'utf8')) as unknown;
const summary = synthetic('v6-live-summary.json') as Record<string, unknown>;
const backends = synthetic('v6-live-backends.json');

function state(index: number, poll: number): MonitorState {
	const jitter = 1 + ((index * 7 + poll * 13) % 100) / 1000;
	const hashrate = summary['hashrate'] as {total: number[]; highest: number};
	const snapshot = normalizeSnapshot(
		'v2',
		{
			...summary,
			worker_id: `rig-${index}`,
			hashrate: {...hashrate, total: hashrate.total.map((rate) => (rate === null ? null : rate * jitter))},
		},
		backends,
	);
	return {
		name: `rig-${index}`,
		url: `http://10.0.${index >> 8}.${index & 255}:8080`,
		status: 'live',
		snapshot,
		lastSuccessAt: 1,
		lastAttemptAt: 1,
		failingSince: null,
		consecutiveFailures: 0,
		error: null,
		recentRates: [],
		sessionAverage: null,
		lastShare: null,
		events: [],
		nextPollAt: null,
		polls: poll,
	};
}

const stats: PollStats = {failures: 0, restarts: 0, lastDurationMs: 4};

/** Fake monitors: the collector follows them exactly as it follows real ones. */
const listeners: Array<() => void> = [];
const states = Array.from({length: count}, (_, index) => state(index, 1));
const miners: CollectedMiner[] = states.map((_, index) => ({
	target: {url: states[index]!.url, name: `rig-${index}`},
	monitor: {
		getState: () => states[index]!,
		getStats: () => stats,
		subscribe(listener: () => void) {
			listeners[index] = listener;
			return () => undefined;
		},
	},
}));

// prom-client, as documented: metrics made once, label sets set per poll, registry.metrics() per scrape.
const text = new Registry();
const openMetrics = new Registry<typeof Registry.OPENMETRICS_CONTENT_TYPE>();
openMetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
const labels = minerLabels(miners.map((miner) => miner.target));
type PromMetric = Gauge | Counter;
const promMetrics = new Map<MinerFamilyKey, {text: PromMetric; openMetrics: PromMetric}>();
for (const [key, family] of Object.entries(minerFamilies) as Array<[MinerFamilyKey, (typeof minerFamilies)[MinerFamilyKey]]>) {
	const make = (registry: Registry<typeof Registry.OPENMETRICS_CONTENT_TYPE> | Registry): PromMetric => {
		const config = {name: family.sample, help: family.help, labelNames: ['miner', ...family.labels], registers: [registry]};
		return family.type === 'counter' ? new Counter(config) : new Gauge(config);
	};

	// One set per registry: prom-client renames a counter in place when a registry writes OpenMetrics.
	promMetrics.set(key, {text: make(text), openMetrics: make(openMetrics)});
}

/**
 * What a poll of one miner costs prom-client at the least: each series set again (a counter can only be increased, so
 * it is removed and increased by its value). Removing the series a miner no longer has (threads gone, the miner down)
 * would cost more; the writer does it by writing the miner's lines again.
 */
function promPoll(index: number): void {
	for (const sample of minerSamples({miner: labels[index]!, state: states[index]!, stats})) {
		const family = minerFamilies[sample.family];
		const set = promMetrics.get(sample.family)!;
		const names = ['miner', ...family.labels];
		const labelSet = Object.fromEntries(
			names.map((name, position) => [name, position === 0 ? labels[index]! : sample.labels[position - 1]!]),
		);
		for (const metric of [set.text, set.openMetrics]) {
			if (metric instanceof Counter) {
				metric.remove(labelSet);
				metric.inc(labelSet, sample.value);
			} else {
				metric.set(labelSet, sample.value);
			}
		}
	}
}

const collector = createCollector(miners, {version: 'bench'});
for (let index = 0; index < count; index++) promPoll(index);

function time(fn: () => unknown): number {
	const started = performance.now();
	fn();
	return performance.now() - started;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
	const started = performance.now();
	await fn();
	return performance.now() - started;
}

const quantile = (values: number[], q: number): number => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const results = {
	writer: {text: [] as number[], openMetrics: [] as number[]},
	promClient: {text: [] as number[], openMetrics: [] as number[]},
};
const polls = {writer: [] as number[], promClient: [] as number[]};
let sizes = {writer: 0, promClient: 0};
for (let round = 0; round < rounds; round++) {
	// A tenth of the miners polled between two scrapes, as at 1000 miners, 10 s polls and a scrape every second.
	for (let step = 0; step < count / 10; step++) {
		const index = (round * (count / 10) + step) % count;
		states[index] = state(index, round + 2);
		polls.writer.push(time(() => listeners[index]!()));
		polls.promClient.push(time(() => promPoll(index)));
	}

	let written = '';
	let promWritten = '';
	results.writer.text.push(time(() => (written = collector.render('text'))));
	results.writer.openMetrics.push(time(() => collector.render('openmetrics')));
	results.promClient.text.push(await timeAsync(async () => (promWritten = await text.metrics())));
	results.promClient.openMetrics.push(await timeAsync(async () => openMetrics.metrics()));
	sizes = {writer: written.length, promClient: promWritten.length};
}

const summarize = (values: number[]) => ({median: quantile(values, 0.5), p90: quantile(values, 0.9)});
console.log(
	JSON.stringify({
		miners: count,
		rounds,
		series:
			sizes.writer === 0
				? 0
				: collector
						.render('text')
						.split('\n')
						.filter((line) => line !== '' && !line.startsWith('#')).length,
		writer: {text: summarize(results.writer.text), openMetrics: summarize(results.writer.openMetrics), pollMs: quantile(polls.writer, 0.5)},
		promClient: {
			text: summarize(results.promClient.text),
			openMetrics: summarize(results.promClient.openMetrics),
			pollMs: quantile(polls.promClient, 0.5),
		},
		bytes: sizes,
	}),
);
