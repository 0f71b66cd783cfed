import {spawn, type ChildProcess} from 'node:child_process';
import {CLI, cliIsBuilt} from './tmux.js';

/** A `rigtop exporter` the test started: its process, the /metrics URL it serves, its stderr so far, and its exit code. */
export type RunningExporter = {
	readonly child: ChildProcess;
	readonly metricsUrl: string;
	log(): string;
	exit(): Promise<number | null>;
};

/**
 * Starts the built `rigtop exporter --listen 127.0.0.1:0 --interval … …args` (0.5 s unless given) with `env` (this
 * process's, less CI, unless given) and resolves once it says what it serves; rejects with its stderr if it exits
 * first. Its SIGKILL, unless it has ended by then, is pushed onto `cleanups` (which the test file runs after each test).
 */
export async function startExporter(
	args: readonly string[],
	cleanups: (() => Promise<void> | void)[],
	options: {interval?: string; env?: NodeJS.ProcessEnv; stdout?: 'pipe' | 'ignore'} = {},
): Promise<RunningExporter> {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	const env = options.env ?? {...process.env};
	if (options.env === undefined) delete env['CI'];
	const child = spawn('node', [CLI, 'exporter', '--listen', '127.0.0.1:0', '--interval', options.interval ?? '0.5', ...args], {
		env,
		stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
	});
	let log = '';
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	cleanups.push(async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGKILL');
			await exited;
		}
	});
	const metricsUrl = await new Promise<string>((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			log += chunk.toString();
			const match = /serving (http:\/\/\S+\/metrics)/.exec(log);
			if (match) resolve(match[1]!);
		});
		void exited.then((code) => reject(new Error(`rigtop exporter exited (${code}) before serving:\n${log}`)));
	});
	return {child, metricsUrl, log: () => log, exit: async () => exited};
}
