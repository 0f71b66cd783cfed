/**
 * Finding a miner's process by its HTTP port and the CPUs its threads last ran on (source/sensors/proc.ts): on fake
 * /proc trees, and on this machine's own /proc with a real process listening on loopback.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {listeningPid, parseThreadStat, procRoot, threadCpus} from '../../source/sensors/proc.js';
import {parseCpuList} from '../../source/sensors/sysfs.js';
import {fakeProc, threadStatLine, type FakeProc} from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function proc(): FakeProc {
	const tree = fakeProc();
	cleanups.push(tree.cleanup);
	return tree;
}

describe('procRoot', () => {
	it('takes the option, else RIGTOP_PROC, else /proc', () => {
		const before = process.env['RIGTOP_PROC'];
		try {
			process.env['RIGTOP_PROC'] = '/from/env';
			expect(procRoot('/from/option')).toBe('/from/option');
			expect(procRoot()).toBe('/from/env');
			process.env['RIGTOP_PROC'] = '';
			expect(procRoot()).toBe('/proc');
			delete process.env['RIGTOP_PROC'];
			expect(procRoot()).toBe('/proc');
		} finally {
			if (before === undefined) delete process.env['RIGTOP_PROC'];
			else process.env['RIGTOP_PROC'] = before;
		}
	});
});

describe('parseThreadStat', () => {
	it('reads field 39 and utime + stime after a name that holds spaces and parentheses', () => {
		expect(parseThreadStat(threadStatLine(4101, 'xmrig) (w 2', 7, 1200, 34))).toEqual({cpu: 7, ticks: 1234});
	});

	it('is null for what is not a stat line', () => {
		expect(parseThreadStat('')).toBeNull();
		expect(parseThreadStat('12 (x) S 1 2 3')).toBeNull();
	});
});

describe('listeningPid', () => {
	it('finds the process holding the socket that listens on the port, over IPv6 too', async () => {
		const tree = proc();
		tree.listen(8080, 500);
		tree.listen(18_088, 777, {family: 6});
		tree.process(100, [500], [[0, 10]]);
		tree.process(4100, [901, 777], [[3, 50]]);
		expect(await listeningPid(tree.root, 18_088, 1)).toBe(4100);
		expect(await listeningPid(tree.root, 8080, 1)).toBe(100);
	});

	it('is null where nothing listens on the port (a connection is not a listener), or only rigtop itself', async () => {
		const tree = proc();
		tree.listen(18_088, 600, {state: '01'});
		tree.process(4100, [600], [[3, 50]]);
		expect(await listeningPid(tree.root, 18_088, 1)).toBeNull();
		tree.listen(18_089, 601);
		tree.process(4200, [601], [[3, 50]]);
		expect(await listeningPid(tree.root, 18_089, 4200)).toBeNull();
		expect(await listeningPid(tree.root, 18_089, 1)).toBe(4200);
	});

	it('is null where no /proc can be read', async () => {
		expect(await listeningPid('/nonexistent/proc', 18_088, 1)).toBeNull();
	});
});

describe('threadCpus', () => {
	it("takes the CPUs of the miner's count of busiest threads, else those with a tenth of the busiest one's time", async () => {
		const tree = proc();
		tree.process(
			4100,
			[],
			[
				[0, 3],
				[5, 900],
				[2, 1000],
				[5, 950],
				[1, 120],
			],
		);
		expect(await threadCpus(tree.root, 4100, 2)).toEqual([2, 5]);
		expect(await threadCpus(tree.root, 4100, 3)).toEqual([2, 5]);
		expect(await threadCpus(tree.root, 4100, null)).toEqual([1, 2, 5]);
	});

	it('is null for a process that is gone', async () => {
		const tree = proc();
		tree.process(4100, [], [[1, 10]]);
		tree.exit(4100);
		expect(await threadCpus(tree.root, 4100, null)).toBeNull();
	});
});

describe("this machine's /proc", () => {
	let child: ChildProcess | null = null;
	afterEach(() => {
		child?.kill();
		child = null;
	});

	it('finds a real process by the loopback port it listens on, and the CPUs its threads last ran on', async () => {
		const started = spawn(
			process.execPath,
			['-e', "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"],
			{stdio: ['ignore', 'pipe', 'inherit']},
		);
		child = started;
		const port = await new Promise<number>((resolve, reject) => {
			started.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
			started.once('exit', () => reject(new Error('the listener exited')));
		});
		expect(await listeningPid('/proc', port, process.pid)).toBe(started.pid);
		const cpus = await threadCpus('/proc', started.pid!, null);
		expect(cpus?.length).toBeGreaterThan(0);
		const online = parseCpuList(readFileSync('/sys/devices/system/cpu/online', 'utf8'));
		for (const cpu of cpus ?? []) expect(online).toContain(cpu);
	});
});
