import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {splitCommand} from '../../source/alerts/argv.js';
import {AlertCommand} from '../../source/alerts/command-runner.js';
import type {Alert} from '../../source/alerts/types.js';

let dir = '';
const runners: AlertCommand[] = [];

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-alert-'));
});

afterEach(async () => {
	await Promise.all(runners.splice(0).map(async (runner) => runner.close()));
	await rm(dir, {recursive: true, force: true});
});

function alert(overrides: Partial<Alert> = {}): Alert {
	return {
		seq: 1,
		at: Date.UTC(2026, 2, 14, 12, 0, 0),
		kind: 'down',
		severity: 'error',
		minerIndex: 2,
		rig: 'rig-03',
		url: 'http://127.0.0.1:18088',
		message: 'down: connection refused',
		...overrides,
	};
}

/** A script that appends its stdin (and what it was given) to a file. */
async function recorder(): Promise<{script: string; out: string}> {
	const script = path.join(dir, 'record.cjs');
	const out = path.join(dir, 'out.jsonl');
	await writeFile(
		script,
		`let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
	require('node:fs').appendFileSync(process.argv[2], JSON.stringify({stdin: input, argv: process.argv.slice(3), token: process.env.RIGTOP_TOKEN ?? null}) + '\\n');
});
`,
	);
	return {script, out};
}

function runner(
	argv: readonly string[],
	options: {timeoutMs?: number; maxConcurrent?: number; maxQueued?: number; env?: NodeJS.ProcessEnv} = {},
) {
	const problems: {alert: Alert; message: string}[] = [];
	const command = new AlertCommand({argv, ...options, onProblem: (a, message) => problems.push({alert: a, message})});
	runners.push(command);
	return {command, problems};
}

async function lines(file: string): Promise<{stdin: string; argv: string[]; token: string | null}[]> {
	const text = await readFile(file, 'utf8').catch(() => '');
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as {stdin: string; argv: string[]; token: string | null});
}

describe('--on-alert runs a command with the alert as JSON on stdin', () => {
	test('the command gets one line of JSON; text from the miner reaches neither argv nor a shell', async () => {
		const {script, out} = await recorder();
		const {command, problems} = runner([process.execPath, script, out, 'fixed-arg'], {
			env: {...process.env, RIGTOP_TOKEN: 'secret-token-value'},
		});
		const hostile = alert({kind: 'pool-lost', severity: 'warn', message: 'pool lost: $(touch pwned) `id` ; rm -rf ~ "quoted"'});
		command.run(hostile);
		await command.idle();
		const [record] = await lines(out);
		expect(problems).toEqual([]);
		expect(record?.argv).toEqual(['fixed-arg']);
		expect(record?.token).toBeNull();
		expect(record?.stdin.endsWith('\n')).toBe(true);
		expect(JSON.parse(record?.stdin ?? '')).toEqual({
			type: 'rigtop-alert',
			kind: 'pool-lost',
			severity: 'warn',
			rig: 'rig-03',
			url: 'http://127.0.0.1:18088',
			message: 'pool lost: $(touch pwned) `id` ; rm -rf ~ "quoted"',
			at: '2026-03-14T12:00:00.000Z',
		});
	});

	test('a program that does not exist, a failing one and a hung one each become a problem, never a throw', async () => {
		const missing = runner(['/no/such/program-rigtop']);
		missing.command.run(alert());
		await missing.command.idle();
		expect(missing.problems.map((p) => p.message)).toEqual([
			expect.stringMatching(/could not run "\/no\/such\/program-rigtop": no such program \(ENOENT\)/),
		]);
		expect(missing.problems[0]?.alert.rig).toBe('rig-03');

		const failing = runner(splitCommand(`${process.execPath} -e "process.stderr.write('webhook said no\\n\\nmore'); process.exit(3)"`));
		failing.command.run(alert());
		await failing.command.idle();
		expect(failing.problems.map((p) => p.message)).toEqual(['alert command exited with code 3: webhook said no']);

		const hung = runner([process.execPath, '-e', 'setInterval(() => {}, 1000)'], {timeoutMs: 300});
		const started = Date.now();
		hung.command.run(alert());
		await hung.command.idle();
		expect(Date.now() - started).toBeLessThan(3000);
		expect(hung.problems.map((p) => p.message)).toEqual(['alert command timed out after 0.3s and was stopped']);
	});

	test('at most maxConcurrent run at once; beyond the queue, alerts are dropped and said so', async () => {
		const {script, out} = await recorder();
		const slow = path.join(dir, 'slow.cjs');
		await writeFile(slow, `setTimeout(() => require(${JSON.stringify(script)}), 150);\n`);
		// The slow script requires the recorder after a pause, so it reads stdin then.
		const {command, problems} = runner([process.execPath, slow, out], {maxConcurrent: 1, maxQueued: 1});
		command.run(alert({seq: 1, message: 'first'}));
		command.run(alert({seq: 2, message: 'second'}));
		command.run(alert({seq: 3, message: 'third'}));
		expect(command.running).toBe(1);
		await command.idle();
		const messages = (await lines(out)).map((record) => (JSON.parse(record.stdin) as {message: string}).message);
		expect(messages).toEqual(['first', 'second']);
		expect(problems).toHaveLength(1);
		expect(problems[0]?.alert.message).toBe('third');
		expect(problems[0]?.message).toMatch(/busy .*not sent/);
	});

	test('close stops a running command and its children', async () => {
		const {command} = runner(['sh', '-c', 'sleep 30 & sleep 30']);
		command.run(alert());
		await vi.waitFor(() => expect(command.running).toBe(1));
		const started = Date.now();
		await command.close();
		expect(command.running).toBe(0);
		expect(Date.now() - started).toBeLessThan(2500);
	});
});
