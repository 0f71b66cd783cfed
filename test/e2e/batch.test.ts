/**
 * The batch commands as shipped: the built CLI (`dist/cli.js`) run as a child process against simulated miners on
 * loopback (a 6.x, a 2.14 and a closed port) from a rigs file: one line per rig, the summary, the exit codes, the
 * miners' config text, `--dry-run`, `config undo`, `pause`, and `rigtop help pause`. The token never shows.
 */
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {runCli} from './helpers/cli.js';
import {cliIsBuilt} from './helpers/tmux.js';

const TOKEN = 'e2e-batch-token-9c';
const simulators: Simulator[] = [];
let state: ReturnType<typeof tempDir> | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await Promise.all(simulators.splice(0).map(async (sim) => sim.stop()));
	state?.remove();
	state = null;
});

async function rigtop(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	const result = await runCli(args, {env: {RIGTOP_TOKEN: TOKEN, XDG_STATE_HOME: state?.dir}, timeout: 30_000});
	expect(result.stdout + result.stderr).not.toContain(TOKEN);
	return result;
}

describe('rigtop config set … --rigs FILE, built', () => {
	it('one line per rig in the file order, a summary, exit 1 when a rig did not apply; undo puts it back', async () => {
		state = tempDir('rigtop-e2e-batch-');
		const six = await startSimulator({dialect: '6', token: TOKEN, restricted: false, workerId: 'e2e-six', applyDelayMs: 50});
		const old = await startSimulator({dialect: '2.14', token: TOKEN, restricted: false, workerId: 'e2e-old', applyDelayMs: 50});
		const gone = await startSimulator({dialect: '6', token: TOKEN, restricted: false, workerId: 'e2e-gone'});
		simulators.push(six, old, gone);
		await gone.stop();
		const rigs = path.join(state.dir, 'rigs.json');
		writeFileSync(
			rigs,
			JSON.stringify([
				{name: 'six', url: six.url},
				{name: 'old', url: old.url},
				{name: 'gone', url: gone.url},
			]),
		);
		const original = six.configText();

		const dry = await rigtop(['config', 'set', 'cpu.huge-pages=false', '--rigs', rigs, '--dry-run']);
		expect(dry.stdout.split('\n').slice(0, 2)).toEqual(['six   would change 1 key', '        cpu.huge-pages: true → false']);
		expect(six.configText()).toBe(original);
		// One miner by its address: the same diff, nothing sent (it was refused as bad usage).
		const one = await rigtop(['config', 'set', 'cpu.huge-pages=false', six.url, '--dry-run']);
		expect([one.code, one.stdout.split('\n')[1]?.trim()]).toEqual([0, 'cpu.huge-pages: true → false']);
		expect(one.stdout).toContain('1 rig: ok=0 changed=1 skipped=0 failed=0 unreachable=0');
		expect(six.configText()).toBe(original);

		const applied = await rigtop(['config', 'set', 'cpu.huge-pages=false', '--rigs', rigs]);
		expect(applied.code).toBe(1);
		const lines = applied.stdout.trimEnd().split('\n');
		expect(lines[0]).toBe('six   applied  cpu.huge-pages: true → false');
		expect(lines[1]).toMatch(/^old {3}failed {2}lacks cpu\.huge-pages/);
		expect(lines[2]).toMatch(/^gone {2}unreachable {2}down: /);
		expect(lines.at(-1)).toBe('3 rigs: ok=0 changed=1 skipped=0 failed=1 unreachable=1');
		expect(six.configText()).toBe(original.replace('"huge-pages": true', '"huge-pages": false'));

		const undone = await rigtop(['config', 'undo', '--rigs', rigs]);
		expect(undone.stdout.split('\n')[0]).toBe('six   applied  cpu.huge-pages: false → true');
		expect(six.configText()).toBe(original);

		const paused = await rigtop(['pause', '--rigs', rigs]);
		expect(paused.code).toBe(1);
		expect(paused.stdout.split('\n').slice(0, 2)).toEqual([
			'six   applied  paused (read back)',
			'old   failed  cannot pause: XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)',
		]);
		const resumed = await rigtop(['resume', six.url]);
		expect([resumed.code, resumed.stdout.split('\n')[0]]).toEqual([0, '127.0.0.1:' + String(six.port) + '  applied  running (read back)']);
	});

	it('bad usage exits 2; rigtop help pause prints the usage', async () => {
		state = tempDir('rigtop-e2e-batch-');
		const noRigs = await rigtop(['config', 'set', 'cpu.huge-pages=false', '--rigs', path.join(state.dir, 'none.json')]);
		expect(noRigs.code).toBe(2);
		expect(noRigs.stderr).toContain('cannot read --rigs');
		const badPatch = await rigtop(['config', 'apply', path.join(state.dir, 'none.json'), '127.0.0.1:1']);
		expect(badPatch.code).toBe(2);
		expect(badPatch.stderr).toContain('cannot read the patch');
		const help = await rigtop(['help', 'pause']);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('rigtop config apply PATCH.json');
		const misplaced = await rigtop(['--once', '--dry-run', '127.0.0.1:1']);
		expect(misplaced.code).toBe(2);
	});
});
