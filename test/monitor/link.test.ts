import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import {backoffDelay, statusAfterFailure, upEvent} from '../../source/monitor/link.js';
import {hostPort, nameWithWorker, rigName, withoutCredentials} from '../../source/monitor/name.js';
import {makeSnapshot} from '../helpers/snapshot.js';

const timeout = new MinerError('timeout', 'no answer within 5 s');
const refused = new MinerError('unreachable', 'connection refused');
const facts = {previous: 'live', failures: 1, failingSince: 10_000, now: 10_100, intervalMs: 1000, hasSnapshot: true} as const;

describe('statusAfterFailure', () => {
	it('is stale after one transient failure, down after 3 or after 2 intervals', () => {
		expect(statusAfterFailure({...facts, error: timeout})).toBe('stale');
		expect(statusAfterFailure({...facts, error: timeout, failures: 2, previous: 'stale', now: 11_500})).toBe('stale');
		expect(statusAfterFailure({...facts, error: timeout, failures: 3, previous: 'stale', now: 12_000})).toBe('down');
		expect(statusAfterFailure({...facts, error: timeout, failures: 2, previous: 'stale', now: 12_000})).toBe('down');
	});

	it('is down at once when nothing ever answered and the connection is refused', () => {
		expect(statusAfterFailure({...facts, error: refused, previous: 'connecting', hasSnapshot: false})).toBe('down');
		expect(statusAfterFailure({...facts, error: refused})).toBe('stale');
		expect(statusAfterFailure({...facts, error: timeout, previous: 'connecting', hasSnapshot: false})).toBe('connecting');
	});

	it('stays down until a poll succeeds', () => {
		expect(statusAfterFailure({...facts, error: timeout, previous: 'down'})).toBe('down');
	});

	it('is error for what the user must fix', () => {
		for (const kind of ['unauthorized', 'forbidden', 'not-found', 'incompatible'] as const) {
			expect(statusAfterFailure({...facts, error: new MinerError(kind, kind), failures: 5, previous: 'down'})).toBe('error');
		}
	});
});

describe('backoffDelay', () => {
	it('doubles from the interval to the cap, with jitter only downwards', () => {
		const none = () => 0;
		expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(1000, n, 30_000, none))).toEqual([
			1000, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
		]);
		expect(backoffDelay(1000, 3, 30_000, () => 0.999_999)).toBe(3600);
		expect(backoffDelay(1000, 500, 30_000, none)).toBe(30_000);
		// An interval above the cap is never shortened by backing off.
		expect(backoffDelay(60_000, 4, 30_000, none)).toBe(60_000);
	});
});

describe('names and text', () => {
	it('takes the configured name, else host:port, never the worker id, which goes beside it', () => {
		expect(rigName('garage', 'http://10.0.0.5:8080')).toBe('garage');
		expect(rigName(undefined, 'http://10.0.0.5:8080')).toBe('10.0.0.5:8080');
		expect(rigName(' ', 'http://[::1]:44444')).toBe('[::1]:44444');
		expect(nameWithWorker('10.0.0.5:8080', makeSnapshot().workerId)).toBe('10.0.0.5:8080 (rig-01)');
		expect(nameWithWorker('garage', 'garage')).toBe('garage');
		expect(nameWithWorker('10.0.0.5:8080', null)).toBe('10.0.0.5:8080');
		expect(nameWithWorker('10.0.0.5:8080', ' ')).toBe('10.0.0.5:8080');
		expect(hostPort('http://miner.lan')).toBe('miner.lan:80');
		expect(hostPort('not a url')).toBe('not a url');
	});

	it('parses each address once, however often it is named, and stays right past its memo', () => {
		const Real = globalThis.URL;
		let parsed = 0;
		globalThis.URL = new Proxy(Real, {
			construct(target, args: [string]) {
				parsed++;
				return new target(...args);
			},
		});
		try {
			for (let poll = 0; poll < 100; poll++) {
				expect(hostPort('http://memo.lan:18080')).toBe('memo.lan:18080');
				expect(withoutCredentials('http://u:pw@memo.lan:18080')).toBe('http://memo.lan:18080');
			}

			expect(parsed).toBe(2);
			for (let rig = 0; rig < 1100; rig++)
				expect(hostPort(`http://10.1.${rig >> 8}.${rig & 255}:80`)).toBe(`10.1.${rig >> 8}.${rig & 255}:80`);
			expect(hostPort('http://memo.lan:18080')).toBe('memo.lan:18080');
		} finally {
			globalThis.URL = Real;
		}
	});

	it('never shows credentials in the URL', () => {
		expect(withoutCredentials('http://user:secret@10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
		expect(withoutCredentials('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
	});

	it('says how long the miner was down in the duration style of every screen', () => {
		expect(upEvent(252_000).message).toBe('back up after 4m 12s');
		expect(upEvent(3 * 86_400_000 + 4 * 3_600_000 + 5000).message).toBe('back up after 3d 04h');
		expect(upEvent(400).message).toBe('back up after 0s');
	});
});
