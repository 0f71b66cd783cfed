#!/usr/bin/env node
// Exporter scale benchmark: one `rigtop exporter` watching 1000 simulated miners at a 10 s interval, scraped every
// 15 s the way Prometheus scrapes (OpenMetrics asked for, gzip accepted), against the fleet view's cost per miner
// measured in the same run: `rigtop --rigs` in a real terminal watching 100 of the same simulators at 1 s, the same
// 100 polls a second.
//
//   node bench/exporter.bench.mjs            (builds dist/ first if it is missing)
//   RIGTOP_BENCH_EXPORTER_RIGS=1000 RIGTOP_BENCH_EXPORTER_SECONDS=180 RIGTOP_BENCH_EXPORTER_WARMUP=30 \
//   RIGTOP_BENCH_FLEET_RIGS=100 RIGTOP_BENCH_FLEET_SECONDS=60 node bench/exporter.bench.mjs
//
// The simulators run in a process of their own (bench/lib.mjs startSimFleet), so their CPU is not counted. CPU is
// utime+stime from /proc/<pid>/stat over the measured window (scrapes included); RSS is VmRSS sampled every second
// (the peak is reported) and VmHWM. A scrape's time runs from the request to the last byte of the answer.
// Goals: CPU < 15 % of one core, RSS < 200 MB, median scrape < 100 ms. Exits 1 when a goal is missed.
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {gunzipSync} from 'node:zlib';
import {binEnv, CLI, cpuMs, inPty, median, percentile, report, root, round, setting, sleep, startSimFleet, waitUntil} from './lib.mjs';

const RIGS = setting('EXPORTER_RIGS', 1000);
const INTERVAL_S = setting('EXPORTER_INTERVAL', 10);
const SCRAPE_S = setting('EXPORTER_SCRAPE', 15);
const SECONDS = setting('EXPORTER_SECONDS', 180);
const WARMUP_S = setting('EXPORTER_WARMUP', 30);
const FLEET_RIGS = setting('FLEET_RIGS', 100);
const FLEET_SECONDS = setting('FLEET_SECONDS', 60);
const FLEET_WARMUP_S = setting('FLEET_WARMUP', 10);
const GOAL_CPU = 15;
const GOAL_RSS_MB = 200;
const GOAL_SCRAPE_MS = 100;
const ACCEPT =
	'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

const outDir = path.join(root, '.bench-out', 'exporter');
let sims = null;
let exporter = null;
let fleet = null;

function memory(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
	return {rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024};
}

/** One scrape as Prometheus makes it (node:http, so that the body arrives as sent); resolves with its time (ms) and the text. */
async function scrape(url) {
	const started = performance.now();
	const {status, headers, body} = await new Promise((resolve, reject) => {
		const request = http.get(url, {headers: {Accept: ACCEPT, 'Accept-Encoding': 'gzip'}}, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => resolve({status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks)}));
			response.on('error', reject);
		});
		request.on('error', reject);
	});
	const ms = performance.now() - started;
	if (status !== 200) throw new Error(`scrape answered ${status}`);
	const text = headers['content-encoding'] === 'gzip' ? gunzipSync(body).toString() : body.toString();
	return {ms, text, bytes: body.length, format: headers['content-type']};
}

async function startExporter(rigsFile) {
	const child = spawn(
		process.execPath,
		[CLI, 'exporter', '--rigs', rigsFile, '--interval', String(INTERVAL_S), '--listen', '127.0.0.1:0'],
		{
			stdio: ['ignore', 'ignore', 'pipe'],
			env: {...binEnv(), CI: ''},
		},
	);
	let log = '';
	const url = await new Promise((resolve, reject) => {
		child.stderr.on('data', (chunk) => {
			log += chunk;
			const match = /serving (http:\/\/\S+\/metrics)/.exec(log);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`rigtop exporter exited (${code}):\n${log}`)));
	});
	return {child, url, log: () => log};
}

