/**
 * Secrets: ONE test runs every flow it can reach with a unique access token and a unique pool password, captures
 * everything rigtop shows or writes, and asserts that neither ever appears:
 * - the built CLI: --once text and --once --json (good, 401, 403, unreachable; token from RIGTOP_TOKEN, --token-file
 *   and --token), --where (from the miner's own config file), `config get` / `config set` (good and failing);
 * - the live dashboard in a real terminal (tmux): every frame sampled, live, pause/resume, the config view, the miner
 *   going down, a wrong token;
 * - rigtop exporter: its log and its /metrics with a good miner, a 401, a 403 and an unreachable one;
 * - the config engine in process: apply, undo, a conflict, a PUT that fails, and the ConfigSession over them, every
 *   result and message (as JSON and as util.inspect prints it);
 * - every file rigtop wrote under a private HOME / XDG_STATE_HOME / XDG_CONFIG_HOME / XDG_CACHE_HOME, except the
 *   backups directory (backups hold the token by design: mode 0600 in a 0700 directory).
 */
import {execFile, spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {inspect} from 'node:util';
import {beforeAll, expect, it} from 'vitest';
import {applyEdits, undoLast, type ApplyResult} from '../../source/config/apply.js';
import {PendingEdits} from '../../source/config/edits.js';
import {ConfigSession} from '../../source/config/session.js';
import {MinerClient} from '../../source/miner/client.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {edit} from '../config/helpers/edit.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {freePort} from '../helpers/raw-server.js';
import {CLI, cliIsBuilt, TmuxTerminal} from '../e2e/helpers/tmux.js';
import {readCapture} from '../helpers/captures.js';

const TOKEN = `tok-${randomBytes(9).toString('hex')}`;
const POOL_PASS = `pass-${randomBytes(9).toString('hex')}`;
const OTHER_TOKEN = `other-${randomBytes(6).toString('hex')}`;

/** The recorded 6.26 config with our token and pool password in it. */
const minerConfig = readCapture('v6.26/get_1_config.txt')
	.body.replace('"access-token": "testtoken"', `"access-token": "${TOKEN}"`)
	.replace('"pass": "x"', `"pass": "${POOL_PASS}"`);

type Captured = {readonly label: string; readonly text: string};

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	expect(minerConfig).toContain(TOKEN);
	expect(minerConfig).toContain(POOL_PASS);
});

async function run(args: readonly string[], env: Record<string, string>): Promise<{code: number | null; stdout: string; stderr: string}> {
	const childEnv: NodeJS.ProcessEnv = {...process.env, ...env};
	delete childEnv['CI'];
	delete childEnv['RIGTOP_TOKEN'];
	Object.assign(childEnv, env);
	return new Promise((resolve) => {
		execFile('node', [CLI, ...args], {env: childEnv, timeout: 30_000}, (error, stdout, stderr) => {
			resolve({code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr});
		});
	});
}

function filesUnder(dir: string, skip: string): string[] {
	const found: string[] = [];
	const walk = (current: string): void => {
		for (const name of readdirSync(current)) {
			const full = path.join(current, name);
			if (full === skip) continue;
			const stat = statSync(full);
			if (stat.isDirectory()) walk(full);
			else found.push(full);
		}
	};

	walk(dir);
	return found;
}

function describeResult(result: ApplyResult | null): string {
	return `${JSON.stringify(result)}\n${inspect(result, {depth: 12})}\n${result?.message ?? ''}`;
}

