/**
 * Issue 36: a hostile miner and a hostile xmrig-proxy on loopback (answers shaped as the real 6.26 captures, their
 * strings full of terminal control: OSC window title and clipboard writes, CSI clear screen, the 8-bit CSI 0x9B, BEL,
 * a bidi override, a worker named as a real one plus U+200B, one with a Cyrillic look-alike letter), then every
 * output of the built CLI, its bytes scanned: the TUI in tmux (its raw output recorded with pipe-pane, the screen,
 * the pane's title and tmux's paste buffers), `--once` as text and JSON, `history` in every format from the history
 * file those runs wrote, `--where` against a process whose command line holds escape bytes, `rigtop pause`'s refusals,
 * the exporter's log as logfmt and JSON and its /metrics, and the --on-alert hook's standard input.
 */
import {execFile, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync} from 'node:fs';
import {tmpdir} from 'node:os';
import type {Socket} from 'node:net';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {captureJson, readCapture} from '../helpers/captures.js';
import {httpAnswer, startRawServer, type RawRequest, type RawServer} from '../helpers/raw-server.js';
import {runCli} from './helpers/cli.js';
import {startExporter} from './helpers/exporter.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const run = promisify(execFile);

const ESC = '\u001B';
const BEL = '\u0007';
/** OSC 52 (the clipboard: "HACKED" in base64) and OSC 0 (the window title). */
const OSC = `${ESC}]52;c;SEFDS0VE${BEL}${ESC}]0;PWNTITLE${BEL}`;
/** CSI clear screen and home, then the 8-bit CSI (U+009B) of a red foreground. */
const CSI = `${ESC}[2J${ESC}[H\u009B31m`;
const RLO = '\u202E';
const ZWSP = '\u200B';
/** U+0456, Cyrillic і: "rіg-02" looks like "rig-02". */
const CYRILLIC_I = '\u0456';

const MINER_WORKER = `wk${OSC}`;
const MINER_VERSION = `6.26.0${CSI}`;
const RESTARTED_VERSION = `6.26.1${ESC}]0;RESTARTTITLE${BEL}${RLO}`;
const PROXY_WORKERS = ['rig-01', `rig-01${ZWSP}`, 'rig-02', `r${CYRILLIC_I}g-02`, `w${ESC}]0;WTITLE${BEL}k\u009B2J${RLO}exe`];

type Json = Record<string, unknown>;

function minerSummary(version: string): Json {
	const summary = captureJson('v6.26/get_2_summary.txt') as Json;
	return {
		...summary,
		id: `cc75c8fccce403c5${RLO}`,
		worker_id: MINER_WORKER,
		version,
		ua: `XMRig/${version} (Linux x86_64)${ESC}[6n`,
		algo: `rx/0${RLO}gnp.exe`,
		results: {...(summary['results'] as Json), shares_good: 12, shares_total: 13, hashes_total: 36_000, diff_current: 3000},
		connection: {
			...(summary['connection'] as Json),
			pool: `pool.example:3333${ESC}]8;;http://evil.example/${BEL}click${ESC}]8;;${BEL}`,
			ip: `127.0.0.1${BEL}`,
			uptime: 52,
			tls: `TLSv1.3\u009B2J`,
			algo: `rx/0${RLO}gnp.exe`,
			diff: 3000,
			accepted: 12,
			rejected: 1,
		},
		cpu: {...(summary['cpu'] as Json), brand: `AMD EPYC${ESC}[6n${CSI}`},
		hashrate: {total: [490.18, 500.5, 480.25], highest: 564.23},
	};
}

function minerBackends(): unknown[] {
	const [cpu] = captureJson('v6.26/get_2_backends.txt') as Json[];
	return [
		{...cpu, algo: `rx/0${RLO}`, profile: `rx${ESC}]0;PROFILE${BEL}`},
		{type: `opencl${ESC}]0;BACKEND${BEL}${RLO}`, enabled: false},
	];
}

function proxySummary(): Json {
	const summary = captureJson('../xmrig-proxy/v6.26/get_1_summary.txt') as Json;
	return {...summary, worker_id: `px${ESC}]0;PROXYTITLE${BEL}`, version: `6.26.0${RLO}\u009B1m`, mode: `nicehash${CSI}`, workers: 5};
}

function proxyWorkers(): Json {
	const [row] = (captureJson('../xmrig-proxy/v6.26/get_1_workers.txt') as {workers: unknown[][]}).workers;
	return {
		hashrate: {total: [0.95, 0.09, 0.01, 0, 0, 1.18]},
		mode: `rig_id${BEL}`,
		workers: PROXY_WORKERS.map((name, index) => [name, `127.0.0.${index + 1}${ESC}[2J`, ...row!.slice(2)]),
	};
}

