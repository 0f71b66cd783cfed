import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {CLI} from './tmux.js';

const run = promisify(execFile);

/**
 * Runs the built CLI (`node dist/cli.js …args`) to its end, outside a terminal, and resolves with its exit code (-1 when
 * a signal or the timeout ended it) and all it wrote. Its environment is this process's plus `env`, less each name in
 * `unset` (by default CI, which would stop Ink drawing); `cwd` is where it runs and `timeout` (ms, 20 s unless given)
 * bounds a hang.
 */
export async function runCli(
	args: readonly string[],
	options: {env?: NodeJS.ProcessEnv; unset?: readonly string[]; cwd?: string; timeout?: number} = {},
): Promise<{code: number; stdout: string; stderr: string}> {
	const env: NodeJS.ProcessEnv = {...process.env, ...options.env};
	for (const name of options.unset ?? ['CI']) delete env[name];
	try {
		const {stdout, stderr} = await run('node', [CLI, ...args], {
			env,
			timeout: options.timeout ?? 20_000,
			...(options.cwd === undefined ? {} : {cwd: options.cwd}),
		});
		return {code: 0, stdout, stderr};
	} catch (error) {
		const failure = error as {code?: number; stdout?: string; stderr?: string};
		return {code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? ''};
	}
}
