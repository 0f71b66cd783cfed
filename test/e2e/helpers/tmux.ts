import {execFile} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';

const run = promisify(execFile);

/** The built CLI the e2e tests drive (npm test builds it before running the tests). */
export const CLI = path.resolve('dist/cli.js');

export function cliIsBuilt(): boolean {
	return existsSync(CLI);
}

let counter = 0;

/** The least time a wait for the screen gives it (see waitFor). */
export const PATIENCE_MS = 15_000;

/**
 * A real terminal: a detached tmux session of a fixed size on a private tmux server, running one
 * command. The command is wrapped so that its exit status stays on screen ("[exit N]").
 */
export class TmuxTerminal {
	readonly socket: string;
	readonly session: string;

	private constructor(socket: string, session: string) {
		this.socket = socket;
		this.session = session;
	}

	static async start(
		command: readonly string[],
		options: {cols?: number; rows?: number; env?: Record<string, string>} = {},
	): Promise<TmuxTerminal> {
		counter += 1;
		const socket = `rigtop-e2e-${process.pid}-${counter}`;
		const session = 'main';
		const envAssignments = Object.entries({TERM: 'xterm-256color', ...options.env}).map(([key, value]) => `${key}=${shellQuote(value)}`);
		// CI=true makes Ink draw nothing live; the terminal under test must not inherit it.
		const inner = `env -u CI ${envAssignments.join(' ')} ${command.map((part) => shellQuote(part)).join(' ')}; echo "[exit $?]"; sleep 600`;
		await run('tmux', [
			'-L',
			socket,
			'-f',
			'/dev/null',
			'new-session',
			'-d',
			'-s',
			session,
			'-x',
			String(options.cols ?? 100),
			'-y',
			String(options.rows ?? 30),
			inner,
		]);
		return new TmuxTerminal(socket, session);
	}

	/** The visible screen as plain text, one string per row. */
	async screen(): Promise<string> {
		const {stdout} = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-t', this.session]);
		return stdout;
	}

	/**
	 * Waits until the screen satisfies the predicate (or contains the text); returns that screen. The wait is at least
	 * PATIENCE_MS whatever `timeoutMs` says: it bounds a hang, it is not a timing goal (those are benchmarks), and on
	 * CI's two loaded cores a frame can lag seconds behind its key. `{exact: true}` keeps `timeoutMs` as it is, for a
	 * test that wants the wait to fail.
	 */
	async waitFor(
		expected: string | RegExp | ((screen: string) => boolean),
		timeoutMs = 8000,
		{exact = false}: {exact?: boolean} = {},
	): Promise<string> {
		const test =
			typeof expected === 'function'
				? expected
				: (screen: string) => (typeof expected === 'string' ? screen.includes(expected) : expected.test(screen));
		if (!exact) timeoutMs = Math.max(timeoutMs, PATIENCE_MS);
		const deadline = Date.now() + timeoutMs;
		let last = '';
		while (Date.now() < deadline) {
			last = await this.screen();
			if (test(last)) return last;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}

		throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(expected)}; screen was:\n${last}`);
	}

	/**
	 * tmux key names (Enter, Escape, Down, C-c) or, with literal, text typed as is: several keys in one write, as a
	 * terminal delivers keys typed fast ('jjj'). `--` ends tmux's options, so '--' and '-j' are keys too.
	 */
	async send(keys: string, literal = false): Promise<void> {
		await run('tmux', ['-L', this.socket, 'send-keys', '-t', this.session, ...(literal ? ['-l', '--', keys] : ['--', keys])]);
	}

	/** Pastes text as a terminal does: bracketed (ESC[200~ … ESC[201~) when the program turned bracketed paste on. */
	async paste(text: string): Promise<void> {
		await run('tmux', ['-L', this.socket, 'set-buffer', '-b', 'e2e', '--', text]);
		await run('tmux', ['-L', this.socket, 'paste-buffer', '-p', '-d', '-b', 'e2e', '-t', this.session]);
	}

	async resize(cols: number, rows: number): Promise<void> {
		await run('tmux', ['-L', this.socket, 'resize-window', '-t', this.session, '-x', String(cols), '-y', String(rows)]);
	}

	/**
	 * The pid of the program the pane runs (the pane runs sh, which runs env, which execs node; rigtop sets its process
	 * title, so it is told by what it runs: node, or a title starting "rigtop"); waits up to 5 s for it to be there.
	 */
	async programPid(): Promise<number> {
		const {stdout} = await run('tmux', ['-L', this.socket, 'display', '-p', '-t', this.session, '#{pane_pid}']);
		const shell = Number(stdout.trim());
		const deadline = Date.now() + 5000;
		while (Date.now() < deadline) {
			const children = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
			for (const pid of children) {
				if (
					readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(node)') ||
					readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('rigtop')
				)
					return pid;
			}

			await new Promise((resolve) => setTimeout(resolve, 50));
		}

		throw new Error('rigtop’s process not found');
	}

	async kill(): Promise<void> {
		await run('tmux', ['-L', this.socket, 'kill-server']).catch(() => undefined);
	}
}

function shellQuote(value: string): string {
	return `'${value.replaceAll("'", "'\\''")}'`;
}