/** The recorded config, its pool's user and the worker id holding raw C1, bidi and zero-width characters (valid JSON). */
function minerConfig(): string {
	return readCapture('v6.26/get_1_config.txt')
		.body.replace('"realpeer-test"', `"wallet\u009B2J${RLO}gnp.exe"`)
		.replace('"worker-id": "realpeer-v6"', `"worker-id": "rig-01${ZWSP}\u0085"`);
}

const notFound = httpAnswer(404, '{\n    "status": 404,\n    "error": "NOT_FOUND"\n}', 'NOT_FOUND');

let version = MINER_VERSION;
let uptime = 3600;
let bornAt = Date.now();

function minerHandler(request: RawRequest, socket: Socket): void {
	const route = `${request.method} ${request.target}`;
	const up = uptime + Math.floor((Date.now() - bornAt) / 1000);
	const json = (value: unknown) => socket.end(httpAnswer(200, JSON.stringify(value, null, 4)));
	if (route === 'GET /2/summary' || route === 'GET /1/summary') json({...minerSummary(version), uptime: up});
	else if (route === 'GET /2/backends') json(minerBackends());
	else if (route === 'GET /1/config' || route === 'GET /2/config') socket.end(httpAnswer(200, minerConfig()));
	// Refused as 6.26 refuses an unknown method (post_json_rpc_unknown_method.txt), its message hostile.
	else if (route === 'POST /json_rpc') json({error: {code: -32_601, message: `Method not found${OSC}${RLO}`}, jsonrpc: '2.0', id: 1});
	else socket.end(notFound);
}

function proxyHandler(request: RawRequest, socket: Socket): void {
	const route = `${request.method} ${request.target}`;
	const json = (value: unknown) => socket.end(httpAnswer(200, JSON.stringify(value, null, 4)));
	if (route === 'GET /1/summary' || route === 'GET /2/summary' || route === 'GET /api.json') json(proxySummary());
	else if (route === 'GET /1/workers') json(proxyWorkers());
	else socket.end(notFound);
}

/** What no output may hold: each kind of byte sequence a terminal acts on, or that hides or fakes text. */
const FORBIDDEN: ReadonlyArray<readonly [string, RegExp]> = [
	// eslint-disable-next-line no-control-regex
	['ESC (0x1B)', /\u001B/u],
	// eslint-disable-next-line no-control-regex
	['BEL (0x07)', /\u0007/u],
	['a C1 control (0xC2 0x80-0x9F)', /[\u0080-\u009F]/u],
	['a bidi control', /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u],
	['a raw U+200B (a name that looks like another)', /\u200B/u],
	['a Cyrillic letter inside a Latin name, raw', /\u0456/u],
];

/** The forbidden things `bytes` holds (decoded as UTF-8: a C1 byte alone is not UTF-8 and shows as U+FFFD, also refused). */
function leaks(bytes: string | Buffer, ignore: readonly string[] = []): string[] {
	const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
	const found = FORBIDDEN.filter(([name, pattern]) => !ignore.includes(name) && pattern.test(buffer.toString('utf8'))).map(
		([name]) => name,
	);
	// An 8-bit C1 byte written raw (not as UTF-8): 0x80-0x9F not after a UTF-8 lead byte.
	if (buffer.toString('utf8').includes('\uFFFD')) found.push('bytes that are not UTF-8');
	return found;
}

/**
 * The TUI's bytes less its own escape sequences: CSI (cursor, SGR, erase, the private modes Ink sets) but a device
 * status report (`ESC [6n`, which makes the terminal type an answer: Ink never sends it). Anything else is refused.
 */
function withoutInkControls(raw: Buffer): Buffer {
	// eslint-disable-next-line no-control-regex
	return Buffer.from(raw.toString('utf8').replaceAll(/\u001B\[[0-?]*[ -/]*[@-mo-~]/gu, ''));
}

let dir = '';
let state = '';
let miner: RawServer;
let proxy: RawServer;
const outputs = new Map<string, string | Buffer>();
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-hostile-'));
	state = path.join(dir, 'state');
	miner = await startRawServer(minerHandler);
	proxy = await startRawServer(proxyHandler);
});

afterAll(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	await miner?.close();
	await proxy?.close();
	rmSync(dir, {recursive: true, force: true});
});

const address = (server: RawServer) => `127.0.0.1:${server.port}`;
const env = () => ({XDG_STATE_HOME: state, HOME: dir, NO_COLOR: '1'});
async function rigtop(args: string[], token?: string): Promise<{code: number; stdout: string; stderr: string}> {
	const unset = token === undefined ? ['CI', 'RIGTOP_TOKEN'] : ['CI'];
	return runCli(args, {env: {...env(), ...(token === undefined ? {} : {RIGTOP_TOKEN: token})}, unset, cwd: dir, timeout: 30_000});
}

