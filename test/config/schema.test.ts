import {describe, expect, it} from 'vitest';
import {
	acceptsString,
	cycleValues,
	isApiGuarded,
	isRestrictedKey,
	isSecret,
	isTokenKey,
	nextInCycle,
	specFor,
	stepNumber,
	validate,
} from '../../source/config/schema.js';

describe('validate', () => {
	it('accepts values in range and refuses others with a plain message', () => {
		expect(validate(['cpu', 'priority'], null)).toBeNull();
		expect(validate(['cpu', 'priority'], 5)).toBeNull();
		expect(validate(['cpu', 'priority'], 7)).toBe('cpu.priority must be null or a whole number from 0 to 5 (not 7)');
		expect(validate(['cpu', 'priority'], 2.5)).toMatch(/whole number/);
		expect(validate(['randomx', 'mode'], 'fast')).toBeNull();
		expect(validate(['randomx', 'mode'], 'turbo')).toBe('randomx.mode must be "auto", "fast", "light" (not "turbo")');
		expect(validate(['http', 'port'], 65_535)).toBeNull();
		expect(validate(['http', 'port'], 70_000)).toBe('http.port must be a whole number from 0 to 65535 (not 70000)');
		expect(validate(['http', 'port'], '8080')).toMatch(/whole number/);
		expect(validate(['donate-level'], 0)).toBeNull();
		expect(validate(['donate-level'], 100)).toMatch(/from 0 to 99/);
		expect(validate(['print-time'], 3600)).toBeNull();
		expect(validate(['print-time'], 3601)).toMatch(/from 0 to 3600/);
		expect(validate(['cpu', 'max-threads-hint'], 0)).toMatch(/from 1 to 100/);
		expect(validate(['pools', 3, 'tls'], true)).toBeNull();
		expect(validate(['pools', 3, 'tls'], 'yes')).toBe('pools.3.tls must be true or false (not "yes")');
		expect(validate(['randomx', '1gb-pages'], 1)).toMatch(/true or false/);
		expect(validate(['pause-on-battery'], false)).toBeNull();
		expect(validate(['colors'], 'on')).toMatch(/true or false/);
	});

	it('knows the keys with more than one form', () => {
		expect(validate(['cpu', 'huge-pages'], true)).toBeNull();
		expect(validate(['cpu', 'huge-pages'], 1_048_576)).toBeNull();
		expect(validate(['cpu', 'huge-pages'], -1)).toMatch(/true or false or a whole number of at least 1/);
		expect(validate(['cpu', 'asm'], false)).toBeNull();
		expect(validate(['cpu', 'asm'], 'ryzen')).toBeNull();
		expect(validate(['cpu', 'asm'], 'arm')).toMatch(/"intel"/);
		expect(validate(['http', 'access-token'], null)).toBeNull();
		expect(validate(['http', 'access-token'], '  ')).toMatch(/non-empty string/);
		expect(validate(['http', 'host'], '')).toMatch(/non-empty/);
		expect(validate(['pause-on-active'], 120)).toBeNull();
	});

	it('knows the older layouts', () => {
		expect(validate(['api', 'port'], 8080)).toBeNull();
		expect(validate(['api', 'port'], -1)).toMatch(/from 0 to 65535/);
		expect(validate(['cpu-priority'], 6)).toMatch(/from 0 to 5/);
		expect(validate(['max-cpu-usage'], 50)).toBeNull();
		expect(validate(['max-cpu-usage'], 0)).toMatch(/from 1 to 100/);
	});

	it('keeps an unknown key to the kind of value it has', () => {
		expect(validate(['mystery'], false, true)).toBeNull();
		expect(validate(['mystery'], 'x', true)).toBe('mystery must be true or false, like its current value (not "x")');
		expect(validate(['mystery'], 3, 1.5)).toBeNull();
		expect(validate(['mystery'], 'a', null)).toBeNull();
		expect(validate(['mystery'], null, 'a')).toBeNull();
		expect(validate(['mystery'], 1, undefined)).toBeNull();
		expect(validate(['mystery'], Number.NaN, 1)).toBe('mystery must be a finite number');
	});
});

