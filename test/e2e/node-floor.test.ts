import {execFile} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {NODE_FLOOR, nodeIsSupported, unsupportedNodeMessage} from '../../source/cli/node-floor.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const run = promisify(execFile);

/** The built CLI under a Node fetched from the npm registry (npx caches it after the first time). */
async function rigtopOn(nodeSpec: string, args: string[]): Promise<{code: number; stdout: string; stderr: string; version: string}> {
	const env: NodeJS.ProcessEnv = {...process.env, NO_UPDATE_NOTIFIER: '1'};
	delete env['CI'];
	const npx = ['-y', '-p', `node@${nodeSpec}`, 'node'];
	const {stdout: version} = await run('npx', [...npx, '--version'], {env, timeout: 120_000});
	try {
		const {stdout, stderr} = await run('npx', [...npx, CLI, ...args], {env, timeout: 60_000});
		return {code: 0, stdout, stderr, version: version.trim()};
	} catch (error) {
		const failure = error as {code?: number; stdout?: string; stderr?: string};
		return {
			code: typeof failure.code === 'number' ? failure.code : -1,
			stdout: failure.stdout ?? '',
			stderr: failure.stderr ?? '',
			version: version.trim(),
		};
	}
}

/** stderr without npm's own notices (npx may print config warnings of the machine's npm). */
const ownLines = (stderr: string) =>
	stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn') && !line.startsWith('npm WARN'));

describe('the Node floor', () => {
	it('the command it suggests runs the same rigtop, its path quoted for a shell when it must be', () => {
		expect(unsupportedNodeMessage('20.20.2', '/usr/local/bin/rigtop')).toBe(
			'rigtop needs Node.js 22.13 or newer (this is Node.js 20.20.2); run it with a supported one: npx -y -p node@22 node /usr/local/bin/rigtop\n',
		);
		expect(unsupportedNodeMessage('20.20.2', "/home/o'neil/my tools/rigtop")).toContain(`node '/home/o'\\''neil/my tools/rigtop'\n`);
	});

	it("package.json's engines is the floor the entry checks", () => {
		const {engines} = JSON.parse(readFileSync('package.json', 'utf8')) as {engines: {node: string}};
		expect(engines.node).toBe(`>=${NODE_FLOOR.major}.${NODE_FLOOR.minor}.0`);
		expect(nodeIsSupported(`${NODE_FLOOR.major}.${NODE_FLOOR.minor}.0`)).toBe(true);
		expect(nodeIsSupported(`${NODE_FLOOR.major}.${NODE_FLOOR.minor - 1}.9`)).toBe(false);
		expect(nodeIsSupported('26.0.0')).toBe(true);
		expect(nodeIsSupported('20.20.2')).toBe(false);
	});

	// An old Node and a 22 below the floor (Ink 8 would load there, undici 8 would not).
	for (const old of ['20', '22.12.0']) {
		it(`on Node ${old} the built CLI says in one line what it needs and how to get it, and exits 1`, async () => {
			if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
			for (const args of [['--version'], ['--once', '127.0.0.1:9'], []]) {
				const result = await rigtopOn(old, args);
				expect(nodeIsSupported(result.version.slice(1))).toBe(false);
				expect(result.code).toBe(1);
				expect(result.stdout).toBe('');
				expect(ownLines(result.stderr)).toEqual([unsupportedNodeMessage(result.version.slice(1), CLI).trimEnd()]);
				// This rigtop, on a Node from the registry: rigtop itself is not there.
				expect(result.stderr).toContain(`npx -y -p node@22 node ${CLI}\n`);
				expect(result.stderr).not.toContain('-p rigtop');
				expect(result.stderr).not.toMatch(/\n\s+at /); // no stack
			}
		}, 240_000);
	}
});