/** A TUI in tmux whose every output byte is recorded: it starts once the pipe is in place (Enter). */
async function recordedTui(args: string[], file: string): Promise<TmuxTerminal> {
	const terminal = await TmuxTerminal.start(['sh', '-c', `read go; exec node "$0" "$@"`, CLI, ...args], {cols: 120, rows: 40, env: env()});
	cleanups.push(async () => terminal.kill());
	await run('tmux', ['-L', terminal.socket, 'pipe-pane', '-o', '-t', terminal.session, `cat >> '${file}'`]);
	await terminal.send('Enter');
	return terminal;
}

async function tmuxText(terminal: TmuxTerminal, ...args: string[]): Promise<string> {
	return (await run('tmux', ['-L', terminal.socket, ...args])).stdout;
}

describe('hostile strings from a miner and a proxy', () => {
	it('leave no control byte and no look-alike name in any output', {timeout: 180_000}, async () => {
		// --once, text and JSON: their samples are the first rows of the history file.
		const once = await rigtop(['--once', address(miner), address(proxy)]);
		expect(once.stdout).toContain('6.26.0');
		outputs.set('--once', once.stdout + once.stderr);
		const onceJson = await rigtop(['--once', '--json', address(miner), address(proxy)]);
		const parsed = JSON.parse(onceJson.stdout) as {miners: Array<{ok: boolean}>};
		expect(parsed.miners.map((each) => each.ok)).toEqual([true, true]);
		outputs.set('--once --json', onceJson.stdout + onceJson.stderr);

		// The exporter, logfmt and JSON.
		const logfmt = await startExporter([address(miner), address(proxy)], cleanups, {env: {...process.env, ...env()}});
		const jsonLog = await startExporter([address(miner), address(proxy), '--log.format', 'json'], cleanups, {
			env: {...process.env, ...env()},
		});

		// The TUI: the miner's dashboard (with the hook and the history), and the fleet of both.
		const hookFile = path.join(dir, 'hook.json');
		const dashboardBytes = path.join(dir, 'dashboard.raw');
		const fleetBytes = path.join(dir, 'fleet.raw');
		const dashboard = await recordedTui([address(miner), '--interval', '0.5', '--on-alert', `sh -c 'cat >> ${hookFile}'`], dashboardBytes);
		const fleet = await recordedTui([address(miner), address(proxy), '--interval', '0.5', '--no-history'], fleetBytes);
		const screens: string[] = [];
		screens.push(await dashboard.waitFor((screen) => screen.includes('● live') && screen.includes('6.26.0')));
		screens.push(await fleet.waitFor((screen) => screen.includes(`:${proxy.port}`) && screen.includes(`:${miner.port}`)));
		// The proxy's row alone (the filter), then its workers.
		await fleet.send('/');
		await fleet.send(String(proxy.port), true);
		await fleet.send('Enter');
		await fleet.send('Enter');
		screens.push(await fleet.waitFor((screen) => screen.includes('rig-02')));
		await fleet.send('e');
		screens.push(await fleet.waitFor((screen) => screen.includes('· events') && screen.includes('watching')));

		// /metrics as Prometheus scrapes it.
		outputs.set('/metrics', await (await fetch(logfmt.metricsUrl)).text());

		// The miner restarts as another (hostile) version: an event, an alert to the hook, a line in each exporter log.
		version = RESTARTED_VERSION;
		uptime = 0;
		bornAt = Date.now();
		await dashboard.send('e');
		screens.push(await dashboard.waitFor((screen) => screen.includes('· events') && screen.includes('restarted')));
		for (const exporter of [logfmt, jsonLog]) {
			for (let tries = 0; !exporter.log().includes('restarted') && tries < 150; tries++)
				await new Promise((resolve) => setTimeout(resolve, 100));
		}

		for (let tries = 0; !existsSync(hookFile) && tries < 150; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
		expect(readFileSync(hookFile, 'utf8')).toContain('"type":"rigtop-alert"');
		outputs.set('the --on-alert hook’s stdin', readFileSync(hookFile));
		logfmt.child.kill('SIGTERM');
		jsonLog.child.kill('SIGTERM');
		await Promise.all([logfmt.exit(), jsonLog.exit()]);
		expect(logfmt.log()).toContain('restarted');
		expect(jsonLog.log()).toContain('restarted');
		outputs.set('the exporter’s logfmt log', logfmt.log());
		outputs.set('the exporter’s JSON log', jsonLog.log());

		// The terminal: no title or clipboard written, no control on screen, and every raw byte Ink did not write itself.
		for (const terminal of [dashboard, fleet]) {
			expect(await tmuxText(terminal, 'display', '-p', '-t', terminal.session, '#{pane_title}')).not.toMatch(/TITLE|BACKEND|PROFILE/);
			expect(await tmuxText(terminal, 'list-buffers', '-F', '#{buffer_sample}').catch(() => '')).not.toContain('HACKED');
		}

		outputs.set('the TUI’s screens', screens.join('\n'));
		await dashboard.send('q');
		await dashboard.waitFor('[exit 0]');
		await fleet.send('q');
		outputs.set('the TUI’s bytes (dashboard, events)', withoutInkControls(readFileSync(dashboardBytes)));
		outputs.set('the TUI’s bytes (fleet, proxy workers, events)', withoutInkControls(readFileSync(fleetBytes)));

		// The history those runs wrote, in every format.
		const list = await rigtop(['history', '--list']);
		expect(list.code).toBe(0);
		outputs.set('history --list', list.stdout + list.stderr);
		outputs.set('history --list --json', (await rigtop(['history', '--list', '--json'])).stdout);
		for (const format of [[], ['--csv'], ['--json']]) {
			for (const server of [miner, proxy]) {
				const shown = await rigtop(['history', address(server), ...format]);
				expect(shown.code).toBe(0);
				outputs.set(`history ${server === miner ? 'MINER' : 'PROXY'} ${format.join(' ')}`, shown.stdout + shown.stderr);
			}
		}

		const rigsFile = path.join(dir, 'rigs.json');
		writeFileSync(rigsFile, JSON.stringify([{name: 'hostile', url: address(miner)}]));
		// pause: the proxy is refused (no pause in its API), the miner too (no token).
		const pause = await rigtop(['pause', address(miner), address(proxy), '--yes']);
		expect(pause.stdout + pause.stderr).toMatch(/xmrig-proxy 6\.26\.0.*has no pause/);
		outputs.set('rigtop pause', pause.stdout + pause.stderr);
		const refused = await rigtop(['pause', address(miner), '--yes'], 'hostile-token');
		expect(refused.stdout + refused.stderr).toContain('Method not found');
		outputs.set('rigtop pause (the miner’s refusal)', refused.stdout + refused.stderr);
		const pauseJson = await rigtop(['pause', address(miner), address(proxy), '--yes', '--json']);
		outputs.set('rigtop pause --json', pauseJson.stdout + pauseJson.stderr);

		// config get: the miner's config as it is written (JSON), and one key of it; config set --dry-run shows its values.
		const configGet = await rigtop(['config', 'get', address(miner)], 'hostile-token');
		expect(configGet.stdout).toContain('gnp.exe');
		outputs.set('config get', configGet.stdout + configGet.stderr);
		outputs.set('config get pools', (await rigtop(['config', 'get', 'pools', address(miner)], 'hostile-token')).stdout);
		const dryRun = await rigtop(['config', 'set', 'api.worker-id="x"', '--dry-run', '--rigs', rigsFile], 'hostile-token');
		expect(dryRun.stdout + dryRun.stderr).toContain('api.worker-id');
		outputs.set('config set --dry-run (a batch)', dryRun.stdout + dryRun.stderr);

		// --where: a process called xmrig, listening on loopback, its command line full of escapes.
		const impostor = spawn(
			process.execPath,
			['-e', 'require("net").createServer().listen(0,"127.0.0.1",()=>console.log(1))', '--', `--url=pool${ESC}]0;WHERETITLE${BEL}`],
			{argv0: `xmrig${ESC}]0;WHERETITLE${BEL}${RLO}\u009B2J`, stdio: ['ignore', 'pipe', 'ignore']},
		);
		cleanups.push(() => {
			impostor.kill();
		});
		await new Promise((resolve) => impostor.stdout.once('data', resolve));
		const where = await rigtop(['--where']);
		expect(where.stdout + where.stderr).toContain(`process ${impostor.pid}`);
		outputs.set('--where', where.stdout + where.stderr);

		const leaking = Object.fromEntries([...outputs].map(([name, bytes]) => [name, leaks(bytes)]).filter(([, found]) => found!.length > 0));
		// Soft: the look-alikes below are checked too, and a failure names every output that leaked.
		expect.soft(leaking).toEqual({});

		// A look-alike is shown visibly distinct from the real name, wherever the proxy's workers are shown.
		const workerScreens = screens.join('\n');
		expect(workerScreens).toContain('rig-01<200B>');
		expect(workerScreens).toContain('r<0456>g-02');
		expect(outputs.get('/metrics')!.toString()).toContain('worker="rig-01<200B>"');
		// Shown, not deleted: a control is in the name as its code, what followed the ESC as plain text, so a worker
		// named with escape sequences is no look-alike of another, and an unterminated sequence swallows nothing.
		expect(outputs.get('/metrics')!.toString()).toContain('worker="w<001B>]0;WTITLE<0007>k<009B>2J<202E>exe"');
		expect(outputs.get('--once')!.toString()).toContain('wk<001B>]52;c;SEFDS0VE<0007><001B>]0;PWNTITLE<0007>');
	});
});
