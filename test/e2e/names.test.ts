/**
 * A rig's name, one rule everywhere (issue 35, item 6): the rigs file's name, else host:port, the worker id beside it.
 * Whatever run touched a rig last (a session with the rigs file, a --once by address, a pause by address), the history
 * names it as the rigs file does, and every command that takes an address takes that name. And a name of any width
 * (item 7): the fleet in a real terminal keeps its columns with CJK, emoji and combining marks in the names.
 */
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {textWidth} from '../../source/text/cells.js';
import {runCli} from './helpers/cli.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const scene = sceneForEachTest('rigtop-names-e2e-');
const TOKEN = 'e2e-names-token';

describe('a rig is named as the rigs file names it, by every run and every command', () => {
	it('history --list keeps the rigs-file name beside the worker id, and history, --once and pause take the name', async () => {
		const {simulators, rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'w-alpha', seed: 71},
			{dialect: '6', workerId: 'w-beta', seed: 72},
		]);
		const [alpha, beta] = simulators;
		if (!alpha || !beta) throw new Error('two simulators');
		// The rigs file names them by name, not by their worker ids.
		const {writeFile} = await import('node:fs/promises');
		await writeFile(
			rigs,
			JSON.stringify([
				{name: 'alpha', url: alpha.url, tokenFile: path.join(scene.dir, 'token')},
				{name: 'beta', url: beta.url, tokenFile: path.join(scene.dir, 'token')},
			]),
		);
		const env = {XDG_STATE_HOME: path.join(scene.dir, 'state'), RIGTOP_TOKEN: TOKEN};
		const rigtop = async (...args: string[]) => runCli(args, {env});

		expect((await rigtop('--once', '--rigs', rigs)).code).toBe(0);
		// Runs without the rigs file touch the rigs last: by address, and a pause and resume by address.
		expect((await rigtop('--once', alpha.url, beta.url)).code).toBe(0);
		expect((await rigtop('pause', alpha.url)).code).toBe(0);
		expect((await rigtop('resume', alpha.url)).code).toBe(0);

		const list = await rigtop('history', '--list');
		expect(list.code).toBe(0);
		const lines = list.stdout.trimEnd().split('\n').sort();
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(new RegExp(`^alpha \\(worker w-alpha\\) {2}http://127\\.0\\.0\\.1:${alpha.port} {2}first seen `));
		// A table: the addresses in one column.
		expect(lines[1]).toMatch(new RegExp(`^beta \\(worker w-beta\\) {4}http://127\\.0\\.0\\.1:${beta.port} {2}first seen `));

		const byName = await rigtop('history', 'alpha', '--since', '1h');
		expect(byName.stderr).toBe('');
		expect(byName.code).toBe(0);
		expect(byName.stdout.split('\n')[0]).toMatch(new RegExp(`^alpha \\(worker w-alpha, http://127\\.0\\.0\\.1:${alpha.port}\\), `));
		expect(byName.stdout).toMatch(/batch pause .*paused/);
		// The worker id finds it too; a name nothing has is said, with the names there are.
		expect((await rigtop('history', 'w-beta')).stdout.split('\n')[0]).toMatch(/^beta \(worker w-beta, /);
		const unknown = await rigtop('history', 'gamma');
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain('no history is stored for a rig called "gamma"; stored: ');
		expect(unknown.stderr).toMatch(/stored: (alpha, beta|beta, alpha) /);

		// --once and pause take a rig of the rigs file by its name: that rig alone.
		const once = await rigtop('--once', 'alpha', '--rigs', rigs);
		expect(once.stderr).toBe('');
		expect(once.code).toBe(0);
		expect(once.stdout).toContain(`127.0.0.1:${alpha.port}`);
		expect(once.stdout).not.toContain(`127.0.0.1:${beta.port}`);
		const paused = await rigtop('pause', 'beta', '--rigs', rigs);
		expect(paused.code).toBe(0);
		expect(paused.stdout.split('\n')[0]).toBe('beta  applied  paused (read back)');
		expect(paused.stdout).not.toContain('alpha');
		expect((await rigtop('resume', 'beta', '--rigs', rigs)).code).toBe(0);
		// config get takes it too: the rig named, its token from the rigs file.
		const got = await rigtop('config', 'get', 'http.port', 'beta', '--rigs', rigs);
		expect(got.stderr).toBe('');
		expect([got.code, got.stdout.trim()]).toEqual([0, String(beta.port)]);
		const wrong = await rigtop('pause', 'gamma', '--rigs', rigs);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toContain('"gamma" is no address (host:port) and no rig of --rigs');
		expect(wrong.stderr).toContain('its rigs are "alpha", "beta"');
	}, 60_000);
});

