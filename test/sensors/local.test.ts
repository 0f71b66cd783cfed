/** Which miners are on this machine: only those get its sensors. */
import {hostname} from 'node:os';
import {describe, expect, it} from 'vitest';
import {isLocalUrl} from '../../source/sensors/local.js';

describe('isLocalUrl', () => {
	it('counts loopback, localhost and this machine as local', () => {
		for (const url of [
			'http://127.0.0.1:8080',
			'http://127.1.2.3:80',
			'http://[::1]:8080',
			'http://localhost:8080',
			'http://LOCALHOST.:8080',
			'http://rig.localhost:8080',
			`http://${hostname()}:8080`,
		]) {
			expect(isLocalUrl(url), url).toBe(true);
		}
	});

	it("counts this machine's own interface addresses as local, and no other", () => {
		const own = () => new Set(['192.168.1.20', 'fe80::1']);
		expect(isLocalUrl('http://192.168.1.20:8080', own)).toBe(true);
		expect(isLocalUrl('http://[fe80::1]:8080', own)).toBe(true);
		expect(isLocalUrl('http://192.168.1.21:8080', own)).toBe(false);
	});

	it('never counts a remote rig, a name it would have to look up, or a broken URL', () => {
		const none = () => new Set<string>();
		for (const url of ['http://10.0.0.5:8080', 'http://rig-07.lan:8080', 'http://128.0.0.1', 'http://[::2]:80', 'not a url']) {
			expect(isLocalUrl(url, none), url).toBe(false);
		}
	});
});
