/**
 * No secret of a channel appears anywhere (issue 38, "Done when"): a test token is in every channel URL (the notify
 * file, RIGTOP_NOTIFY and --notify) and in the heartbeat's, and every command of the built CLI is run with them — the
 * live view in tmux (fleet, dashboard, events, help, at 80×24 and 200×50), --once, --once --json, --where, history,
 * history --json, rigtop watch's stderr, the exporter's /metrics and log, notify test, notify mute and mutes, and the
 * error paths (URLs refused, a notify file looser than 0600) — while a rig goes down and comes back, so that every
 * channel is really sent to. Every output, every log and the text of every file of the store is searched for the
 * token: never found. The services must have been reached with it (else the test proves nothing).
 */
import {randomBytes} from 'node:crypto';
import {chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startService, type RunningService} from '../helpers/notify-services.js';
import {runCli} from './helpers/cli.js';
import {startExporter} from './helpers/exporter.js';
import {cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';
import {startWatch} from './helpers/watch-process.js';

/** The test's token: letters and digits, so that it is a valid ntfy topic too. */
const SECRET = `tk38${randomBytes(8).toString('hex')}`;
const work = mkdtempSync(path.join(tmpdir(), 'rigtop-notify-secrets-'));
const state = path.join(work, 'state');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
/** Everything any command wrote, and what it was. */
const outputs: Array<{readonly what: string; readonly text: string}> = [];
const keep = (what: string, text: string) => outputs.push({what, text});

let steady: Simulator;
let victim: Simulator;
let victimPort = 0;
let ntfy: RunningService;
let ntfyEnv: RunningService;
let json: RunningService;
let heartbeat: RunningService;
let notifyFile = '';
let rigsFile = '';
let env: NodeJS.ProcessEnv = {};
let flags: string[] = [];

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	steady = await startSimulator({dialect: '6', warm: true, seed: 381, workerId: 'rig-steady'});
	victim = await startSimulator({dialect: '6', warm: true, seed: 382, workerId: 'rig-victim'});
	victimPort = Number(new URL(victim.url).port);
	ntfy = await startService('ntfy');
	ntfyEnv = await startService('ntfy', {authorization: `Bearer ${SECRET}`});
	json = await startService('json', {authorization: `Basic ${Buffer.from(`rigtop:${SECRET}`).toString('base64')}`});
	heartbeat = await startService('heartbeat');
	notifyFile = path.join(work, 'notify');
	writeFileSync(
		notifyFile,
		[
			`ntfy://127.0.0.1:${ntfy.port}/${SECRET}`,
			`json://rigtop:${SECRET}@127.0.0.1:${json.port}/hook/${SECRET}?+X-Key=${SECRET}&key=${SECRET}`,
			`heartbeat http://127.0.0.1:${heartbeat.port}/ping/${SECRET}`,
			'',
		].join('\n'),
		{mode: 0o600},
	);
	chmodSync(notifyFile, 0o600);
	rigsFile = path.join(work, 'rigs.json');
	writeFileSync(
		rigsFile,
		JSON.stringify([
			{name: 'rig-steady', url: steady.url},
			{name: 'rig-victim', url: victim.url},
		]),
	);
	env = {XDG_STATE_HOME: state, RIGTOP_NOTIFY: `ntfy://${SECRET}@127.0.0.1:${ntfyEnv.port}/from-env`};
	flags = [
		'--notify-file',
		notifyFile,
		'--notify',
		`json://rigtop:${SECRET}@127.0.0.1:${json.port}/flag?token=${SECRET}`,
		'--heartbeat',
		`http://127.0.0.1:${heartbeat.port}/flag/${SECRET}`,
	];
}, 60_000);

afterAll(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	await Promise.all([steady, victim].map(async (sim) => sim?.stop()));
	await Promise.all([ntfy, ntfyEnv, json, heartbeat].map(async (service) => service?.close()));
	rmSync(work, {recursive: true, force: true});
});

/** The victim stopped, then started again on its port. */
async function downAndBack(until: () => Promise<void>): Promise<void> {
	await victim.stop();
	await until();
	victim = await startSimulator({dialect: '6', warm: true, seed: 382, workerId: 'rig-victim', port: victimPort});
}

async function cli(what: string, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) {
	const result = await runCli(args, {env: {...env, ...extraEnv}, timeout: 60_000});
	keep(`${what}: stdout`, result.stdout);
	keep(`${what}: stderr`, result.stderr);
	return result;
}

const sentTo = (service: RunningService) => service.received.filter((request) => request.status >= 200 && request.status < 300).length;

