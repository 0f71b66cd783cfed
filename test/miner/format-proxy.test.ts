import {describe, expect, test} from 'vitest';
import {
	anyProxyWindowFilling,
	formatLastShare,
	formatProxyRejectPercent,
	formatProxyShares,
	formatProxyUpstreams,
	formatProxyWindow,
	formatProxyWindows,
	proxyWindowFilling,
} from '../../source/miner/format-proxy.js';

describe('a proxy’s numbers as text', () => {
	test('a window is filling while the proxy has run less than its length, and only then', () => {
		expect(proxyWindowFilling(0, 59)).toBe(true);
		expect(proxyWindowFilling(0, 60)).toBe(false);
		expect(proxyWindowFilling(4, 86_399)).toBe(true);
		expect(proxyWindowFilling(4, 86_400)).toBe(false);
		expect(proxyWindowFilling(2, null)).toBe(false);
		expect(formatProxyWindow(10, 2, 49)).toBe('10.0 H/s~');
		expect(formatProxyWindow(10, 2, 3600)).toBe('10.0 H/s');
		expect(formatProxyWindow(null, 2, 49)).toBe('—');
	});

	test('windows go by their own names', () => {
		expect(formatProxyWindows([950, 90, 10, 0, 1_180_000], 700)).toEqual([
			'1m 950 H/s',
			'10m 90.0 H/s',
			'1h 10.0 H/s~',
			'12h 0.00 H/s~',
			'24h 1.18 MH/s~',
		]);
		expect(anyProxyWindowFilling([950, 90, 10, null, null], 700)).toBe(true);
		expect(anyProxyWindowFilling([950, 90, null, null, null], 700)).toBe(false);
	});

	test('upstreams, shares, reject share and last share', () => {
		expect(formatProxyUpstreams({active: 1, sleep: 0, error: 2, total: 3, ratio: null})).toBe('1 active  0 sleep  2 error  of 3');
		expect(formatProxyUpstreams(null)).toBe('—');
		expect(formatProxyRejectPercent({accepted: 20, rejected: 3})).toBe('13.0%');
		expect(formatProxyRejectPercent({accepted: 0, rejected: 0})).toBe('—');
		expect(formatProxyShares({accepted: 1204, rejected: 1, invalid: 0})).toBe('1 204/1/0');
		expect(formatLastShare(null, 10_000)).toBe('never');
		expect(formatLastShare(1000, 13_000)).toBe('12s ago');
	});
});
