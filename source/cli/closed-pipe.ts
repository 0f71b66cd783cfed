/**
 * A reader that goes away (`rigtop history --json | head -1`) is not an error. Node ignores SIGPIPE, so a write to a
 * pipe nobody reads fails with EPIPE, and an 'error' event nobody listens to is a crash with a stack trace. This sets
 * one listener on stdout and stderr, for every command, before any of them writes:
 *
 * - EPIPE: what was left to print is dropped (the stream is closed), and nothing is said about it. The command
 *   finishes what it was doing (so a cron `--once | head -1` still stores its sample) and exits with its own
 *   status, as it would have had the reader read everything. git and coreutils die of SIGPIPE instead (the shell
 *   shows 141); a Node program cannot: it cannot set SIGPIPE back to its default. Should anything still run on
 *   after stdout closed (a writer waiting for a 'drain' that never comes, with something else keeping the process
 *   up), it is ended after `graceMs` with the status it has by then (0 unless the command already failed).
 * - Any other error (EIO on a terminal that went away): the same, with its code on stderr if stderr still works.
 *
 * Loaded by the entry (bin.ts) before rigtop itself, so it is kept to syntax that every Node since 14 parses.
 */

/** The part of a stream this needs. */
export type OutputStream = {
	on(event: 'error', listener: (error: Error & {code?: string}) => void): unknown;
};

export type ClosedPipeOptions = {
	/** How long to let the command finish after stdout closed before ending the process. */
	readonly graceMs?: number;
	readonly exit?: (code: number) => void;
	/** The status the process has now (process.exitCode). */
	readonly exitCode?: () => number;
	readonly setTimer?: (run: () => void, ms: number) => void;
};

/** Lets stdout and stderr close under rigtop without a crash (see above). */
export function survivePipeClosing(
	stdout: OutputStream,
	stderr: OutputStream & {write(text: string): unknown},
	options: ClosedPipeOptions = {},
): void {
	const graceMs = options.graceMs === undefined ? 2000 : options.graceMs;
	const exit = options.exit || ((code: number) => process.exit(code));
	const exitCode = options.exitCode || (() => (typeof process.exitCode === 'number' ? process.exitCode : 0));
	const setTimer =
		options.setTimer ||
		((run: () => void, ms: number) => {
			// Unref'd: a process with nothing left to do ends by itself, with its own status, before this fires.
			setTimeout(run, ms).unref();
		});
	let stdoutClosed = false;
	let stderrClosed = false;
	stdout.on('error', (error) => {
		if (stdoutClosed) return;
		stdoutClosed = true;
		if (error.code !== 'EPIPE' && !stderrClosed) stderr.write(`rigtop: cannot write to stdout (${error.code || error.message})\n`);
		setTimer(() => exit(exitCode()), graceMs);
	});
	stderr.on('error', () => {
		// Nowhere left to say anything: warnings and messages are dropped from here on.
		stderrClosed = true;
	});
}
