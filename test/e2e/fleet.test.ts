import {execFile} from 'node:child_process';
import {chmod, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it, vi} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const run = promisify(execFile);
const scene = sceneForEachTest('rigtop-fleet-e2e-');

async function threeRigs(): Promise<Simulator[]> {
	return scene.simulate([
		{dialect: '6', warm: true, workerId: 'fleet-six', seed: 21},
		{dialect: '5', warm: true, workerId: 'fleet-five', seed: 22},
		{dialect: '2', warm: true, workerId: 'fleet-two', seed: 23},
	]);
}

const rowOf = (screen: string, name: string) => screen.split('\n').find((line) => line.includes(name)) ?? '';

describe('the fleet view in a real terminal', () => {
	it('shows three rigs of three dialects with a total; a stopped rig is flagged within two intervals, then down, and the alert command gets its JSON; Enter/Esc move between fleet and rig', async () => {
		const [six, five, two] = await threeRigs();
		const recorder = path.join(scene.dir, 'record.cjs');
		const out = path.join(scene.dir, 'alerts.jsonl');
		await writeFile(
			recorder,
			`let s='';process.stdin.on('data',(c)=>{s+=c});process.stdin.on('end',()=>require('fs').appendFileSync(process.argv[2],s));\n`,
		);
		const intervalMs = 1000;
		const terminal = await scene.start(
			['node', CLI, six!.url, five!.url, two!.url, '-i', String(intervalMs / 1000), '--bell', '--on-alert', `node '${recorder}' '${out}'`],
			{cols: 100, rows: 24},
		);

		const first = await terminal.waitFor((screen) => /● 3 live/.test(screen) && /total +3\/3 up/.test(screen), 5000);
		expect(first.split('\n')[0]).toMatch(/^ rigtop {2}3 rigs · [\d.]+ kH\/s total/);
		// No rigs file: each rig is named by its address (cut at its start where narrow, the port kept), its worker id
		// beside it where there is room, never in its place.
		const cell = (sim: Simulator) => `[^ ]*:${sim.port}(?: \\([^)]*\\))?`;
		for (const sim of [six!, five!, two!]) expect(first).toMatch(new RegExp(`${cell(sim)} +live +[\\d.]+ k?H/s`));
		expect(first).not.toMatch(/fleet-(six|five|two) +live/);
		// The frame fills the terminal (rows - 1 lines): the key help is on its last line, the spare lines hold events.
		expect(first.split('\n')[22]).toMatch(/q quit .*Enter open/);

		await two!.stop();
		const stoppedAt = Date.now();
		await terminal.waitFor((screen) => new RegExp(`${cell(two!)} +(stale|down)`).test(screen), 2 * intervalMs + 1000);
		expect(Date.now() - stoppedAt).toBeLessThanOrEqual(2 * intervalMs + 1000);
		const down = await terminal.waitFor((screen) => new RegExp(`!${cell(two!)} +down`).test(screen), 8000);
		expect(down).toMatch(/total +2\/3 up/);
		expect(down).toMatch(/● 2 live · 1 down/);
		expect(rowOf(down, `:${six!.port}`)).toMatch(/live/);

		await vi.waitFor(
			async () => {
				const lines = (await readFile(out, 'utf8').catch(() => '')).split('\n').filter(Boolean);
				const alerts = lines.map((line) => JSON.parse(line) as {type: string; kind: string; rig: string; url: string; message: string});
				expect(alerts).toContainEqual(
					expect.objectContaining({type: 'rigtop-alert', kind: 'down', rig: `127.0.0.1:${two!.port}`, url: two!.url}),
				);
			},
			{timeout: 15_000, interval: 100},
		);

		await terminal.send('Down');
		await terminal.waitFor(new RegExp(`▸ ${cell(five!)} `), 3000);
		await terminal.send('Enter');
		// The dashboard's title: the address, the worker id beside it.
		const rig = await terminal.waitFor(
			(screen) => /Hashrate/.test(screen) && (screen.split('\n')[0] ?? '').includes(`127.0.0.1:${five!.port} (fleet-five)`),
			3000,
		);
		expect(rig).toMatch(/Esc fleet/);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => new RegExp(`▸ ${cell(five!)} `).test(screen) && /3 rigs/.test(screen), 3000);

		await two!.start();
		await terminal.waitFor((screen) => /● 3 live/.test(screen), 20_000);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});

describe('the fleet at full width: names, sort, filter, poll all, the last hour, warnings under their rig', () => {
	it('200 columns show names and pools whole and the last-hour column; one worker id on two rigs told apart by their names; s sorts with the cursor on its rig; / filters; R polls now; a rig file warning is that rig’s', async () => {
		const simulators = await scene.simulate([
			{dialect: '6', warm: true, workerId: 'garage-ryzen-9-5950x-left', seed: 31},
			{dialect: '5', warm: true, workerId: 'twin', seed: 32, token: 'e2e-fleet-token'},
			{dialect: '2', warm: true, workerId: 'twin', seed: 33},
		]);
		const [garage, twinA, twinB] = simulators;
		// The second rig's token file can be read by others: a warning about that rig alone.
		const token = path.join(scene.dir, 'twin.token');
		await writeFile(token, 'e2e-fleet-token\n');
		await chmod(token, 0o644);
		const rigs = path.join(scene.dir, 'rigs.json');
		// The rigs file names them: two rigs of one worker id, "twin", are told apart by their names, the worker id beside
		// (a rigs file that names two rigs alike is refused: test/session/rigs-file.test.ts).
		await writeFile(
			rigs,
			JSON.stringify([
				{name: 'garage-ryzen-9-5950x-left', url: garage!.url},
				{name: 'twin-a', url: twinA!.url, tokenFile: 'twin.token'},
				{name: 'twin-b', url: twinB!.url},
			]),
		);
		// A long interval: only R can make the rows notice a stopped rig within seconds.
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '30'], {
			cols: 200,
			rows: 50,
			env: {XDG_STATE_HOME: path.join(scene.dir, 'state')},
		});
		const first = await terminal.waitFor((screen) => /● 3 live/.test(screen), 8000);
		const lines = first.split('\n');
		// The session's order is the first one, and the rig column says so.
		expect(lines[1]).toMatch(/^ {2}rig listed▲ +state +10s +60s +15m +last hour +shares/);
		expect(rowOf(first, 'garage-ryzen-9-5950x-left')).toMatch(/^▸ garage-ryzen-9-5950x-left +live .* pool\.example\.org:443 /);
		expect(rowOf(first, 'twin-a (twin)')).toMatch(/live/);
		expect(rowOf(first, 'twin-b (twin)')).toMatch(/live/);
		// The token file warning is under that rig in the events, and under no other.
		const warning = first.split('\n').filter((line) => line.includes('can be read by other users'));
		expect(warning).toHaveLength(1);
		expect(warning[0]).toMatch(/^ \d\d:\d\d twin-a rig twin-a: tokenFile/);

		// Sort by 10 s: the 2.x rig (about 860 H/s) rises above the 6.x one (about 5 kH/s); the cursor, once garage is
		// chosen (Home), stays on it.
		await terminal.send('Home');
		await terminal.send('s', true);
		await terminal.waitFor('by state, worst first', 3000);
		await terminal.send('s', true);
		const sorted = await terminal.waitFor('by 10s, lowest first', 3000);
		const order = sorted.split('\n').slice(2, 5);
		expect(order[0]).toContain('twin-b (twin)');
		expect(order.find((line) => line.startsWith('▸'))).toContain('garage-ryzen-9-5950x-left');

		await terminal.send('/twin', true);
		const filtered = await terminal.waitFor(/\/twin▏ 2 of 3/, 3000);
		expect(filtered).not.toContain('garage-ryzen-9-5950x-left live');
		// The totals row sums the two rigs shown, and says so; the headline still sums all three.
		expect(filtered).toMatch(/shown +2\/2 up/);
		expect(filtered).toMatch(/^ rigtop {2}3 rigs · /m);
		await terminal.send('Enter');
		await terminal.waitFor(/\/twin 2 of 3 {2}Esc clear filter/, 3000);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => /garage-ryzen-9-5950x-left +live/.test(screen) && !/^ \/twin/m.test(screen), 3000);

		// R: every rig is polled now; the stopped one shows it at once, not after the 30 s interval.
		await twinB!.stop();
		const stoppedAt = Date.now();
		await terminal.send('R', true);
		await terminal.waitFor((screen) => /twin-b \(twin\) +(stale|down)/.test(screen), 5000);
		expect(Date.now() - stoppedAt).toBeLessThan(10_000);

		// At 80 columns everything fits: no line wider than the terminal, the names cut, the two still apart.
		await terminal.resize(80, 24);
		const narrow = await terminal.waitFor(
			(screen) => !screen.includes('last hour') && /twin-a/.test(screen) && /twin-b/.test(screen),
			3000,
		);
		for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('--no-history: no last-hour column, at any width', async () => {
		const [six, five] = await threeRigs();
		const terminal = await scene.start(['node', CLI, six!.url, five!.url, '--no-history'], {cols: 200, rows: 30});
		const screen = await terminal.waitFor(/● 2 live/, 8000);
		expect(screen.split('\n')[1]).toMatch(/^ {2}rig listed▲ +state +10s +60s +15m +shares/);
		expect(screen).not.toContain('last hour');
	});
});

