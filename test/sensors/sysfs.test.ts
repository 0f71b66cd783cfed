/** sysfs's small parts: the root, CPU lists and the paths as a user would cat them. */
import {describe, expect, it} from 'vitest';
import {cpuPattern, parseCpuList, Sysfs, sysfsRoot} from '../../source/sensors/sysfs.js';

describe('sysfs', () => {
	it('parses the kernel CPU lists, ranges and singles', () => {
		expect(parseCpuList('0-3,8-9,12\n')).toEqual([0, 1, 2, 3, 8, 9, 12]);
		expect(parseCpuList('5')).toEqual([5]);
		expect(parseCpuList('')).toEqual([]);
		expect(parseCpuList('x,2')).toEqual([2]);
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
