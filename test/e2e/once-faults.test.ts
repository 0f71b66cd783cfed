/**
 * The built CLI, `--once` and `--once --json`, against every fault of the fault server: it ends within the client's
 * deadline (8 s) plus slack, exits 1 (0 where the data read is sound), gives ONE line of reason for the miner, and
 * never a stack trace or the token.
 */
import {execFile} from 'node:child_process';
import {beforeAll, describe, it, type TestContext} from 'vitest';
import {defaultDeadlineMs} from '../../source/miner/client.js';
import type {MinerErrorKind} from '../../source/miner/errors.js';
import {startFaultServer, type FaultMode} from '../helpers/fault-server.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const TOKEN = 'tok-once-faults-51c0de9a';
/** Node start-up and the bundle's load (~0.4 s alone, seconds with several CLIs starting at once on 2 CPUs). */
const SLACK_MS = 5000;

type Case = {
	readonly mode: FaultMode;
	readonly exit: 0 | 1;
	readonly kind?: MinerErrorKind;
	readonly hang?: boolean;
	readonly says?: RegExp;
};

const cases: readonly Case[] = [
	{mode: 'healthy', exit: 0},
	{mode: 'restart', exit: 0},
	{mode: 'two-responses', exit: 0},
	{mode: 'split-404', exit: 0},
	{mode: 'refused', exit: 1, kind: 'unreachable', says: /connection refused/},
	{mode: 'reset-before-answer', exit: 1, kind: 'unreachable'},
	{mode: 'reset-mid-body', exit: 1, kind: 'bad-payload'},
	{mode: 'no-answer', exit: 1, kind: 'timeout', hang: true},
	{mode: 'stall-body', exit: 1, kind: 'timeout', hang: true},
	{mode: 'drip', exit: 1, kind: 'timeout', hang: true, says: /no complete answer within 8s/},
	{mode: 'status-500', exit: 1, kind: 'server-error', says: /HTTP 500/},
	{mode: 'status-500-empty', exit: 1, kind: 'server-error', says: /HTTP 500/},
	{mode: 'status-503', exit: 1, kind: 'server-error', says: /HTTP 503/},
	{mode: 'status-503-empty', exit: 1, kind: 'server-error', says: /HTTP 503/},
	{mode: 'html', exit: 1, kind: 'bad-payload', says: /is an HTML page, not XMRig's API — is this the miner's HTTP API port\?/},
	{mode: 'truncated-json', exit: 1, kind: 'bad-payload'},
	{mode: 'nan', exit: 1, kind: 'bad-payload'},
	{mode: 'wrong-shape', exit: 1, kind: 'incompatible'},
	{mode: 'huge', exit: 1, kind: 'too-large'},
	{mode: 'huge-announced', exit: 1, kind: 'too-large'},
	{mode: 'deep', exit: 1, kind: 'bad-payload', says: /nested too deeply/},
	{mode: 'not-http', exit: 1, kind: 'incompatible', says: /not valid HTTP/},
	{mode: 'split-401', exit: 1, kind: 'unauthorized'},
	{mode: 'split-403', exit: 1, kind: 'forbidden'},
	{mode: 'split-415', exit: 1, kind: 'unsupported-media-type'},
	{mode: 'impostor', exit: 1, kind: 'incompatible'},
];

type Run = {code: number | null; stdout: string; stderr: string; ms: number};

async function rigtop(args: readonly string[]): Promise<Run> {
	const env: NodeJS.ProcessEnv = {...process.env, RIGTOP_TOKEN: TOKEN};
	delete env['CI'];
	const started = Date.now();
	return new Promise((resolve) => {
		execFile('node', [CLI, ...args], {env, timeout: 30_000, maxBuffer: 8 * 1024 * 1024}, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
			resolve({code, stdout, stderr, ms: Date.now() - started});
		});
	});
}

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

function expectClean(context: TestContext, run: Run): void {
	const {expect} = context;
	const all = run.stdout + run.stderr;
	expect(all).not.toMatch(/^\s+at /m); // no stack trace
	expect(all).not.toContain(TOKEN);
	expect(run.stderr.trim().split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
}

describe.concurrent('rigtop --once against a misbehaving miner', () => {
	for (const fault of cases) {
		it(`${fault.mode}: exit ${fault.exit}${fault.kind ? ` (${fault.kind})` : ''} within the deadline, one line of reason, no stack`, async (context) => {
			const {expect} = context;
			const server = await startFaultServer({token: TOKEN, workerId: 'once-fault-rig', hashrate: [2500, 2400, null]});
			context.onTestFinished(async () => server.close());
			await server.setMode(fault.mode);
			const budget = (fault.hang ? defaultDeadlineMs : 0) + SLACK_MS;

			// A hanging miner makes each run wait out the whole deadline: those two run side by side (one connection
			// each; the fault server answers every connection the same), the others one after the other.
			const [text, json] = fault.hang
				? await Promise.all([rigtop(['--once', server.url]), rigtop(['--once', '--json', server.url])])
				: [await rigtop(['--once', server.url]), await rigtop(['--once', '--json', server.url])];
			for (const run of [text, json]) {
				expect(run.code).toBe(fault.exit);
				expect(run.ms).toBeLessThanOrEqual(budget);
				expectClean(context, run);
			}

			const report = JSON.parse(json.stdout) as {
				miners: {
					ok: boolean;
					error: {kind: string; message: string; hint: string} | null;
					miner: {workerId: string; dialect: string} | null;
				}[];
			};
			expect(report.miners).toHaveLength(1);
			const [miner] = report.miners;
			if (fault.exit === 0) {
				expect(miner?.ok).toBe(true);
				expect(miner?.miner?.workerId).toBe('once-fault-rig');
				expect(text.stdout).toContain('once-fault-rig');
				expect(text.stdout).toMatch(/hashrate\s+10s 2\.50 kH\/s/);
				// Only the summary could be read: the JSON says which endpoints it came from.
				if (fault.mode === 'split-404') expect(miner?.miner?.dialect).toBe('v1-summary-only');
				return;
			}

			expect(miner?.ok).toBe(false);
			expect(miner?.error?.kind).toBe(fault.kind);
			expect(miner?.error?.message).not.toMatch(/\n/);
			// Text: the miner's line, then one reason, wrapped by words under its value to keep to 80 columns.
			const lines = text.stdout.trimEnd().split('\n');
			expect(lines.length).toBeGreaterThanOrEqual(2);
			expect(lines[0]).toContain(server.url);
			expect(lines[1]).toMatch(/^ {2}error {5}\S/);
			for (const line of lines.slice(2)) expect(line).toMatch(/^ {12}\S/);
			for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
			if (fault.says) expect(lines.slice(1).join(' ').replaceAll(/\s+/g, ' ')).toMatch(fault.says);
			// The NaN of older 6.x miners explains a document cut short, not a page that is no JSON at all.
			if (fault.mode !== 'nan' && fault.mode !== 'truncated-json') expect(text.stdout).not.toContain('NaN');
		});
	}
});
