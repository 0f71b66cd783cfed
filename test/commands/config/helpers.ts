import path from 'node:path';
import {expect} from 'vitest';
import {runConfigCommand, type ConfigCommandOptions} from '../../../source/commands/config/config.js';

/** What one `rigtop config` run gave: its exit code and all it wrote to stdout and stderr. */
export type Captured = {code: number; out: string; err: string};

/**
 * Runs `rigtop config …` (argv) against the miner or proxy at `url` with `token` as RIGTOP_TOKEN, no prompt, backups and
 * discovery inside `dir` and a fast verify, then fails the test if any of `secrets` shows in what it wrote.
 */
export async function runConfig(
	argv: readonly string[],
	target: {url: string; token: string; dir: string; secrets: readonly string[]},
	options: Partial<ConfigCommandOptions> = {},
): Promise<Captured> {
	let out = '';
	let err = '';
	const code = await runConfigCommand(argv, {
		urls: [target.url],
		tokenFile: undefined,
		tokenEnv: target.token,
		tokenFlag: undefined,
		configPath: undefined,
		yes: false,
		readOnly: false,
		backupDir: path.join(target.dir, 'backups'),
		verifyIntervalMs: 50,
		verifyTimeoutMs: 3000,
		discovery: {homeDir: target.dir, procRoot: path.join(target.dir, 'no-proc')},
		stdout: {write: (text: string) => (out += text)},
		stderr: {write: (text: string) => (err += text)},
		...options,
	});
	for (const secret of target.secrets) {
		expect(out).not.toContain(secret);
		expect(err).not.toContain(secret);
	}

	return {code, out, err};
}