describe('a channel token in every channel URL and the heartbeat', () => {
	it('rigtop watch sends through every channel and writes no token in its log', async () => {
		const watch = startWatch(['--rigs', rigsFile, ...flags, '-i', '1', '--notify-group', '0'], env);
		cleanups.push(async () => watch.stop('SIGKILL'));
		await watch.until(() => expect(watch.stderr()).toMatch(/rig-victim/));
		await downAndBack(async () => {
			await watch.until(() => {
				expect(sentTo(ntfy)).toBeGreaterThan(0);
				expect(sentTo(ntfyEnv)).toBeGreaterThan(0);
				expect(json.received.filter((request) => request.path === `/hook/${SECRET}` && request.status === 200).length).toBeGreaterThan(0);
				expect(json.received.filter((request) => request.path === '/flag' && request.status === 200).length).toBeGreaterThan(0);
			}, 90_000);
		});
		// The back up's resolved message too, and the heartbeat pinged at its URL (--heartbeat's, or the file's line).
		await watch.until(() => expect(sentTo(ntfy)).toBeGreaterThan(1), 90_000);
		await watch.until(() => expect(heartbeat.received.some((request) => request.path.includes(SECRET))).toBe(true), 90_000);
		expect(await watch.stop()).toBe(0);
		keep('watch: stderr', watch.stderr());
		keep('watch: stdout', watch.stdout());
		// The channels were named by what may be shown.
		expect(watch.stderr()).toContain(`ntfy://127.0.0.1:${ntfy.port}`);
		expect(watch.stderr()).not.toContain(SECRET);
	}, 240_000);

	it('the live view draws no token on any screen, at 80×24 and 200×50, a rig down and back included', async () => {
		const screens: string[] = [];
		// No group window (30 s by default): the down notice goes at once, so the test waits for the rig, not the window.
		const terminal = await TmuxTerminal.start(
			['node', path.resolve('dist/cli.js'), '--rigs', rigsFile, ...flags, '-i', '1', '--notify-group', '0'],
			{
				cols: 80,
				rows: 24,
				env: {XDG_STATE_HOME: state, RIGTOP_NOTIFY: env['RIGTOP_NOTIFY'] ?? ''},
			},
		);
		cleanups.push(async () => terminal.kill());
		screens.push(await terminal.waitFor('rig-victim', 20_000));
		const before = sentTo(ntfy);
		await downAndBack(async () => {
			screens.push(await terminal.waitFor(/down/, 30_000));
			await vi.waitFor(() => expect(sentTo(ntfy)).toBeGreaterThan(before), {timeout: 90_000, interval: 100});
		});
		screens.push(await terminal.waitFor(/rig-victim/));
		for (const [cols, rows] of [
			[80, 24],
			[200, 50],
		] as const) {
			await terminal.resize(cols, rows);
			screens.push(await terminal.screen());
			// The fleet's events, a rig's dashboard, its events view, the help.
			for (const keys of ['j', 'Enter', 'e', 'Escape', '?', 'Escape', 'Escape']) {
				await terminal.send(keys);
				await new Promise((resolve) => setTimeout(resolve, 400));
				screens.push(await terminal.screen());
			}
		}

		await terminal.send('q', true);
		screens.push(await terminal.waitFor(/\[exit \d+\]/));
		for (const [index, screen] of screens.entries()) keep(`live view: screen ${index}`, screen);
		expect(screens.join('\n')).toContain('rig-steady');
	}, 240_000);

	it('--once, --once --json and --where print no token', async () => {
		const once = await cli('--once', ['--once', '--rigs', rigsFile]);
		expect(once.code).toBe(0);
		const onceJson = await cli('--once --json', ['--once', '--json', '--rigs', rigsFile]);
		expect(onceJson.code).toBe(0);
		const where = await cli('--where', ['--where', '--rigs', rigsFile, ...flags]);
		expect(where.code).toBe(0);
		expect(where.stdout).toContain(`ntfy  ntfy://127.0.0.1:${ntfy.port}`);
	}, 120_000);

	it('history and history --json print no token', async () => {
		const history = await cli('history --list', ['history', '--list']);
		expect(history.code).toBe(0);
		expect(history.stdout).toContain('rig-victim');
		const historyJson = await cli('history --list --json', ['history', '--list', '--json']);
		expect(historyJson.code).toBe(0);
		for (const rig of ['rig-victim', 'rig-steady']) {
			const events = await cli(`history ${rig} --json`, ['history', rig, '--json']);
			expect(events.code).toBe(0);
		}
	}, 120_000);

	it("the exporter's /metrics and log hold no token, a rig down and back included", async () => {
		const exporterEnv: NodeJS.ProcessEnv = {...process.env, ...env};
		delete exporterEnv['CI'];
		const exporter = await startExporter(
			['--rigs', rigsFile, ...flags, '--notify-group', '0'],
			cleanups as (() => Promise<void> | void)[],
			{env: exporterEnv},
		);
		const before = sentTo(ntfy);
		let metrics = await (await fetch(exporter.metricsUrl)).text();
		keep('exporter: /metrics', metrics);
		await downAndBack(async () => {
			await vi.waitFor(() => expect(sentTo(ntfy)).toBeGreaterThan(before), {timeout: 90_000, interval: 100});
		});
		metrics = await (await fetch(exporter.metricsUrl)).text();
		keep('exporter: /metrics after', metrics);
		expect(metrics).toContain('rig-victim');
		exporter.child.kill('SIGTERM');
		await exporter.exit();
		keep('exporter: log', exporter.log());
	}, 180_000);

	it('notify test, notify mute, mutes and unmute print no token', async () => {
		const test = await cli('notify test', ['notify', 'test', ...flags]);
		expect(test.code).toBe(0);
		expect(test.stdout).toMatch(/ok 200/);
		const mute = await cli('notify mute', ['notify', 'mute', 'rig-victim', '1h']);
		expect(mute.code).toBe(0);
		const mutes = await cli('notify mutes', ['notify', 'mutes']);
		expect(mutes.stdout).toContain('rig-victim');
		await cli('notify unmute', ['notify', 'unmute', 'rig-victim']);
	}, 120_000);

	it('the error paths print no token: URLs refused, a loose notify file, a channel refusing', async () => {
		const refused = [
			`foo://rigtop:${SECRET}@127.0.0.1/x`,
			`ntfy://127.0.0.1:99999/${SECRET}`,
			`ntfy://127.0.0.1/${SECRET}/two/topics`,
			`https://example.com/${SECRET}`,
			`json://127.0.0.1:1/x?method=${SECRET}`,
			`json://127.0.0.1:1/x?+${SECRET}:x=1`,
			`tgram://${SECRET}`,
			`ntfy://127.0.0.1:1/${SECRET} with-space`,
		];
		for (const url of refused) {
			for (const args of [
				['watch', '--rigs', rigsFile, '--notify', url],
				['notify', 'test', '--notify', url],
			]) {
				const result = await cli(`refused ${args[0]} ${url.split(':')[0]}`, args);
				expect(result.code, `${args.join(' ')}`).toBe(2);
			}

			const fromEnv = await cli(`refused RIGTOP_NOTIFY ${url.split(':')[0]}`, ['notify', 'test'], {RIGTOP_NOTIFY: url});
			expect(fromEnv.code).toBe(2);
		}

		const loose = path.join(work, 'notify-loose');
		writeFileSync(loose, `ntfy://127.0.0.1:${ntfy.port}/${SECRET}\n`, {mode: 0o644});
		chmodSync(loose, 0o644);
		for (const args of [
			['watch', '--rigs', rigsFile, '--notify-file', loose],
			['notify', 'test', '--notify-file', loose],
			['--where', '--rigs', rigsFile, '--notify-file', loose],
		]) {
			const result = await cli(`loose file ${args[0]}`, args);
			expect(result.code).toBe(2);
			expect(result.stderr).toMatch(/chmod 600/);
		}

		// A channel that refuses (403) and one where nothing listens: notify test says why, with no token.
		const forbidding = await startService('ntfy', {faults: [403]});
		cleanups.push(async () => forbidding.close());
		const failing = await cli('notify test failing', ['notify', 'test', '--notify', `ntfy://${SECRET}@127.0.0.1:${forbidding.port}/t`], {
			RIGTOP_NOTIFY: `json://rigtop:${SECRET}@127.0.0.1:1/nothing-listens`,
		});
		expect(failing.code).toBe(1);
		expect(failing.stdout).toMatch(/403/);
	}, 180_000);

	it('the store holds no token in any of its files, and nothing printed held one', () => {
		const files: string[] = [];
		const walk = (dir: string) => {
			for (const entry of readdirSync(dir)) {
				const full = path.join(dir, entry);
				if (statSync(full).isDirectory()) walk(full);
				else files.push(full);
			}
		};

		walk(state);
		expect(files.some((file) => /\.(db|sqlite)$/.test(file))).toBe(true);
		for (const file of files) keep(`store file ${path.relative(state, file)}`, readFileSync(file, 'latin1'));
		// Every command ran and said something; none said the token.
		expect(outputs.length).toBeGreaterThan(40);
		const found = outputs.filter(({text}) => text.includes(SECRET)).map(({what}) => what);
		expect(found).toEqual([]);
	});
});