async function measureExporter(urls) {
	const rigsFile = path.join(outDir, 'rigs-exporter.json');
	writeFileSync(rigsFile, JSON.stringify(urls.map((url, index) => ({name: `rig-${String(index + 1).padStart(4, '0')}`, url}))));
	exporter = await startExporter(rigsFile);
	const {pid} = exporter.child;
	const upCount = (text) => (text.match(/^xmrig_up\{[^}]*\} 1$/gm) ?? []).length;
	// Once a second, not faster: a scrape writes megabytes, and a scraper that never stops would be measured instead.
	const deadline = Date.now() + 120_000;
	while (upCount((await scrape(exporter.url)).text) !== RIGS) {
		if (Date.now() > deadline) throw new Error(`not all ${RIGS} miners were up within 120 s`);
		await sleep(1000);
	}

	console.log(`exporter: all ${RIGS} miners up; warm-up ${WARMUP_S} s, then ${SECONDS} s measured with a scrape every ${SCRAPE_S} s…`);
	await sleep(WARMUP_S * 1000);

	const cpuStart = cpuMs(pid);
	const started = performance.now();
	const scrapes = [];
	let peak = 0;
	let last = null;
	let nextScrape = 0;
	for (let second = 0; second < SECONDS; second++) {
		if (second >= nextScrape) {
			last = await scrape(exporter.url);
			scrapes.push(last.ms);
			nextScrape += SCRAPE_S;
		}

		peak = Math.max(peak, memory(pid).rss);
		const wait = started + (second + 1) * 1000 - performance.now();
		if (wait > 0) await sleep(wait);
	}

	const elapsed = (performance.now() - started) / 1000;
	const cpu = ((cpuMs(pid) - cpuStart) / 1000 / elapsed) * 100;
	const {rss, hwm} = memory(pid);
	const series = last.text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
	const up = upCount(last.text);
	exporter.child.kill('SIGTERM');
	await new Promise((resolve) => exporter.child.once('exit', resolve));
	exporter = null;
	return {cpu, peak: Math.max(peak, rss), hwm, scrapes, series, up, bytes: last.bytes, textBytes: last.text.length, format: last.format};
}

async function measureFleet(urls) {
	const rigsFile = path.join(outDir, 'rigs-fleet.json');
	writeFileSync(rigsFile, JSON.stringify(urls.map((url, index) => ({name: `rig-${String(index + 1).padStart(3, '0')}`, url}))));
	let screen = '';
	fleet = inPty(process.execPath, [CLI, '--rigs', rigsFile, '-i', '1'], {
		env: binEnv(),
		cols: 120,
		rows: 40,
		onOutput: (chunk) => (screen = (screen + chunk).slice(-20_000)),
	});
	await waitUntil(
		() => fleet.innerPid() !== undefined && screen.includes(`${FLEET_RIGS} live`),
		60_000,
		`the fleet view showing ${FLEET_RIGS} live`,
	);
	const pid = fleet.innerPid();
	await sleep(FLEET_WARMUP_S * 1000);
	const cpuStart = cpuMs(pid);
	const started = performance.now();
	let peak = 0;
	for (let second = 0; second < FLEET_SECONDS; second++) {
		await sleep(1000);
		peak = Math.max(peak, memory(pid).rss);
	}

	const elapsed = (performance.now() - started) / 1000;
	const cpu = ((cpuMs(pid) - cpuStart) / 1000 / elapsed) * 100;
	const {hwm} = memory(pid);
	await fleet.stop();
	fleet = null;
	return {cpu, peak, hwm};
}

