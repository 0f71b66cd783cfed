import {describe, expect, test} from 'vitest';
import {formatOnceText} from '../../../source/commands/once/report.js';
import {MinerError} from '../../../source/miner/errors.js';
import {makeSnapshot, makeThreads} from '../../helpers/snapshot.js';

const url = 'http://127.0.0.1:18088';

describe('--once text', () => {
	test('fits in 80 columns: parts that do not fit go on a line of their own under the same label, none is lost', () => {
		const snapshot = makeSnapshot({
			threads: makeThreads(2),
			cpu: {...makeSnapshot().cpu, brand: 'AMD Ryzen Threadripper PRO 5995WX 64-Cores'},
			connection: {...makeSnapshot().connection, pool: 'gulf.moneroocean.stream:10128', ip: '203.0.113.77', failures: 12},
		});
		const text = formatOnceText([{url, name: 'garage-ryzen-5950x', snapshot, error: null}], 0);
		const lines = text.trimEnd().split('\n');
		for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
		// Every part is still there, and a continued line is indented under its label.
		const joined = lines.map((line) => line.trim()).join('  ');
		for (const part of [
			'gulf.moneroocean.stream:10128',
			'(203.0.113.77)',
			'TLS TLSv1.3',
			'ping 38 ms',
			'diff 120K',
			'failures 12',
			'AMD Ryzen Threadripper PRO 5995WX 64-Cores',
			'hugepages 1 168/1 168 (100%)',
			'load 7.91 7.88 7.50',
			url,
		])
			expect(joined).toContain(part);
		const pool = lines.findIndex((line) => line.startsWith('  pool      '));
		expect(lines[pool + 1]).toMatch(/^ {12}\S/);
	});

	test('an error line fits too', () => {
		const error = new MinerError('unreachable', 'connection refused', {
			hint: 'check that the miner runs and its HTTP API is enabled (http.enabled true, http.port set)',
		});
		const text = formatOnceText([{url, name: 'rig-01', snapshot: null, error}], 0);
		for (const line of text.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
		expect(text.replaceAll(/\s+/g, ' ')).toContain(error.oneLine());
	});
});
