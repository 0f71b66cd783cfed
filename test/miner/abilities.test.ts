import {describe, expect, test} from 'vitest';
import {configRefusal, controlRefusal, minerProduct} from '../../source/miner/abilities.js';
import {makeSnapshot} from '../helpers/snapshot.js';

const token = {tokenGiven: true};

describe('what a miner lets rigtop do', () => {
	test('pause and resume: from XMRig 2.99.6, never in the 2.x GPU miners or xmrig-proxy', () => {
		expect(controlRefusal(makeSnapshot(), token)).toBeNull();
		expect(controlRefusal(makeSnapshot({version: '2.99.6-beta', dialect: 'v2'}), token)).toBeNull();
		expect(controlRefusal(makeSnapshot({version: '2.99.5-beta', dialect: 'v2', restricted: null, paused: null}), token)).toBe(
			'XMRig 2.99.5-beta has no pause or resume in its API (they came in XMRig 2.99.6)',
		);
		expect(controlRefusal(makeSnapshot({version: '2.14.4', dialect: 'v1', kind: 'cpu', restricted: null}), token)).toBe(
			'XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)',
		);
		// The dialect says it even when the version does not parse.
		expect(controlRefusal(makeSnapshot({version: null, dialect: 'v1-summary-only'}), token)).toMatch(/^XMRig has no pause/);
		expect(controlRefusal(makeSnapshot({version: '2.14.5', dialect: 'v1', kind: 'nvidia'}), token)).toMatch(
			/^XMRig-NVIDIA 2\.14\.5 has no pause/,
		);
		expect(controlRefusal(makeSnapshot({kind: 'proxy'}), token)).toBe(
			'xmrig-proxy 6.26.0 has no pause or resume in its API (its JSON-RPC has no methods)',
		);
	});

	test('a restricted miner, or no token, allows neither pause nor config', () => {
		const restricted = makeSnapshot({restricted: true});
		expect(controlRefusal(restricted, token)).toBe("the miner's API is restricted: pausing needs http.restricted false and a token");
		expect(configRefusal(restricted, token)).toBe(
			"the miner's API is restricted: reading its config needs http.restricted false and a token",
		);
		expect(controlRefusal(makeSnapshot(), {tokenGiven: false})).toBe(
			"pausing needs the miner's access token: --token-file or RIGTOP_TOKEN",
		);
		expect(configRefusal(makeSnapshot(), {tokenGiven: false})).toMatch(/^reading its config needs the miner's access token/);
		// Before 2.15.1 the key is api.restricted.
		expect(configRefusal(makeSnapshot({version: '2.14.4', dialect: 'v1', restricted: true}), token)).toContain('api.restricted');
	});

	test('the config: from 2.6 (2.4 and 2.5 answer every path with the summary)', () => {
		expect(configRefusal(makeSnapshot({version: '2.14.4', dialect: 'v1', restricted: null}), token)).toBeNull();
		expect(configRefusal(makeSnapshot({version: '2.5.2', dialect: 'v1-summary-only', restricted: null}), token)).toBe(
			'XMRig 2.5.2 has no config in its API (that came in XMRig 2.6)',
		);
	});

	test('xmrig-proxy: its config from 2.5 (GET and PUT as on the miner), api.restricted before its 3.0', () => {
		const proxy = (version: string, restricted: boolean | null = false) =>
			makeSnapshot({kind: 'proxy', dialect: 'proxy', version, restricted, paused: null});
		expect(configRefusal(proxy('6.26.0'), token)).toBeNull();
		expect(configRefusal(proxy('2.5.3', null), token)).toBeNull();
		expect(configRefusal(proxy('2.4.5', null), token)).toBe('xmrig-proxy 2.4.5 has no config in its API (that came in xmrig-proxy 2.5)');
		expect(configRefusal(proxy('6.26.0'), {tokenGiven: false})).toMatch(/^reading its config needs the miner's access token/);
		expect(configRefusal(proxy('2.15.0', true), token)).toContain('api.restricted false');
		expect(configRefusal(proxy('6.26.0', true), token)).toContain('http.restricted false');
	});

	test('products are named as their users know them', () => {
		expect(minerProduct({kind: 'amd', version: '2.14.6'})).toBe('XMRig-AMD 2.14.6');
		expect(minerProduct({kind: 'miner', version: null})).toBe('XMRig');
	});
});
