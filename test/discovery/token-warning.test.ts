import {describe, expect, it} from 'vitest';
import {cleartextTokenWarning, createCleartextTokenWarner, isLoopbackHost} from '../../source/discovery/token-warning.js';

describe('isLoopbackHost', () => {
	it.each([
		['http://127.0.0.1:18088', true],
		['http://127.8.9.10:1', true],
		['http://localhost:1', true],
		['http://[::1]:1', true],
		['http://[0:0:0:0:0:0:0:1]:1', true],
		['http://[::ffff:127.0.0.1]:1', true],
		['127.0.0.1', true],
		['http://128.0.0.1:1', false],
		['http://192.168.1.5:18088', false],
		['http://[fe80::1]:1', false],
		['http://rig-01:18088', false],
		['http://localhost.example.com:1', false],
	])('%s → %s', (url, loopback) => {
		expect(isLoopbackHost(url)).toBe(loopback);
	});
});

describe('the clear-text token warning', () => {
	it('only for plain HTTP to another host, naming the host and an SSH tunnel', () => {
		expect(cleartextTokenWarning('http://127.0.0.1:18088')).toBeNull();
		expect(cleartextTokenWarning('https://10.0.0.2:18088')).toBeNull();
		const warning = cleartextTokenWarning('http://10.0.0.2:18088');
		expect(warning).toContain('10.0.0.2:18088');
		expect(warning).toContain('ssh -L 18088:127.0.0.1:18088');
	});

	it('once per host, and never without a token', () => {
		const warn = createCleartextTokenWarner();
		expect(warn('http://10.0.0.2:1', null)).toBeNull();
		expect(warn('http://10.0.0.2:1', 'secret-value')).toMatch(/without encryption/);
		expect(warn('http://10.0.0.2:2', 'secret-value')).toBeNull();
		expect(warn('http://10.0.0.3:1', 'secret-value')).toMatch(/10\.0\.0\.3/);
		expect(warn('http://127.0.0.1:1', 'secret-value')).toBeNull();
	});
});