it('neither the token nor a pool password appears in any output, frame, message or file rigtop writes', async () => {
	const captured: Captured[] = [];
	const keep = (label: string, text: string) => captured.push({label, text});
	const home = tempDir('rigtop-secrets-home-');
	const inputs = tempDir('rigtop-secrets-inputs-');
	const stateHome = path.join(home.dir, '.local', 'state');
	const backups = path.join(stateHome, 'rigtop', 'backups');
	const env = {
		HOME: home.dir,
		XDG_STATE_HOME: stateHome,
		XDG_CONFIG_HOME: path.join(home.dir, '.config'),
		XDG_CACHE_HOME: path.join(home.dir, '.cache'),
	};
	for (const dir of Object.values(env)) mkdirSync(dir, {recursive: true});
	const simulators: Simulator[] = [];
	const terminals: TmuxTerminal[] = [];
	const clients: MinerClient[] = [];
	try {
		// The config names the port the miner listens on (an applied config moves the API there): a free one.
		const port = await freePort();
		const goodConfig = minerConfig.replace(/"port": \d+/u, `"port": ${port}`);
		const good = await startSimulator({
			dialect: '6',
			token: TOKEN,
			restricted: false,
			warm: true,
			configText: goodConfig,
			port,
			applyDelayMs: 100,
		});
		const noToken = await startSimulator({dialect: '6', token: null, restricted: true, warm: true, workerId: 'no-token-rig'}); // any token → 401
		const wrong = await startSimulator({dialect: '6', token: OTHER_TOKEN, restricted: false, warm: true, workerId: 'wrong-token-rig'}); // our token → 403
		const gone = await startSimulator({dialect: '2', token: TOKEN});
		const goneUrl = gone.url;
		await gone.stop();
		simulators.push(good, noToken, wrong);
		expect(good.configText()).toContain(POOL_PASS);

		const tokenFile = path.join(inputs.dir, 'token');
		writeFileSync(tokenFile, `${TOKEN}\n`, {mode: 0o600});
		const configFile = path.join(inputs.dir, 'config.json');
		writeFileSync(configFile, goodConfig, {mode: 0o600});

		// ---- the CLI: --once, --json, --where, config get/set ----
		const tokenEnv = {...env, RIGTOP_TOKEN: TOKEN};
		const cliRuns: Array<[string, readonly string[], Record<string, string>]> = [
			['--once good', ['--once', good.url], tokenEnv],
			['--once --json good', ['--once', '--json', good.url], tokenEnv],
			['--once 401', ['--once', noToken.url], tokenEnv],
			['--once --json 401', ['--once', '--json', noToken.url], tokenEnv],
			['--once 403', ['--once', wrong.url], tokenEnv],
			['--once --json 403', ['--once', '--json', wrong.url], tokenEnv],
			['--once unreachable', ['--once', goneUrl], tokenEnv],
			['--once --json unreachable', ['--once', '--json', goneUrl], tokenEnv],
			['--once --token-file', ['--once', '--token-file', tokenFile, good.url, wrong.url], env],
			['--once --token', ['--once', '--json', '--token', TOKEN, wrong.url], env],
			['--once --config', ['--once', '--config', configFile], env],
			['--where --config', ['--where', '--config', configFile], env],
			['--where --token-file', ['--where', '--token-file', tokenFile, good.url], env],
			['config get', ['config', 'get', good.url], tokenEnv],
			['config get token', ['config', 'get', 'http.access-token', good.url], tokenEnv],
			['config get pools', ['config', 'get', 'pools', good.url], tokenEnv],
			['config set', ['config', 'set', 'colors=false', 'print-time=30', good.url], tokenEnv],
			['config set 403', ['config', 'set', 'colors=true', wrong.url], tokenEnv],
			['config set unreachable', ['config', 'set', 'colors=true', goneUrl], tokenEnv],
			['config get --config', ['config', 'get', '--config', configFile], env],
		];
		for (const [label, args, runEnv] of cliRuns) {
			const result = await run(args, runEnv);
			keep(`${label} stdout`, result.stdout);
			keep(`${label} stderr`, result.stderr);
			keep(`${label} exit`, String(result.code));
		}

		// The flows really ran: the good miner was read, the config printed (masked), the bad ones refused.
		const text = (label: string) => captured.find((entry) => entry.label === label)?.text ?? '';
		expect(text('--once good stdout')).toContain('realpeer-v6'); // the worker id of the recorded config
		expect(text('--once 403 stdout')).toMatch(/403/);
		expect(text('--once 401 stdout')).toMatch(/401/);
		expect(text('--where --config stdout')).toMatch(/token/i);
		expect(text('config get stdout')).toContain('"pools"');
		expect(text('config get stdout')).toContain('••••••••');
		expect(text('config set exit'), text('config set stdout') + text('config set stderr')).toBe('0');

		// ---- the live dashboard in a real terminal ----
		const frames = async (terminal: TmuxTerminal, label: string) => keep(label, await terminal.screen());
		const live = await TmuxTerminal.start(['node', CLI, good.url, '--interval', '0.5'], {cols: 100, rows: 30, env: tokenEnv});
		terminals.push(live);
		await live.waitFor('realpeer-v6', 8000);
		await frames(live, 'tmux live');
		await live.send('p', true);
		await live.waitFor(/Pause mining on/, 5000);
		await frames(live, 'tmux pause question');
		await live.send('y', true);
		await live.waitFor(/pause sent|paused/, 5000);
		await frames(live, 'tmux paused');
		await live.send('r', true);
		await live.waitFor(/resume sent/, 5000);
		await frames(live, 'tmux resumed');
		await live.send('c', true);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		await frames(live, 'tmux config view');
		for (const key of ['Down', 'Down', 'Down', 'Enter', 'Down', 'Down', 'Enter']) {
			await live.send(key);
			await frames(live, `tmux config view ${key}`);
		}

		await live.send('Escape');
		await live.send('Escape');
		await good.stop();
		await live.waitFor(/stale|down/, 8000);
		await frames(live, 'tmux down');
		await good.start();
		await live.waitFor(/live/, 8000);
		await live.send('q', true);
		await frames(live, 'tmux after quit');

		const refused = await TmuxTerminal.start(['node', CLI, wrong.url, '--interval', '0.5'], {cols: 80, rows: 24, env: tokenEnv});
		terminals.push(refused);
		await refused.waitFor(/error|403/, 8000);
		await frames(refused, 'tmux 403');

		// ---- the history the runs above stored (every poll and event, the live session's pause and config) ----
		for (const [label, args] of [
			['history', ['history', good.url]],
			['history --json', ['history', '--json', good.url]],
			['history --csv', ['history', '--csv', good.url]],
			['history --list', ['history', '--list']],
		] as const) {
			const result = await run(args, tokenEnv);
			keep(`${label} stdout`, result.stdout);
			keep(`${label} stderr`, result.stderr);
		}

		expect(text('history stdout')).toMatch(/pause sent/);
		expect(text('history --csv stdout')).toMatch(/resume sent/);

		// ---- rigtop exporter: its log and what it serves on /metrics ----
		const exporter = spawn(
			'node',
			[CLI, 'exporter', '--listen', '127.0.0.1:0', '--interval', '0.5', good.url, wrong.url, noToken.url, goneUrl],
			{
				env: (() => {
					const childEnv: NodeJS.ProcessEnv = {...process.env, ...tokenEnv};
					delete childEnv['CI'];
					return childEnv;
				})(),
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let exporterLog = '';
		exporter.stderr.on('data', (chunk: Buffer) => (exporterLog += chunk.toString()));
		try {
			const deadline = Date.now() + 15_000;
			let metrics = '';
			while (
				!/xmrig_up\{[^}]*\} 1/.test(metrics) ||
				!metrics.includes('reason="forbidden"') ||
				!metrics.includes('reason="unauthorized"')
			) {
				if (Date.now() > deadline)
					throw new Error(`the exporter did not serve every miner's state within 15 s:\n${exporterLog}\n${metrics}`);
				await new Promise((resolve) => setTimeout(resolve, 200));
				const url = /serving (http:\/\/\S+\/metrics)/.exec(exporterLog)?.[1];
				if (url) metrics = await (await fetch(url)).text();
			}

			keep('exporter /metrics', metrics);
			expect(metrics).toContain('worker_id="realpeer-v6"');
		} finally {
			const exited = new Promise((resolve) => exporter.once('exit', resolve));
			exporter.kill('SIGTERM');
			await exited;
			keep('exporter stderr', exporterLog);
		}

		// ---- the config engine in process ----
		const client = new MinerClient({url: good.url, token: TOKEN});
		clients.push(client);
		const fast = {backupDir: backups, verifyTimeoutMs: 2000, verifyIntervalMs: 50, tokenGiven: true} as const;
		const read = await client.getText('/1/config');
		const toggled = new PendingEdits(read).toggle(['colors']);
		if (!toggled.ok) throw new Error(toggled.message);
		const applied = await applyEdits({client, baseText: read, edits: toggled.edits, ...fast});
		keep('apply', describeResult(applied));
		expect(applied.status).toBe('done');
		if (applied.status === 'done') {
			const undone = await undoLast({client, applied: applied.applied ?? applied.sent, ...fast});
			keep('undo', describeResult(undone));
		}

		const stale = await client.getText('/1/config');
		good.setConfigText(stale.replace(POOL_PASS, `${POOL_PASS}-changed`));
		const conflictEdits = new PendingEdits(stale).toggle(['colors']);
		if (!conflictEdits.ok) throw new Error(conflictEdits.message);
		const conflict = await applyEdits({client, baseText: stale, edits: conflictEdits.edits, ...fast});
		expect(conflict.status).toBe('conflict');
		keep('conflict', describeResult(conflict));
		good.setConfigText(stale);

		const session = new ConfigSession({
			client,
			backupDir: backups,
			readOnly: false,
			tokenGiven: true,
			verifyTimeoutMs: 2000,
			verifyIntervalMs: 50,
		});
		await session.load();
		edit(session, (edits) => edits.toggle(['colors']));
		edit(session, (edits) => edits.set(['pools', 0, 'pass'], `${POOL_PASS}-new`));
		// What the config view shows: the tree's display values and the diff of the pending edits.
		const shown = () => {
			const state = session.getState();
			const tree =
				state.edits
					?.document()
					.entries()
					.map((entry) => `${entry.id} ${entry.display}`) ?? [];
			return [...tree, ...(state.edits?.diffLines() ?? []), JSON.stringify(state.problem), describeResult(state.lastResult)].join('\n');
		};

		keep('session pending', shown());
		keep('session apply', describeResult(await session.apply()));
		keep('session undo', describeResult(await session.undo()));
		keep('session state', shown());
		// A PUT that cannot be delivered.
		edit(session, (edits) => edits.toggle(['colors']));
		const realPut = client.putJsonText.bind(client);
		client.putJsonText = async (target, body, signal) => {
			await good.stop();
			return realPut(target, body, signal);
		};
		keep('session failed apply', describeResult(await session.apply()));
		keep('session failed state', shown());
		session.dispose();

		// ---- the check ----
		const written = filesUnder(home.dir, backups);
		// The history store is among them (it holds the sessions' polls and events).
		expect(written.some((file) => file.endsWith(path.join('rigtop', 'history.sqlite')))).toBe(true);
		for (const file of written) keep(`file ${path.relative(home.dir, file)}`, readFileSync(file, 'utf8'));
		// The scan works: the backups (left out on purpose) do hold the token.
		const backupFiles = readdirSync(backups);
		expect(backupFiles.length).toBeGreaterThan(0);
		expect(backupFiles.some((name) => readFileSync(path.join(backups, name), 'utf8').includes(TOKEN))).toBe(true);

		expect(captured.length).toBeGreaterThan(40);
		const leaks = captured.filter((entry) => entry.text.includes(TOKEN) || entry.text.includes(POOL_PASS)).map((entry) => entry.label);
		expect(leaks).toEqual([]);
		for (const entry of captured) expect(entry.text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
	} finally {
		for (const terminal of terminals) await terminal.kill();
		for (const client of clients) await client.close();
		for (const simulator of simulators) await simulator.stop();
		home.remove();
		inputs.remove();
	}
}, 120_000);
