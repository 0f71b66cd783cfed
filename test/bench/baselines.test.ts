/**
 * The benchmarks' own logic (bench/baselines.mjs): finding btop and htop, btop's scratch config — read by the real
 * btop where it is installed (.ci/run installs it) — and the reading of an RSS curve (start, end, highest, creep).
 */
import {spawn} from 'node:child_process';
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {btopShownUpdateMs, commandPath, MB, monitorEnv, rssCurve, writeBtopConfig} from '../../bench/baselines.mjs';

const scratch: string[] = [];
const tempDir = (): string => {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'rigtop-baselines-'));
	scratch.push(dir);
	return dir;
};

afterEach(() => {
	for (const dir of scratch.splice(0)) rmSync(dir, {recursive: true, force: true});
});

describe('commandPath', () => {
	it('finds an executable on PATH, in PATH order, and skips a file that is not executable', () => {
		const first = tempDir();
		const second = tempDir();
		writeFileSync(path.join(first, 'btop'), 'not executable\n');
		writeFileSync(path.join(second, 'btop'), '#!/bin/sh\n');
		chmodSync(path.join(second, 'btop'), 0o755);
		expect(commandPath('btop', [first, second].join(path.delimiter))).toBe(path.join(second, 'btop'));
		chmodSync(path.join(first, 'btop'), 0o755);
		expect(commandPath('btop', [first, second].join(path.delimiter))).toBe(path.join(first, 'btop'));
	});

	it('is null when no folder of PATH has it', () => {
		expect(commandPath('btop', [tempDir(), ''].join(path.delimiter))).toBeNull();
		expect(commandPath('btop', '')).toBeNull();
	});
});

describe("btop's scratch config", () => {
	it('is btop.conf under btop/ in the config home, setting update_ms', () => {
		const home = tempDir();
		const file = writeBtopConfig(home, 1000);
		expect(file).toBe(path.join(home, 'btop', 'btop.conf'));
		expect(readFileSync(file, 'utf8')).toMatch(/^update_ms = 1000$/m);
		expect(monitorEnv(home, {PATH: '/usr/bin', LANG: 'C.UTF-8'})).toEqual({PATH: '/usr/bin', LANG: 'C.UTF-8', XDG_CONFIG_HOME: home});
	});

	it('refuses an update time btop would not take', () => {
		expect(() => writeBtopConfig(tempDir(), 50)).toThrow(/update_ms/);
		expect(() => writeBtopConfig(tempDir(), 1.5)).toThrow(/update_ms/);
	});

	it('gives btop and htop a UTF-8 locale when the environment has none', () => {
		expect(monitorEnv('/x', {LANG: 'C'})).toMatchObject({LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', XDG_CONFIG_HOME: '/x'});
		expect(monitorEnv('/x', {LC_ALL: 'en_US.utf8'})).toEqual({LC_ALL: 'en_US.utf8', XDG_CONFIG_HOME: '/x'});
	});

	it("reads the update time from btop's header, escape sequences and all", () => {
		// As btop 1.2.13 draws it (captured from its terminal): "- 1000ms +" between colour changes and a cursor move.
		const header =
			'\u001b[1mp\u001b[38;2;238;238;238mreset *\u001b[22m\u001b[38;2;85;109;89m┌\u001b[1;67f\u001b[38;2;85;109;89m┐\u001b[1m' +
			'\u001b[38;2;181;64;64m- \u001b[38;2;238;238;238m1000ms\u001b[38;2;181;64;64m +\u001b[22m';
		expect(btopShownUpdateMs(header)).toBe(1000);
		expect(btopShownUpdateMs(`${header}…\u001b[38;2;181;64;64m- \u001b[38;2;238;238;238m2000ms\u001b[38;2;181;64;64m +`)).toBe(2000);
		expect(btopShownUpdateMs('ping 50 ms · 64ms')).toBeNull();
	});

	const btop = commandPath('btop');
	it.skipIf(btop === null)('is what the real btop runs with: its header shows 1000ms', async () => {
		const home = tempDir();
		writeBtopConfig(home, 1000);
		const child = spawn('script', ['-qfec', `stty cols 80 rows 24; exec '${btop}' --utf-force`, '/dev/null'], {
			env: {...monitorEnv(home), TERM: 'xterm-256color'},
			stdio: ['pipe', 'pipe', 'ignore'],
			detached: true,
		});
		let output = '';
		const shown = await new Promise<number | null>((resolve) => {
			const timer = setTimeout(() => resolve(btopShownUpdateMs(output)), 15_000);
			child.stdout.on('data', (chunk: Buffer) => {
				output += chunk.toString('utf8');
				if (btopShownUpdateMs(output) !== null) {
					clearTimeout(timer);
					resolve(btopShownUpdateMs(output));
				}
			});
		});
		const exited = new Promise((resolve) => child.once('exit', resolve));
		process.kill(-(child.pid ?? 0), 'SIGTERM');
		await exited;
		expect(shown).toBe(1000);
	});
});

describe('rssCurve', () => {
	const minute = 60_000;

	it('gives the first, last and highest readings in MB', () => {
		const curve = rssCurve([
			{at: 0, rss: 90 * MB},
			{at: minute, rss: 130 * MB},
			{at: 2 * minute, rss: 120 * MB},
		]);
		expect(curve).toMatchObject({start: 90, end: 120, max: 130, readings: 3});
	});

	it("measures the creep after the warm-up only: the first minutes' rise is not counted", () => {
		// 100 → 150 MB in the first two minutes, then 0.2 MB a minute for 28 minutes; a reading every 10 s.
		const samples = [];
		for (let at = 0; at <= 30 * minute; at += 10_000) {
			const rss = at < 2 * minute ? 100 + 25 * (at / minute) : 150 + 0.2 * ((at - 2 * minute) / minute);
			samples.push({at, rss: rss * MB});
		}

		const curve = rssCurve(samples, 2 * minute);
		expect(curve.creepPerMinute).toBeCloseTo(0.2, 6);
		expect(curve.creepFrom).toBe(2 * minute);
		expect(curve.max).toBeCloseTo(155.6, 6);
		expect(rssCurve(samples).creepPerMinute).toBeGreaterThan(0.5);
	});

	it('reads a flat or a falling curve as no creep or a negative one', () => {
		const flat = [0, 1, 2, 3].map((index) => ({at: index * minute, rss: 100 * MB}));
		expect(rssCurve(flat).creepPerMinute).toBe(0);
		const falling = [0, 1, 2].map((index) => ({at: index * minute, rss: (100 - index) * MB}));
		expect(rssCurve(falling).creepPerMinute).toBeCloseTo(-1, 6);
	});

	it('takes the last two readings when the warm-up leaves fewer, and refuses no readings at all', () => {
		const curve = rssCurve(
			[
				{at: 0, rss: 100 * MB},
				{at: minute, rss: 101 * MB},
			],
			10 * minute,
		);
		expect(curve.creepPerMinute).toBeCloseTo(1, 6);
		expect(() => rssCurve([])).toThrow(/no RSS readings/);
	});
});
