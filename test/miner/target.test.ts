import {describe, expect, it} from 'vitest';
import {normalizeMinerUrl, TargetError} from '../../source/miner/target.js';

describe('normalizeMinerUrl', () => {
	it.each([
		['127.0.0.1:8080', 'http://127.0.0.1:8080'],
		['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
		['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
		['HTTP://Rig01.Local:44444', 'http://rig01.local:44444'],
		['  rig01:8080  ', 'http://rig01:8080'],
		['[::1]:8080', 'http://[::1]:8080'],
		['http://[::1]:8080/', 'http://[::1]:8080'],
		['[2001:db8::1]:3000', 'http://[2001:db8::1]:3000'],
		[':8080', 'http://127.0.0.1:8080'],
		['8080', 'http://127.0.0.1:8080'],
		['localhost:80', 'http://localhost:80'],
		['10.0.0.5:1', 'http://10.0.0.5:1'],
		['10.0.0.5:65535', 'http://10.0.0.5:65535'],
		['rig01:8080\n', 'http://rig01:8080'],
		['bücher.example:8080', 'http://xn--bcher-kva.example:8080'],
	])('%s → %s', (input, expected) => {
		expect(normalizeMinerUrl(input)).toBe(expected);
	});

	it('is idempotent on its own output', () => {
		for (const input of ['rig:1', '[::1]:8080', '8080', 'http://Example.COM:99/']) {
			const once = normalizeMinerUrl(input);
			expect(normalizeMinerUrl(once)).toBe(once);
		}
	});

	it.each([
		['', /no miner address/u],
		['   ', /no miner address/u],
		['rig01', /needs a port/u],
		['http://rig01', /needs a port/u],
		['rig01:', /needs a port/u],
		['[::1]', /needs a port/u],
		['rig01:0', /out of range/u],
		['rig01:65536', /out of range/u],
		['rig01:8080/1/summary', /must not have a path/u],
		['rig01:8080?x=1', /query/u],
		['rig01:8080#top', /query or fragment/u],
		['https://rig01:8080', /plain HTTP/u],
		['ftp://rig01:8080', /unsupported scheme/u],
		['user:secret@rig01:8080', /no user name or token/u],
		['http://user:secret@rig01:8080', /no user name or token/u],
		['::1:8080', /brackets/u],
		['rig 01:8080', /spaces/u],
		['rig\u000001:8080', /control/u],
		['exa mple:1', /spaces/u],
		['bad_host!:8080', /not a valid host/u],
	])('rejects %j', (input, message) => {
		let thrown: unknown;
		try {
			normalizeMinerUrl(input);
		} catch (error) {
			thrown = error;
		}

		expect(thrown).toBeInstanceOf(TargetError);
		expect((thrown as Error).message).toMatch(message);
	});

	it('never echoes a password given in the address', () => {
		try {
			normalizeMinerUrl('http://admin:hunter2@rig01:8080');
			expect.unreachable();
		} catch (error) {
			expect(String((error as Error).message)).not.toContain('hunter2');
		}
	});
});
