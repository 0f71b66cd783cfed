import {expect, test} from 'vitest';
import {demoSpelling} from '../../source/cli/argv.js';
import {planRun, type CliFlags} from '../../source/cli/options.js';
import {UsageError} from '../../source/session/errors.js';

const base: CliFlags = {interval: 2, demo: false, once: false, json: false, where: false, color: true, readOnly: false};
const plan = (flags: Partial<CliFlags>, positional: string[] = [], env: NodeJS.ProcessEnv = {}) =>
	planRun({positional, flags: {...base, ...flags}, env, stdinIsTty: true, stdoutIsTty: true});

test('NO_COLOR (present and not empty) or --no-color turn colour off', () => {
	expect(plan({}).color).toBe(true);
	expect(plan({}, [], {NO_COLOR: '1'}).color).toBe(false);
	expect(plan({}, [], {NO_COLOR: ''}).color).toBe(true);
	expect(plan({color: false}).color).toBe(false);
});

test('--rigs, --bell and --on-alert reach the plan; the command is split into argv, never run through a shell', () => {
	const result = plan({rigs: 'rigs.json', bell: true, onAlert: `logger -t "rigtop alert"`});
	expect(result.rigsFile).toBe('rigs.json');
	expect(result.bell).toBe(true);
	expect(result.onAlert).toEqual(['logger', '-t', 'rigtop alert']);
	expect(plan({}).onAlert).toBeNull();
	expect(plan({}).bell).toBe(false);
});

test('a malformed --on-alert, an empty --rigs, or --rigs with --demo is bad usage', () => {
	expect(() => plan({onAlert: `say 'oops`})).toThrow(UsageError);
	expect(() => plan({onAlert: `say 'oops`})).toThrow(/--on-alert: the command has an unclosed single quote/);
	expect(() => plan({rigs: ' '})).toThrow(/--rigs needs the path/);
	expect(() => plan({rigs: 'r.json', demo: true})).toThrow(/--demo/);
});

test('--demo proxy (or --demo=proxy) watches the simulated xmrig-proxy; the word is no address', () => {
	expect(plan({demo: true}, ['proxy'])).toMatchObject({demo: true, demoProxy: true, urls: []});
	expect(plan({demo: true}).demoProxy).toBeUndefined();
	expect(() => plan({demo: true}, ['10.0.0.5:8080'])).toThrow(/--demo/);
	expect(demoSpelling(['--demo=proxy', '-i', '1'])).toEqual(['--demo', 'proxy', '-i', '1']);
	expect(demoSpelling(['--', '--demo=proxy'])).toEqual(['--', '--demo=proxy']);
});

test('--paused-alert takes a duration with a unit (default 10 minutes, 0 never); anything else is bad usage', () => {
	expect(plan({}).pausedAlertMs).toBe(600_000);
	expect(plan({pausedAlert: '30m'}).pausedAlertMs).toBe(1_800_000);
	expect(plan({pausedAlert: '90s'}).pausedAlertMs).toBe(90_000);
	expect(plan({pausedAlert: '1.5h'}).pausedAlertMs).toBe(5_400_000);
	expect(plan({pausedAlert: '0'}).pausedAlertMs).toBe(0);
	for (const bad of ['10', 'soon', '-5m', '']) {
		expect(() => plan({pausedAlert: bad})).toThrow(/--paused-alert takes a duration such as 10m, 90s or 1h \(0: never\)/);
	}
});

test('--temp-alert takes degrees Celsius (85, 85C, 85°C); none: each sensor’s own max; anything else is bad usage', () => {
	expect(plan({}).tempAlertC).toBeNull();
	expect(plan({tempAlert: '85'}).tempAlertC).toBe(85);
	expect(plan({tempAlert: '85C'}).tempAlertC).toBe(85);
	expect(plan({tempAlert: '92.5°C'}).tempAlertC).toBe(92.5);
	for (const bad of ['hot', '-5', '0', '400', '85F', '']) {
		expect(() => plan({tempAlert: bad})).toThrow(
			new UsageError(`--temp-alert takes degrees Celsius between 1 and 150, such as 85 or 85C, not ${JSON.stringify(bad)}`),
		);
	}
});

test('with --rigs, a word spelt like a command is a rig name there (namedRigs says if it is not), not a typo', () => {
	expect(plan({rigs: 'rigs.json'}, ['histroy']).urls).toEqual(['histroy']);
	expect(plan({rigs: 'rigs.json'}, ['paus', '3']).urls).toEqual(['paus', '3']);
	expect(() => plan({}, ['histroy'])).toThrow(/unknown command 'histroy'/);
});

test('a first word close to a command is that command mistyped; any other word without a port keeps the port message', () => {
	for (const [typo, command] of [
		['histroy', 'history'],
		['hsitory', 'history'],
		['confg', 'config'],
		['Config', 'config'],
		['exporer', 'exporter'],
	] as const) {
		expect(() => plan({}, [typo])).toThrow(new UsageError(`unknown command '${typo}': did you mean 'rigtop ${command}'?`));
	}

	// Host names: no suggestion, the address's own message.
	for (const host of ['rig-01', 'miner', 'history.lan', 'conf.ig', '[::1]']) {
		expect(() => plan({}, [host])).toThrow(UsageError);
		expect(() => plan({}, [host])).not.toThrow(/unknown command/);
	}

	expect(() => plan({}, ['rig-01'])).toThrow(/port/);
	expect(() => plan({url: ['histroy']})).not.toThrow(/unknown command/);
	expect(plan({}, ['histroy:8080']).urls).toEqual(['histroy:8080']);
});
