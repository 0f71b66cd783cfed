/**
 * `rigtop watch` (the built CLI) as a process of its own: its stderr (logfmt lines) kept as it comes, waited on, and
 * stopped as a user or the kernel stops it (SIGTERM, or SIGKILL).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {vi} from 'vitest';
import {CLI} from './tmux.js';

export type WatchProcess = {
	readonly child: ChildProcess;
	/** Everything it wrote to stderr and stdout so far. */
	stderr(): string;
	stdout(): string;
	/** Its stderr lines so far. */
	lines(): string[];
	/** Waits until `check` passes (it throws until then), at most `timeoutMs`. */
	until(check: () => void, timeoutMs?: number): Promise<void>;
	/** Sends the signal and waits for the exit; resolves to its code (null when a signal ended it). */
	stop(signal?: NodeJS.Signals): Promise<number | null>;
};

export function startWatch(args: readonly string[], env: NodeJS.ProcessEnv): WatchProcess {
	const childEnv: NodeJS.ProcessEnv = {...process.env, RIGTOP_NOTIFY: '', ...env};
	delete childEnv['CI'];
	const child = spawn('node', [CLI, 'watch', ...args], {env: childEnv, stdio: ['ignore', 'pipe', 'pipe']});
	let err = '';
	let out = '';
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
		err += chunk;
	});
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
		out += chunk;
	});
	const exited = new Promise<number | null>((resolve) => {
		child.once('exit', (code) => {
			resolve(code);
		});
	});
	return {
		child,
		stderr: () => err,
		stdout: () => out,
		lines: () => err.split('\n').filter((line) => line !== ''),
		async until(check, timeoutMs = 60_000) {
			await vi.waitFor(check, {timeout: timeoutMs, interval: 50});
		},
		async stop(signal = 'SIGTERM') {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal);
			return exited;
		},
	};
}
