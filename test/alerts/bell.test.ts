import {expect, test} from 'vitest';
import {createBell} from '../../source/alerts/bell.js';
import type {Alert} from '../../source/alerts/types.js';

const base: Alert = {seq: 1, at: 0, kind: 'down', severity: 'error', minerIndex: 0, rig: 'r', url: 'http://127.0.0.1:1', message: 'down'};

test('the bell rings BEL for trouble, not for an all-clear, and once for alerts close together', () => {
	const written: string[] = [];
	let now = 0;
	const ring = createBell({write: (text) => written.push(text), minGapMs: 2000, now: () => now});
	ring({...base, kind: 'up', severity: 'info'});
	expect(written).toEqual([]);
	ring(base);
	ring({...base, kind: 'pool-lost', severity: 'warn'});
	expect(written).toEqual(['\u0007']);
	now = 2500;
	ring({...base, kind: 'reject-burst', severity: 'warn'});
	expect(written).toEqual(['\u0007', '\u0007']);
	const broken = createBell({
		write() {
			throw new Error('EIO');
		},
	});
	expect(() => broken(base)).not.toThrow();
});
