/** The notification flags as the command line plans them (issue 38): defaults, where they go, and bad usage. */
import {expect, test} from 'vitest';
import {planCommand, planRun, type CliFlags} from '../../source/cli/options.js';

const base: CliFlags = {interval: 2, demo: false, once: false, json: false, where: false, color: true, readOnly: false};
const plan = (flags: Partial<CliFlags>, env: NodeJS.ProcessEnv = {}, tty = true) =>
	planRun({positional: ['10.0.0.5:8080'], flags: {...base, ...flags}, env, stdinIsTty: tty, stdoutIsTty: tty});

test('the defaults: a 30 s group, a 4 h repeat, 3 opens in 10 minutes flapping; none asked for, null', () => {
	expect(plan({notifyFile: 'notify'}).notify).toEqual({
		urls: [],
		file: 'notify',
		env: undefined,
		groupMs: 30_000,
		repeatMs: 4 * 3_600_000,
		flap: {count: 3, windowMs: 600_000},
		heartbeat: undefined,
	});
	expect(plan({}).notify).toBeNull();
	// meow makes a repeatable flag not given an empty list.
	expect(plan({notify: []}).notify).toBeNull();
	expect(plan({heartbeat: 'https://hc-ping.com/x'}).notify?.heartbeat).toBe('https://hc-ping.com/x');
	expect(plan({notifyFile: 'n', notifyGroup: '0', notifyRepeat: '0', notifyFlap: '5/1h'}).notify).toMatchObject({
		groupMs: 0,
		repeatMs: 0,
		flap: {count: 5, windowMs: 3_600_000},
	});
});

test('RIGTOP_NOTIFY set for every run neither breaks --once nor a run without a terminal; a flag with --once is bad usage', () => {
	const env = {RIGTOP_NOTIFY: 'ntfys://ntfy.sh/topic'};
	expect(plan({}, env).notify?.env).toBe('ntfys://ntfy.sh/topic');
	expect(plan({once: true}, env).notify).toBeNull();
	const piped = plan({}, env, false);
	expect(piped.mode).toBe('once');
	expect(piped.notify).toBeNull();
	expect(piped.notices).toContain('no notification is sent by one snapshot; rigtop watch notifies without a terminal');
	expect(() => plan({once: true, notifyFile: 'n'})).toThrow(
		/^--notify-file goes with the live view, rigtop watch or rigtop exporter, not --once$/,
	);
});

test("rigtop watch: the live view's session without a screen or a terminal; rigtop notify: its action and rig", () => {
	const line = {flags: {...base, notifyFile: 'n'}, env: {}, stdinIsTty: false, stdoutIsTty: false};
	const watch = planCommand({...line, input: ['watch', '10.0.0.5:8080']});
	expect(watch.command).toBe('watch');
	expect(watch.plan).toMatchObject({mode: 'live', urls: ['10.0.0.5:8080'], notices: [], notify: {file: 'n'}});
	const mute = planCommand({...line, input: ['notify', 'mute', 'rig-03', '1h']});
	expect(mute).toMatchObject({command: 'notify', plan: {action: 'mute', rig: 'rig-03', durationMs: 3_600_000}});
	expect(() => planCommand({...line, input: ['watch'], flags: {...base, bell: true}})).toThrow(/--bell has no effect on rigtop watch/);
	expect(() => planCommand({...line, input: ['history'], flags: {...base, notifyGroup: '1m'}})).toThrow(/--notify-group goes with/);
	expect(() => planCommand({...line, input: ['watch'], flags: {...base, notifyRepeat: '1h'}})).toThrow(
		/^--notify-repeat needs a channel: --notify-file PATH, RIGTOP_NOTIFY or --notify URL$/,
	);
});
