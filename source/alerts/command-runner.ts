/**
 * The --on-alert sink: runs the user's command once per alert, with the alert as one line of JSON on
 * its standard input (see alertJson). The command is spawned without a shell from a fixed argv
 * (argv.ts), so nothing a miner sent can become part of a command line. Its output is not shown
 * (it would tear the screen); the first line of its stderr goes into the failure message.
 *
 * Bounds: at most `maxConcurrent` commands at once, at most `maxQueued` waiting (more are dropped,
 * and said so), each stopped after `timeoutMs` (SIGTERM to its process group, SIGKILL 2 s later).
 * Every failure is reported through `onProblem`, never thrown. The child does not get RIGTOP_TOKEN.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {formatSeconds} from '../text/format.js';
import {cleanText} from '../text/clean.js';
import {alertJson, type Alert} from './types.js';
import {jsonText} from '../text/json-out.js';

export type AlertCommandOptions = {
	readonly argv: readonly string[];
	/** Default 10 000 ms. */
	readonly timeoutMs?: number;
	/** Default 2. */
	readonly maxConcurrent?: number;
	/** Default 64. */
	readonly maxQueued?: number;
	/** A command that could not run, failed, timed out, or an alert dropped; one line, safe to show. */
	readonly onProblem: (alert: Alert, message: string) => void;
	/** The environment to start from (default process.env); RIGTOP_TOKEN is always removed. */
	readonly env?: NodeJS.ProcessEnv;
};

const KILL_GRACE_MS = 2000;
const STDERR_CAP = 4096;

type Running = {readonly child: ChildProcess; readonly done: Promise<void>};

export class AlertCommand {
	readonly #argv: readonly string[];
	readonly #timeoutMs: number;
	readonly #maxConcurrent: number;
	readonly #maxQueued: number;
	readonly #onProblem: (alert: Alert, message: string) => void;
	readonly #env: NodeJS.ProcessEnv;
	readonly #queue: Alert[] = [];
	readonly #running = new Set<Running>();
	readonly #idleWaiters: (() => void)[] = [];
	#closed = false;

	constructor(options: AlertCommandOptions) {
		const [program] = options.argv;
		if (program === undefined || program === '') throw new RangeError('the alert command is empty');
		this.#argv = [...options.argv];
		this.#timeoutMs = options.timeoutMs ?? 10_000;
		this.#maxConcurrent = Math.max(1, options.maxConcurrent ?? 2);
		this.#maxQueued = Math.max(0, options.maxQueued ?? 64);
		this.#onProblem = options.onProblem;
		const env = {...(options.env ?? process.env)};
		delete env['RIGTOP_TOKEN'];
		this.#env = env;
	}

	/** Queues the command for this alert. */
	run(alert: Alert): void {
		if (this.#closed) return;
		if (this.#running.size < this.#maxConcurrent) {
			this.#start(alert);
			return;
		}

		if (this.#queue.length >= this.#maxQueued) {
			this.#report(alert, `alert command busy (${this.#running.size} running, ${this.#queue.length} waiting): this alert was not sent`);
			return;
		}

		this.#queue.push(alert);
	}

	/** Commands running now. */
	get running(): number {
		return this.#running.size;
	}

	/** Resolves once no command runs and none waits. */
	async idle(): Promise<void> {
		if (this.#running.size === 0 && this.#queue.length === 0) return;
		await new Promise<void>((resolve) => {
			this.#idleWaiters.push(resolve);
		});
	}

	/** Drops what waits and stops what runs; resolves when every command has exited. */
	async close(): Promise<void> {
		this.#closed = true;
		this.#queue.length = 0;
		const running = [...this.#running];
		for (const entry of running) stopGroup(entry.child, 'SIGTERM');
		await Promise.all(running.map(async (entry) => entry.done));
	}

	#start(alert: Alert): void {
		const [program, ...args] = this.#argv;
		let child: ChildProcess;
		try {
			child = spawn(program!, args, {shell: false, stdio: ['pipe', 'ignore', 'pipe'], env: this.#env, detached: true, windowsHide: true});
		} catch (error) {
			this.#report(alert, `alert command could not start: ${reasonOf(error)}`);
			this.#next();
			return;
		}

		let stderr = '';
		let timedOut = false;
		let spawnError: unknown = null;
		child.stderr?.setEncoding('utf8');
		child.stderr?.on('data', (chunk: string) => {
			if (stderr.length < STDERR_CAP) stderr += chunk.slice(0, STDERR_CAP - stderr.length);
		});
		// The command may exit without reading its input: EPIPE is its business, not a crash.
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(`${alertJson(alert)}\n`);

		let killTimer: ReturnType<typeof setTimeout> | null = null;
		const timer = setTimeout(() => {
			timedOut = true;
			stopGroup(child, 'SIGTERM');
			killTimer = setTimeout(() => {
				stopGroup(child, 'SIGKILL');
			}, KILL_GRACE_MS);
			killTimer.unref();
		}, this.#timeoutMs);
		timer.unref();

		const done = new Promise<void>((resolve) => {
			child.once('error', (error) => {
				spawnError = error;
			});
			child.once('close', (code, signal) => {
				clearTimeout(timer);
				if (killTimer) clearTimeout(killTimer);
				if (spawnError !== null) {
					this.#report(alert, `alert command could not run ${jsonText(program)}: ${reasonOf(spawnError)}`);
				} else if (timedOut) {
					this.#report(alert, `alert command timed out after ${formatSeconds(this.#timeoutMs)} and was stopped`);
				} else if (!this.#closed && (code !== 0 || signal !== null)) {
					const how = signal === null ? `exited with code ${code ?? '?'}` : `was killed by ${signal}`;
					const line = firstLine(stderr);
					this.#report(alert, `alert command ${how}${line ? `: ${line}` : ''}`);
				}

				this.#running.delete(entry);
				resolve();
				this.#next();
			});
		});
		const entry: Running = {child, done};
		this.#running.add(entry);
	}

	#next(): void {
		while (!this.#closed && this.#running.size < this.#maxConcurrent && this.#queue.length > 0) {
			const alert = this.#queue.shift();
			if (alert) this.#start(alert);
		}

		if (this.#running.size === 0 && this.#queue.length === 0) {
			for (const resolve of this.#idleWaiters.splice(0)) resolve();
		}
	}

	#report(alert: Alert, message: string): void {
		try {
			this.#onProblem(alert, message);
		} catch {
			// Reporting must not throw back into the runner.
		}
	}
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
	try {
		// detached: the command leads its own process group, so whatever it started stops too.
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// Already gone.
		}
	}
}

function reasonOf(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | null)?.code;
	if (code === 'ENOENT') return 'no such program (ENOENT)';
	if (code === 'EACCES') return 'permission denied (EACCES)';
	return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
	return cleanText(text.split(/\r?\n/).find((part) => part.trim() !== '') ?? '', 160);
}