async function main() {
	if (!existsSync(CLI)) execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {stdio: 'inherit'});
	rmSync(outDir, {recursive: true, force: true});
	mkdirSync(outDir, {recursive: true});
	const load = os.loadavg();
	console.log(
		`exporter bench: ${RIGS} simulated miners at ${INTERVAL_S} s, scraped every ${SCRAPE_S} s; Node ${process.version}; load average ${load.map((value) => value.toFixed(2)).join(', ')}`,
	);
	sims = await startSimFleet(RIGS);
	const exported = await measureExporter(sims.urls);
	const fleetView = await measureFleet(sims.urls.slice(0, FLEET_RIGS));
	const loadAfter = os.loadavg();

	// Per miner, at the same poll rate: the exporter polls 1000 miners every 10 s, the fleet view 100 every second.
	const exporterPolls = RIGS / INTERVAL_S;
	const fleetPolls = FLEET_RIGS / 1;
	const cpuPerPoll = (share, polls) => ((share / 100) * 1000) / polls; // ms of CPU per poll
	const common = [
		`the fleet view (baseline): rigtop --rigs with ${FLEET_RIGS} of the same simulators at 1 s in a 120×40 terminal, ${FLEET_SECONDS} s after ${FLEET_WARMUP_S} s: ${round(fleetView.cpu, 1)} % of one core, RSS peak ${round(Math.max(fleetView.peak, fleetView.hwm), 0)} MB`,
		`load average ${load.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadAfter.map((value) => value.toFixed(2)).join(', ')} at the end`,
	];
	const cpuMet = report({
		name: `exporter CPU, ${RIGS} miners at ${INTERVAL_S} s, scraped every ${SCRAPE_S} s`,
		figure: exported.cpu,
		unit: '% of one core',
		baseline: fleetView.cpu,
		baselineText: `the fleet view, ${FLEET_RIGS} miners at 1 s: the same ${fleetPolls} polls a second`,
		ratio: exported.cpu / fleetView.cpu,
		goal: {of: 'figure', max: GOAL_CPU, text: `< ${GOAL_CPU} % of one core`},
		details: [
			`CPU per poll: exporter ${round(cpuPerPoll(exported.cpu, exporterPolls), 3)} ms (summary + per-thread document, 2 requests), fleet view ${round(cpuPerPoll(fleetView.cpu, fleetPolls), 3)} ms (summary alone, 1 request, and its frames)`,
			`per miner watched: exporter ${round(exported.cpu / RIGS, 4)} % of a core at ${INTERVAL_S} s, fleet view ${round(fleetView.cpu / FLEET_RIGS, 4)} % at 1 s`,
			...common,
		],
	});
	const rssPeak = Math.max(exported.peak, exported.hwm);
	const rssMet = report({
		name: `exporter RSS, ${RIGS} miners`,
		figure: rssPeak,
		unit: 'MB',
		baseline: Math.max(fleetView.peak, fleetView.hwm),
		baselineText: `the fleet view, ${FLEET_RIGS} miners`,
		ratio: rssPeak / Math.max(fleetView.peak, fleetView.hwm),
		goal: {of: 'figure', max: GOAL_RSS_MB, text: `< ${GOAL_RSS_MB} MB`},
		details: [
			`per miner watched: exporter ${round((rssPeak * 1024) / RIGS, 0)} kB, fleet view ${round((Math.max(fleetView.peak, fleetView.hwm) * 1024) / FLEET_RIGS, 0)} kB`,
			`peak sampled every second ${round(exported.peak, 1)} MB, high-water mark ${round(exported.hwm, 1)} MB`,
		],
	});
	const scrapeMs = median(exported.scrapes);
	const scrapeMet = report({
		name: `exporter scrape, ${RIGS} miners`,
		figure: scrapeMs,
		unit: 'ms',
		goal: {of: 'figure', max: GOAL_SCRAPE_MS, text: `median < ${GOAL_SCRAPE_MS} ms`},
		details: [
			`${exported.scrapes.length} scrapes: ${exported.scrapes.map((ms) => round(ms, 1)).join(', ')} ms (90th percentile ${round(percentile(exported.scrapes, 90), 1)} ms)`,
			`${exported.series} series from ${exported.up} miners up, ${round(exported.textBytes / 2 ** 20, 1)} MB of ${exported.format?.split(';')[0]}, ${round(exported.bytes / 2 ** 20, 2)} MB gzipped`,
		],
	});
	return cpuMet && rssMet && scrapeMet ? 0 : 1;
}

async function cleanup() {
	if (exporter) exporter.child.kill('SIGTERM');
	await fleet?.stop();
	await sims?.stop();
}

main()
	.then(async (code) => {
		await cleanup();
		process.exit(code);
	})
	.catch(async (error) => {
		console.error(`exporter bench failed: ${error instanceof Error ? error.message : String(error)}`);
		await cleanup();
		process.exit(2);
	});
