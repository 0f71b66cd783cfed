/**
 * `rigtop history` prints a local miner's sensor readings (schema version 3) in each of its formats — text, JSON and
 * CSV — from a real store; a rig on another machine's are empty (CSV) or null (JSON), and its text says none was
 * recorded.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {runHistoryCommand} from '../../../source/commands/history/history.js';
import {HistoryWriter} from '../../../source/history/writer.js';
import {goodSample, observation, sixFacts} from '../../history/helpers.js';
import {capture, clockedStore, historyOptions} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const MINUTE = 60_000;
const LOCAL = 'http://127.0.0.1:18080';
const REMOTE = 'http://10.0.0.9:8080';

/**
 * Twenty minutes of two rigs polled every 10 s: a local one whose temperature climbs from 60 °C by 1 °C a minute (its
 * sensor's max 95 °C), at 3800 MHz, 120 W and 40 H/W (no watts on its first poll, as on a first reading), and a remote one.
 */
function storeOfTwo() {
	const {store, clock, dir, file} = clockedStore(cleanups);
	const local = new HistoryWriter(store, {now: clock.now});
	const remote = new HistoryWriter(store, {now: clock.now});
	const start = clock.now();
	for (let t = start; t < start + 20 * MINUTE; t += 10_000) {
		clock.set(t);
		const first = t === start;
		const celsius = 60 + Math.floor((t - start) / MINUTE);
		local.write(
			[
				observation(
					goodSample(t, 4800, {temp: celsius, tempLimit: 95, mhz: 3800, watts: first ? null : 120}),
					sixFacts('id-local', 'local-rig'),
					{url: LOCAL, name: 'local-rig', spacingMs: 7500},
				),
			],
			[],
		);
		remote.write(
			[observation(goodSample(t, 900), sixFacts('id-remote', 'remote-rig'), {url: REMOTE, name: 'remote-rig', spacingMs: 7500})],
			[],
		);
	}

	clock.set(start + 21 * MINUTE);
	local.summarize([local.minerOf(0) ?? -1], true);
	remote.summarize([remote.minerOf(0) ?? -1], true);
	store.close();
	return {file, dir, end: clock.now()};
}

async function history(url: string, format: 'text' | 'json' | 'csv'): Promise<string> {
	const {file, dir, end} = storeOfTwo();
	const out = capture();
	const options = historyOptions(file, dir, {
		urls: [url],
		since: '1h',
		json: format === 'json',
		csv: format === 'csv',
		now: end,
		stdout: out.stream,
		stderr: capture().stream,
		probeTimeoutMs: 300,
	});
	expect(await runHistoryCommand(options)).toBe(0);
	return out.text();
}

type SensorsJson = {
	temperature: {min: number; avg: number; max: number; limit: number | null} | null;
	clockMHz: {min: number; avg: number; max: number} | null;
	watts: {min: number; avg: number; max: number} | null;
	hashesPerWatt: {min: number; avg: number; max: number} | null;
} | null;

describe('rigtop history with sensor readings', () => {
	it('text: the temperature, clock, power and H/W of the span, the temperature with its sensor’s max', async () => {
		const text = await history(LOCAL, 'text');
		expect(text).toMatch(/^temp {6}avg 70°C · min 60°C · max 79°C \(the sensor's max 95°C\)$/m);
		expect(text).toMatch(/^clock {5}avg 3\.80 GHz · min 3\.80 GHz · max 3\.80 GHz$/m);
		expect(text).toMatch(/^power {5}avg 120 W · min 120 W · max 120 W$/m);
		expect(text).toMatch(/^H\/W {7}avg 40\.0 H\/W · min 40\.0 H\/W · max 40\.0 H\/W$/m);
		const remote = await history(REMOTE, 'text');
		expect(remote).toMatch(
			/^sensors {3}none recorded \(temperature, clock and power are read only for a miner on the machine rigtop runs on\)$/m,
		);
		expect(remote).not.toMatch(/°C/);
	});

	it('JSON: each row’s sensors (min / avg / max, the temperature’s limit); null for the remote rig', async () => {
		const doc = JSON.parse(await history(LOCAL, 'json')) as {series: {resolution: string; sensors: SensorsJson}[]};
		// The last hour is stored poll by poll: the first poll has no watts yet (a first reading), the others do.
		expect(doc.series.every((row) => row.resolution === 'poll')).toBe(true);
		expect(doc.series[0]?.sensors).toEqual({
			temperature: {min: 60, avg: 60, max: 60, limit: 95},
			clockMHz: {min: 3800, avg: 3800, max: 3800},
			watts: null,
			hashesPerWatt: null,
		});
		expect(doc.series[1]?.sensors?.watts).toEqual({min: 120, avg: 120, max: 120});
		expect(doc.series[1]?.sensors?.hashesPerWatt).toEqual({min: 40, avg: 40, max: 40});
		expect(doc.series.at(-1)?.sensors?.temperature?.max).toBe(79);
		expect(doc.series.every((row) => row.sensors !== null)).toBe(true);
		const remote = JSON.parse(await history(REMOTE, 'json')) as {series: {sensors: SensorsJson}[]};
		expect(remote.series.length).toBeGreaterThan(0);
		expect(remote.series.every((row) => row.sensors === null)).toBe(true);
	});

	it('CSV: the sensor columns after the ones of before, empty for the remote rig and for events', async () => {
		const lines = (await history(LOCAL, 'csv')).trim().split('\n');
		const header = lines[0]?.split(',') ?? [];
		expect(header.slice(-13)).toEqual([
			'temp_min',
			'temp_avg',
			'temp_max',
			'temp_limit',
			'clock_mhz_min',
			'clock_mhz_avg',
			'clock_mhz_max',
			'power_w_min',
			'power_w_avg',
			'power_w_max',
			'hpw_min',
			'hpw_avg',
			'hpw_max',
		]);
		expect(header.indexOf('event_text')).toBe(18);
		const column = (line: string | undefined, name: string) => line?.split(',')[header.indexOf(name)];
		const [first, second] = lines.slice(1);
		expect([column(first, 'temp_min'), column(first, 'temp_limit'), column(first, 'power_w_avg'), column(first, 'hpw_max')]).toEqual([
			'60',
			'95',
			'',
			'',
		]);
		expect([column(second, 'clock_mhz_avg'), column(second, 'power_w_avg'), column(second, 'hpw_max')]).toEqual(['3800', '120', '40']);
		expect(column(lines.at(-1), 'temp_max')).toBe('79');
		const remote = (await history(REMOTE, 'csv')).trim().split('\n');
		expect(remote.slice(1).length).toBeGreaterThan(0);
		for (const line of remote.slice(1)) expect(line.split(',').slice(-13).join(',')).toBe(',,,,,,,,,,,,');
	});
});