describe('secrets and guarded keys', () => {
	it('marks tokens and pool passwords as secret, not pool users', () => {
		expect(isSecret(['http', 'access-token'])).toBe(true);
		expect(isSecret(['api', 'access-token'])).toBe(true);
		expect(isSecret(['pools', 0, 'pass'])).toBe(true);
		expect(isSecret(['pools', 12, 'pass'])).toBe(true);
		expect(isSecret(['pools', 0, 'user'])).toBe(false);
		expect(isSecret(['http', 'port'])).toBe(false);
		expect(isSecret(['pools'])).toBe(false);
	});

	it('guards the changes that can cut rigtop off from the API', () => {
		for (const key of ['enabled', 'host', 'port', 'access-token', 'restricted']) expect(isApiGuarded(['http', key])).toBe(true);
		for (const key of ['port', 'access-token', 'restricted']) expect(isApiGuarded(['api', key])).toBe(true);
		expect(isApiGuarded(['api', 'worker-id'])).toBe(false);
		expect(isApiGuarded(['api', 'id'])).toBe(false);
		expect(isApiGuarded(['cpu', 'enabled'])).toBe(false);
		expect(isTokenKey(['http', 'access-token'])).toBe(true);
		expect(isTokenKey(['api', 'access-token'])).toBe(true);
		expect(isTokenKey(['pools', 0, 'pass'])).toBe(false);
		expect(isRestrictedKey(['api', 'restricted'])).toBe(true);
		expect(isRestrictedKey(['http', 'restricted'])).toBe(true);
	});
});

describe('cycling and stepping', () => {
	it('cycles keys with a known set of values, both ways', () => {
		expect(nextInCycle(['randomx', 'mode'], 'auto')).toBe('fast');
		expect(nextInCycle(['randomx', 'mode'], 'fast')).toBe('light');
		expect(nextInCycle(['randomx', 'mode'], 'light')).toBe('auto');
		expect(nextInCycle(['randomx', 'mode'], 'auto', -1)).toBe('light');
		expect(cycleValues(['cpu', 'priority'], null)).toEqual([null, 0, 1, 2, 3, 4, 5]);
		expect(nextInCycle(['cpu', 'priority'], null)).toBe(0);
		expect(nextInCycle(['cpu', 'priority'], 5)).toBeNull();
		expect(nextInCycle(['cpu', 'priority'], null, -1)).toBe(5);
		expect(nextInCycle(['cpu', 'asm'], true)).toBe(false);
		expect(nextInCycle(['cpu', 'asm'], false)).toBe('intel');
		expect(nextInCycle(['cpu', 'asm'], 'bulldozer')).toBe(true);
		expect(nextInCycle(['cpu', 'hw-aes'], null)).toBe(true);
	});

	it('toggles booleans, and a value outside the cycle moves to its start', () => {
		expect(nextInCycle(['colors'], true)).toBe(false);
		expect(nextInCycle(['unknown-flag'], false)).toBe(true);
		expect(nextInCycle(['cpu', 'asm'], 'auto')).toBe(true);
		expect(nextInCycle(['pools', 0, 'url'], 'x')).toBeUndefined();
		expect(nextInCycle(['cpu', 'huge-pages'], 1_048_576)).toBeUndefined();
	});

	it('steps numbers within the range', () => {
		expect(stepNumber(['cpu', 'priority'], 5, 1)).toBe(5);
		expect(stepNumber(['cpu', 'priority'], 2, 1)).toBe(3);
		expect(stepNumber(['print-time'], 0, -10)).toBe(0);
		expect(stepNumber(['print-time'], 60, 10)).toBe(70);
		expect(stepNumber(['http', 'port'], 65_535, 1)).toBe(65_535);
		expect(stepNumber(['mystery'], 1.5, 1)).toBe(2.5);
		expect(stepNumber(['mystery'], 'a', 1)).toBeUndefined();
		expect(stepNumber(['cpu', 'priority'], null, 1)).toBeUndefined();
	});

	it('says which keys take strings', () => {
		expect(acceptsString(['pools', 0, 'rig-id'], null)).toBe(true);
		expect(acceptsString(['print-time'], 60)).toBe(false);
		expect(acceptsString(['mystery'], 'x')).toBe(true);
		expect(acceptsString(['mystery'], 3)).toBe(false);
		expect(specFor(['donate-level'])?.note).toMatch(/restart/);
	});
});
