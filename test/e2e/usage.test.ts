import {describe, expect, it} from 'vitest';
import {runCli} from './helpers/cli.js';

async function rigtop(...args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args);
}

describe('the built CLI on a wrong command line', () => {
	it('a flag without its value, or an unknown flag: exit 2, one line and the --help hint, nothing else done', async () => {
		for (const [args, line] of [
			[['-i'], 'rigtop: -i needs a value (seconds between polls, e.g. -i 2)'],
			[['127.0.0.1:9', '--interval'], 'rigtop: --interval needs a value (seconds between polls, e.g. -i 2)'],
			[['--once', '--token-file'], "rigtop: --token-file needs a value (a file holding the miner's access token)"],
			[['--url'], 'rigtop: --url needs a value (a miner address, host:port)'],
			[['--foo'], 'rigtop: unknown flag --foo'],
			[['histroy'], "rigtop: unknown command 'histroy': did you mean 'rigtop history'?"],
			[['histroy', '--since', '1h'], "rigtop: unknown command 'histroy': did you mean 'rigtop history'?"],
			[['exportr', '--rigs', 'rigs.json'], "rigtop: unknown command 'exportr': did you mean 'rigtop exporter'?"],
		] as const) {
			const result = await rigtop(...args);
			expect(result.code, args.join(' ')).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toBe(`${line}\nRun rigtop --help for usage.\n`);
		}
	});

	it("the user's own words are echoed with C1, bidi and invisible characters escaped (issue 36)", async () => {
		// eslint-disable-next-line no-control-regex -- the bytes no output may hold.
		const unsafe = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;
		for (const [args, line] of [
			[['--bogus\u202E\u009B'], 'rigtop: unknown flag --bogus\\u202e\\u009b'],
			[['-i', '2\u202E\u0085'], 'rigtop: -i needs a number (seconds between polls, e.g. -i 2), not "2\\u202e\\u0085"'],
			[['config', 'sett\u202E\u200B'], 'rigtop: unknown config command "sett\\u202e\\u200b": use get or set'],
		] as const) {
			const result = await rigtop(...args);
			expect(result.stderr, args.join(' ')).not.toMatch(unsafe);
			expect(result.stderr.split('\n')[0]).toBe(line);
		}
	});

	it('a live-view flag given to rigtop exporter: exit 2, one line saying what does that job, nothing served', async () => {
		for (const [args, line] of [
			[
				['exporter', '127.0.0.1:9', '--temp-alert', '85'],
				'rigtop: --temp-alert has no effect on rigtop exporter: it serves no temperatures; node_exporter does (docs/prometheus/node-exporter.yml)',
			],
			[
				['exporter', '--rigs', 'rigs.json', '--paused-alert=30m'],
				'rigtop: --paused-alert has no effect on rigtop exporter: it raises no alerts; Prometheus does (XmrigPausedTooLong in docs/prometheus/alerts.yml)',
			],
			[
				['exporter', '127.0.0.1:9', '--yes'],
				'rigtop: --yes has no effect on rigtop exporter: it changes no config (--yes goes with rigtop config set)',
			],
		] as const) {
			const result = await rigtop(...args);
			expect(result.code, args.join(' ')).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toBe(`${line}\nRun rigtop --help for usage.\n`);
		}
	});

	it("rigtop history --help and `rigtop help history` print the history command's usage, exit 0, nothing read", async () => {
		for (const args of [
			['history', '--help'],
			['help', 'history'],
			['history', '-h', '--since', '1h'],
		]) {
			const result = await rigtop(...args);
			expect(result.code, args.join(' ')).toBe(0);
			expect(result.stderr).toBe('');
			expect(result.stdout.split('\n')[1]).toBe('  $ rigtop history [URL] [--since 24h] [--until TIME] [--json | --csv]');
			expect(result.stdout).toContain('Exit codes: 0 printed, 1 nothing stored for that miner (or no store),\n  2 bad usage.');
		}
	});

	it('-h and `rigtop help` print the usage, as --help does, exit 0', async () => {
		const help = await rigtop('--help');
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('Usage');
		for (const args of [['-h'], ['help']]) {
			const result = await rigtop(...args);
			expect(result.code).toBe(0);
			expect(result.stdout).toBe(help.stdout);
		}
	});
});