describe('a rig without a rigs file is named by its address, the worker id beside it, alike on every screen and command', () => {
	it('the fleet names two simulators host:port (worker id), the dashboard too, and history --list names them alike', async () => {
		const sims = await scene.simulate([
			{dialect: '6', warm: true, workerId: 'w-one', seed: 91},
			{dialect: '6', warm: true, workerId: 'w-two', seed: 92},
		]);
		const [one, two] = sims;
		if (!one || !two) throw new Error('two simulators');
		const env = {XDG_STATE_HOME: path.join(scene.dir, 'state')};
		const terminal = await scene.start(['node', CLI, one.url, two.url, '--interval', '0.5'], {cols: 120, rows: 30, env});
		const screen = await terminal.waitFor((text) => (text.match(/ live /g) ?? []).length >= 2, 15_000);
		const pairs = [
			[one.port, 'w-one'],
			[two.port, 'w-two'],
		] as const;
		for (const [port, worker] of pairs) {
			// The row's name is the address; the worker id stands beside it, never alone as the name.
			expect(screen).toMatch(new RegExp(`(?:^|\\s)127\\.0\\.0\\.1:${port} \\(${worker}\\) +live `, 'm'));
			expect(screen).not.toMatch(new RegExp(`(?:^|\\s)${worker} +live `, 'm'));
		}

		// At 80 columns the rig column is narrow: the name's end, the port, stays; the worker id goes first.
		await terminal.resize(80, 24);
		const narrow = await terminal.waitFor((text) => text.split('\n')[0]!.length <= 80 && /…[\d.]*:\d+ +live /.test(text), 10_000);
		for (const [port, worker] of pairs) {
			expect(narrow).toMatch(new RegExp(`…[\\d.]*:${port} +live `));
			expect(narrow).not.toMatch(new RegExp(`(?:^|\\s)${worker} +live `, 'm'));
		}

		// The dashboard opened from the fleet says it alike in its title.
		await terminal.send('Enter');
		await terminal.waitFor((text) => /^ rigtop {2}127\.0\.0\.1:\d+ \(w-(one|two)\) /m.test(text), 10_000);
		await terminal.send('q');
		await terminal.waitFor('[exit 0]', 5000);

		const list = await runCli(['history', '--list'], {env});
		expect(list.code).toBe(0);
		for (const [port, worker] of pairs) {
			expect(list.stdout).toMatch(
				new RegExp(`^127\\.0\\.0\\.1:${port} \\(worker ${worker}\\) +http://127\\.0\\.0\\.1:${port} +first seen `, 'm'),
			);
		}
	}, 60_000);
});

/** What follows the first `cell` cells of a line, or null when a wide character straddles that cell. */
function fromCell(line: string, cell: number): string | null {
	let used = 0;
	for (const {segment, index} of new Intl.Segmenter().segment(line)) {
		if (used === cell) return line.slice(index);
		used += textWidth(segment);
		if (used > cell) return null;
	}

	return used === cell ? '' : null;
}

describe('names of every width in a real terminal', () => {
	it('80×24: rigs named ünïcødé-矿机 (rigs file) and by address with worker id 矿机-🚀 keep every column in place, up whole', async () => {
		const [wide, worker, plain] = await scene.simulate([
			{dialect: '6', warm: true, workerId: 'w-one', seed: 81},
			{dialect: '6', warm: true, workerId: '矿机-🚀', seed: 82},
			{dialect: '6', warm: true, workerId: 'w-three', seed: 83},
		]);
		if (!wide || !worker || !plain) throw new Error('three simulators');
		const rigs = await scene.rigsFile([{name: 'ünïcødé-矿机', url: wide.url}, {url: worker.url}, {name: 'plain', url: plain.url}]);
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '--interval', '0.5', '--no-history'], {cols: 80, rows: 24});
		const screen = await terminal.waitFor((text) => (text.match(/ live /g) ?? []).length >= 3 && text.includes(`:${worker.port} `), 15_000);
		const lines = screen.split('\n');
		for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(80);
		const header = lines.find((line) => line.includes('rig listed'));
		expect(header).toBeDefined();
		const stateAt = textWidth(header!.slice(0, header!.indexOf('state')));
		const upAt = textWidth(header!.slice(0, header!.indexOf(' up') + 1));
		// The rig the rigs file leaves unnamed is named by its address (its end at 80 columns: the port), not its worker id.
		const rows = ['ünïcødé-矿机', `:${worker.port}`, 'plain'].map((name) =>
			lines.find((line) => line.includes(name) && line.includes(' live ')),
		);
		for (const row of rows) {
			expect(row, screen).toBeDefined();
			// The state column starts where its heading does on every row, and the uptime is whole ("3d"), not "…".
			expect(fromCell(row!, stateAt), row).toMatch(/^live /);
			expect(fromCell(row!, upAt), row).toMatch(/^ ?\d+[dhms]\b/);
			// Past the rig cell (which cuts a name that does not fit) nothing is cut.
			expect(fromCell(row!, stateAt), row).not.toContain('…');
		}
	}, 40_000);
});
