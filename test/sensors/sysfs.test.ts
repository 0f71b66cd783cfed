/** sysfs's small parts: the root, CPU lists and the paths as a user would cat them. */
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {cpuPattern, naturalCompare, parseCpuList, Sysfs, sysfsRoot} from '../../source/sensors/sysfs.js';

describe('sysfs', () => {
	it('parses the kernel CPU lists, ranges and singles', () => {
		expect(parseCpuList('0-3,8-9,12\n')).toEqual([0, 1, 2, 3, 8, 9, 12]);
		expect(parseCpuList('5')).toEqual([5]);
		expect(parseCpuList('')).toEqual([]);
		expect(parseCpuList('x,2')).toEqual([2]);
	});

	it('sorts sysfs names naturally, numbers as numbers', () => {
		const names = ['hwmon10', 'hwmon2', 'cpu10', 'cpufreq', 'cpu9', 'cpu1', 'hwmon1', 'intel-rapl:0:1', 'intel-rapl:0', 'intel-rapl:0:0'];
		expect(names.sort(naturalCompare)).toEqual([
			'cpu1',
			'cpu9',
			'cpu10',
			'cpufreq',
			'hwmon1',
			'hwmon2',
			'hwmon10',
			'intel-rapl:0',
			'intel-rapl:0:0',
			'intel-rapl:0:1',
		]);
		expect(naturalCompare('cpu007', 'cpu7')).not.toBe(0);
		expect(naturalCompare('temp1_input', 'temp1_input')).toBe(0);
	});

	it('lists a folder in that order', async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'rigtop-sysfs-order-'));
		try {
			for (const cpu of [11, 0, 10, 2, 1]) mkdirSync(path.join(root, 'devices/system/cpu', `cpu${cpu}`), {recursive: true});
			expect(await new Sysfs(root).list('devices/system/cpu')).toEqual(['cpu0', 'cpu1', 'cpu2', 'cpu10', 'cpu11']);
		} finally {
			rmSync(root, {recursive: true, force: true});
		}
	});

	it('writes a CPU set as the pattern a file field shows', () => {
		expect(cpuPattern([0, 1, 2, 3, 16, 17])).toBe('cpu{0-3,16-17}');
		expect(cpuPattern([4])).toBe('cpu4');
		expect(cpuPattern([1, 3])).toBe('cpu{1,3}');
	});

	it('shows a file under /sys wherever the root was moved', () => {
		const sysfs = new Sysfs('/tmp/tree');
		expect(sysfs.resolve('class/hwmon/hwmon0/name')).toBe('/tmp/tree/class/hwmon/hwmon0/name');
		expect(sysfs.shown('class/hwmon/hwmon0/name')).toBe('/sys/class/hwmon/hwmon0/name');
	});

	it('takes the option, else RIGTOP_SYSFS, else /sys', () => {
		const before = process.env['RIGTOP_SYSFS'];
		try {
			process.env['RIGTOP_SYSFS'] = '/from/env';
			expect(sysfsRoot('/from/option')).toBe('/from/option');
			expect(sysfsRoot()).toBe('/from/env');
			delete process.env['RIGTOP_SYSFS'];
			expect(sysfsRoot()).toBe('/sys');
		} finally {
			if (before === undefined) delete process.env['RIGTOP_SYSFS'];
			else process.env['RIGTOP_SYSFS'] = before;
		}
	});
});
