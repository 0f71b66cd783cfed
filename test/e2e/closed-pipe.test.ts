/**
 * A reader that goes away (`rigtop history --json | head -1`): every command that prints ends quietly, with no
 * stack trace, whether its output meets a pipe already closed or one closed after the first line was read.
 */
import {execFile, execFileSync, spawn} from 'node:child_process';
import {closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {HistoryStore} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {eventRecord, goodSample, observation, sixFacts} from '../history/helpers.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const run = promisify(execFile);
/** A miner nobody answers at: `rigtop history` finds its polls by the address they were stored at. */
const STORED = 'http://127.0.0.1:9';
const POLLS = 3000;

let dir = '';
let sim: Simulator;
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-pipe-'));
	env = {
		...process.env,
		HOME: dir,
		XDG_STATE_HOME: path.join(dir, 'state'),
		XDG_CACHE_HOME: path.join(dir, 'cache'),
		RIGTOP_TOKEN: 'pipe-token',
	};
	delete env['CI'];
	sim = await startSimulator({dialect: '6', warm: true, restricted: false, token: 'pipe-token'});
	// A store big enough that its --json, --csv and text (the events) are far more than a pipe holds (64 KiB).
	const now = Date.now();
	const store = HistoryStore.open({file: path.join(dir, 'state', 'rigtop', 'history.sqlite')});
	const writer = new HistoryWriter(store, {now: () => now});
	const start = now - POLLS * 1000;
	const name = 'rig-far';
	writer.write(
		Array.from({length: POLLS}, (_, i) =>
			observation(goodSample(start + i * 1000, 1000 + i), sixFacts('id-far', name), {url: STORED, name}),
		),
		Array.from({length: POLLS}, (_, i) =>
			eventRecord(start + i * 1000, 'pool', `pool switch ${i}: pool.example.org:3333`, {url: STORED, name, severity: 'info'}),
		),
	);
	store.close();
}, 60_000);

afterAll(async () => {
	await sim.stop();
	rmSync(dir, {recursive: true, force: true});
});

type Ended = {code: number | null; signal: string | null; stderr: string};

/** Runs the CLI with stdout a FIFO whose only reader closed before rigtop started: its first write fails. */
async function withStdoutClosed(args: readonly string[]): Promise<Ended> {
	const fifo = path.join(dir, `fifo-${Math.random().toString(36).slice(2)}`);
	execFileSync('mkfifo', [fifo]);
	const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
	const writer = openSync(fifo, constants.O_WRONLY);
	closeSync(reader);
	const child = spawn('node', [CLI, ...args], {env, stdio: ['ignore', writer, 'pipe']});
	closeSync(writer);
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const ended = await new Promise<Ended>((resolve, reject) => {
		// A bound on a hang, not a timing goal.
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`rigtop ${args.join(' ')} did not end after its reader went away`));
		}, 30_000);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({code, signal, stderr});
		});
	});
	rmSync(fifo);
	return ended;
}

/** As a shell runs `rigtop ARGS | head -1`: the first line, rigtop's stderr and exit status. */
async function pipedToHead(args: readonly string[]): Promise<{first: string; status: number; stderr: string}> {
	const script = 'node "$@" 2>"$RIGTOP_ERR" | head -1; echo "${PIPESTATUS[0]}" >"$RIGTOP_STATUS"';
	const errFile = path.join(dir, 'head.err');
	const statusFile = path.join(dir, 'head.status');
	const {stdout} = await run('bash', ['-c', script, 'bash', CLI, ...args], {
		env: {...env, RIGTOP_ERR: errFile, RIGTOP_STATUS: statusFile},
		timeout: 30_000,
		maxBuffer: 1024 * 1024,
	});
	return {first: stdout, status: Number(readFileSync(statusFile, 'utf8').trim()), stderr: readFileSync(errFile, 'utf8')};
}

function expectQuiet(stderr: string, what: string): void {
	expect(stderr, what).not.toMatch(/EPIPE|Error|\n\s+at |Unhandled/);
}

describe('a closed pipe', () => {
	it('every command that prints ends quietly when its stdout has no reader, with its own exit status', async () => {
		const miner = `127.0.0.1:${sim.port}`;
		const commands: [string[], number][] = [
			[['--help'], 0],
			[['--version'], 0],
			[['--once', miner], 0],
			[['--once', '--json', miner], 0],
			[['--once', '127.0.0.1:9'], 1],
			[['history', STORED], 0],
			[['history', STORED, '--json'], 0],
			[['history', STORED, '--csv'], 0],
			[['history', '--list'], 0],
			[['history', '--list', '--json'], 0],
			[['config', 'get', miner], 0],
			[['config', 'get', 'pools', miner], 0],
			[['--where', miner], 0],
		];
		for (const [args, status] of commands) {
			const ended = await withStdoutClosed(args);
			expectQuiet(ended.stderr, args.join(' '));
			expect(ended.signal, args.join(' ')).toBeNull();
			expect(ended.code, args.join(' ')).toBe(status);
		}
	}, 240_000);

	it('history in every format stops after `| head -1` read its first line: no stack, status 0', async () => {
		for (const [args, first] of [
			[['history', STORED, '--json'], '{'],
			[['history', STORED, '--csv'], 'time,record,resolution'],
			[['history', STORED], 'rig-far (http://127.0.0.1:9)'],
		] as const) {
			const result = await pipedToHead(args);
			expect(result.first.startsWith(first), args.join(' ')).toBe(true);
			expect(result.first.split('\n').filter(Boolean)).toHaveLength(1);
			expectQuiet(result.stderr, args.join(' '));
			expect(result.status, args.join(' ')).toBe(0);
		}
	}, 120_000);

	it('a closed stderr is no crash either: what it says is dropped and the exit status kept', async () => {
		const fifo = path.join(dir, 'fifo-err');
		execFileSync('mkfifo', [fifo]);
		const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
		const writer = openSync(fifo, constants.O_WRONLY);
		closeSync(reader);
		// Not a terminal: the snapshot, after a notice on stderr.
		const child = spawn('node', [CLI, `127.0.0.1:${sim.port}`], {env, stdio: ['ignore', 'pipe', writer]});
		closeSync(writer);
		let stdout = '';
		child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		expect(code).toBe(0);
		expect(stdout).toContain(`http://127.0.0.1:${sim.port}`);
		expectQuiet(stdout, 'stdout');
	}, 60_000);
});