describe('the fleet at 80×24: totals, the sort arrow (issue 22, items 4 and 11)', () => {
	it('a rig started seconds ago is in the headline total; the 15 m total says "· 3 of 4"; s and I mark the sorted column', async () => {
		const simulators = await scene.simulate([
			{dialect: '6', warm: true, workerId: 'warm-one', seed: 41},
			{dialect: '6', warm: true, workerId: 'warm-two', seed: 42},
			{dialect: '5', warm: true, workerId: 'warm-three', seed: 43},
			// Freshly started: its 10 s fills within seconds, its 15 m not for minutes.
			{dialect: '6', workerId: 'fresh', seed: 44, timeScale: 4},
		]);
		// Named in the rigs file as their worker ids (no worker id is shown beside a name that is it).
		const names = ['warm-one', 'warm-two', 'warm-three', 'fresh'];
		const rigs = await scene.rigsFile(simulators.map((sim, index) => ({name: names[index], url: sim.url})));
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1', '--no-history'], {cols: 80, rows: 24});

		// Every live rig has its 10 s: the headline counts all four (no "(3 of 4 up rigs)").
		const rate = String.raw`([\d.]+) (k?)H/s`;
		const tenSeconds = (screen: string, name: string) => {
			const match = new RegExp(String.raw`${name} +live +${rate}`).exec(rowOf(screen, name));
			return match ? Number(match[1]) * (match[2] === 'k' ? 1000 : 1) : Number.NaN;
		};
		// (Its 60 s fills within 15 s at four times the speed: then only the 15 m column lacks it.)
		const screen = await terminal.waitFor(
			// Filled: not the 0.00 a miner reports in its first second, before its threads hash.
			(text) => /● 4 live/.test(text) && !/up rigs\)/.test(text) && /fresh +live +[1-9][\d.]* k?H\/s +[1-9][\d.]* k?H\/s/.test(text),
			30_000,
		);
		const lines = screen.split('\n');
		const headline = new RegExp(String.raw`^ rigtop {2}4 rigs · ${rate} total +● 4 live`).exec(lines[0] ?? '');
		expect(headline).not.toBeNull();
		const total = Number(headline?.[1]) * (headline?.[2] === 'k' ? 1000 : 1);
		const sum = ['warm-one', 'warm-two', 'warm-three', 'fresh'].reduce((acc, name) => acc + tenSeconds(screen, name), 0);
		// The rows and the headline are one frame; each shows three significant digits.
		expect(Math.abs(total - sum)).toBeLessThanOrEqual(sum * 0.01);
		// The fresh rig has no 15 m: that column's total sums three rigs and says so, right under it.
		const fifteen = (lines[1] ?? '').indexOf('15m') + 2;
		expect(rowOf(screen, 'fresh')[fifteen]).toBe('—');
		const totalsAt = lines.findIndex((line) => /^ {2}total +4\/4 up/.test(line));
		expect(totalsAt).toBeGreaterThan(1);
		const counted = lines[totalsAt + 1] ?? '';
		expect(counted.trim()).toBe('· 3 of 4');
		expect(counted.trimEnd().length).toBe(fifteen + 1);
		// Shares whole, never "7.9K/8K".
		expect(screen).not.toMatch(/\d[KM]\//);

		// s: by state (worst first, ▼), s again: by 10 s (lowest first, ▲); I reverses it. At 80 columns.
		await terminal.send('s', true);
		const byState = await terminal.waitFor((text) => /state▼/.test(text.split('\n')[1] ?? ''), 3000);
		expect(byState.split('\n')[1]).toMatch(/^ {2}rig +state▼ +10s +60s +15m +shares/);
		await terminal.send('s', true);
		const byRate = await terminal.waitFor((text) => /10s▲/.test(text.split('\n')[1] ?? ''), 3000);
		const order = byRate
			.split('\n')
			.slice(2, 6)
			.map((line) => tenSeconds(line, line.slice(2).split(' ')[0] ?? ''));
		expect(order).toEqual([...order].sort((a, b) => a - b));
		await terminal.send('I', true);
		const reversed = await terminal.waitFor((text) => /10s▼/.test(text.split('\n')[1] ?? ''), 3000);
		for (const line of reversed.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
		expect([...reversed].filter((char) => char === '▲' || char === '▼')).toHaveLength(1);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});

describe('--once with several miners', () => {
	it('--rigs names the rigs; --json reports them all and exits 1 when one could not be read', async () => {
		const [six, five] = await threeRigs();
		const dead = await startSimulator({dialect: '6'});
		const deadUrl = dead.url;
		await dead.stop();
		const rigs = path.join(scene.dir, 'rigs.json');
		await writeFile(
			rigs,
			JSON.stringify([
				{name: 'alpha', url: six!.url},
				{name: 'beta', url: five!.url.replace('http://', '')},
				{name: 'gone', url: deadUrl},
			]),
		);
		const env: NodeJS.ProcessEnv = {...process.env};
		delete env['CI'];
		const failure = await run('node', [CLI, '--once', '--json', '--rigs', rigs], {env, timeout: 20_000}).then(
			() => null,
			(error: unknown) => error as {code: number; stdout: string},
		);
		expect(failure?.code).toBe(1);
		const report = JSON.parse(failure?.stdout ?? '') as {
			miners: {name: string; ok: boolean; miner: {workerId: string} | null; error: {kind: string} | null}[];
		};
		expect(report.miners.map((miner) => [miner.name, miner.ok])).toEqual([
			['alpha', true],
			['beta', true],
			['gone', false],
		]);
		expect(report.miners[0]?.miner?.workerId).toBe('fleet-six');
		expect(report.miners[2]?.error?.kind).toBe('unreachable');

		const bad = await run('node', [CLI, '--once', '--rigs', path.join(scene.dir, 'nope.json')], {env, timeout: 20_000}).catch(
			(error: unknown) => error as {code: number; stderr: string},
		);
		expect((bad as {code: number}).code).toBe(2);
		expect((bad as {stderr: string}).stderr).toMatch(/cannot read --rigs/);
	});
});
