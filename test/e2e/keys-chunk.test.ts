/**
 * Keys as a terminal delivers them: several in one read (a held key, fast typing, a paste, SSH). tmux's
 * `send-keys -l 'jjj'` writes them in one go; every key must act, in order, on every screen, and a key that
 * opens a screen hands the keys after it to that screen. A bracketed paste is text, never commands. Ctrl+Z
 * gives the shell back and `fg` brings rigtop back, drawn.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;
let simulators: Simulator[] = [];

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await Promise.all(simulators.map(async (sim) => sim.stop()));
	simulators = [];
});

const ESC = '\u001B';
const DOWN = `${ESC}[B`;
const pasted = (text: string) => `${ESC}[200~${text}${ESC}[201~`;

/** The thread number on the first row of the threads pane. */
function firstThread(screen: string): string | undefined {
	const lines = screen.split('\n');
	const header = lines.findIndex((line) => /│ +# +10s/.test(line));
	return /^│ +(\d+) /.exec(lines[header + 1] ?? '')?.[1];
}

describe('keys that arrive together', () => {
	it('on the dashboard: ++ and -- step the interval twice, j ↓ j in one read scroll three threads, a paste is no command, qq quits', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'chunk-dash', threads: 16});
		simulators = [sim];
		// -i 3: an interval the user chose stays on the header at 80 columns (the default gives way to the uptime).
		terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '3', '--no-history'], {cols: 80, rows: 24});
		await terminal.waitFor((screen) => screen.includes('chunk-dash') && screen.includes('every 3s') && firstThread(screen) === '0', 5000);
		await terminal.send('++', true);
		await terminal.waitFor('every 10s');
		await terminal.send('--', true);
		await terminal.waitFor('every 3s');
		// Printable keys and an escape sequence in one read.
		await terminal.send(`j${DOWN}j`, true);
		await terminal.waitFor((screen) => firstThread(screen) === '3', 3000);

		// A paste (tmux sends it bracketed only because rigtop turned bracketed paste on), and one as the terminal sends it.
		await terminal.paste('qqq');
		await terminal.send(pasted('qq+'), true);
		await terminal.send('--', true);
		const after = await terminal.waitFor('every 1s');
		expect(after).not.toContain('[exit');
		expect(after).toContain('chunk-dash');

		await terminal.send('qq', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('the help scrolls by jjj; a key that opens a screen hands the rest of the read to it (g3- sets the chart span, zooms out once)', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'chunk-help'});
		simulators = [sim];
		terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '0.5', '--no-history'], {cols: 80, rows: 10});
		await terminal.waitFor((screen) => screen.includes('chunk-help') && /live/.test(screen), 5000);
		// ? opens the help (taller than 10 rows), jjj scrolls it three lines: q, ? and R are above it then.
		await terminal.send('?jjj', true);
		// Each key of the chunk may draw a frame of its own: the wait is for the frame after the third j (the first j
		// already hides "quit rigtop"), and no frame may scroll past it.
		const help = await terminal.waitFor(
			(screen) => screen.includes('Keys ·') && /^│ g +the hashrate chart/.test(screen.split('\n')[2] ?? ''),
		);
		expect(help).not.toContain('quit rigtop');
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect((await terminal.screen()).split('\n')[2]).toMatch(/^│ g +the hashrate chart/);
		await terminal.send(ESC, true);
		await terminal.resize(80, 24);
		await terminal.waitFor('Hashrate', 3000);
		// 3 picks 6 h and - zooms out to 24 h (the span it opens with follows what is known: 3 makes it the same every run).
		await terminal.send('g3-', true);
		await terminal.waitFor(/127\.0\.0\.1:\d+ · last 24 h/, 3000);
		// The dashboard did not get the -: the interval is where it was.
		await terminal.send(ESC, true);
		const back = await terminal.waitFor('Hashrate', 3000);
		expect(back).toContain('every 500 ms');
		await terminal.send('qq', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('on the fleet: jjj selects three rigs down; in the event view jjj scrolls three events; a paste goes into the filter; qq quits', async () => {
		simulators = await Promise.all(
			['rig-a', 'rig-b', 'rig-c', 'rig-d', 'rig-e'].map(async (workerId, index) =>
				startSimulator({dialect: '6', warm: true, workerId, seed: 40 + index}),
			),
		);
		terminal = await TmuxTerminal.start(['node', CLI, ...simulators.map((sim) => sim.url), '-i', '1', '--no-history'], {
			cols: 100,
			rows: 24,
		});
		// Named by their addresses (no rigs file): the selected row by its port; "/" still finds a rig by its worker id.
		const selected = (index: number) => new RegExp(`▸ [^ ]*:${simulators[index]!.port}\\b`);
		await terminal.waitFor((screen) => /● 5 live/.test(screen) && selected(0).test(screen), 8000);
		await terminal.send('jjj', true);
		await terminal.waitFor(selected(3), 3000);
		await terminal.send('e', true);
		await terminal.waitFor(/1–5 of 5/, 3000);
		await terminal.send('jjj', true);
		await terminal.waitFor(/4–5 of 5/, 3000);
		await terminal.send(ESC, true);
		await terminal.waitFor(selected(3), 3000);
		// A paste into the filter is its text (q in it neither quits nor is lost); Enter keeps it.
		await terminal.send('/', true);
		await terminal.waitFor('/▏', 3000);
		await terminal.paste('rig-q');
		await terminal.waitFor(/\/rig-q▏ 0 of 5/, 3000);
		await terminal.send('BSpace');
		await terminal.paste('c');
		await terminal.send('Enter');
		await terminal.waitFor(/\/rig-c 1 of 5/, 3000);
		await terminal.send('Escape');
		await terminal.waitFor(/● 5 live/, 3000);
		await terminal.send('qq', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('in the config view: jjj moves the cursor three keys; typed and pasted text goes into a value whole; q q leaves and quits', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, token: 'chunk-token', restricted: false, workerId: 'chunk-config'});
		simulators = [sim];
		terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '1', '--no-history'], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_TOKEN: 'chunk-token'},
		});
		await terminal.waitFor((screen) => screen.includes('chunk-config') && /live/.test(screen), 5000);
		await terminal.send('c', true);
		const tree = await terminal.waitFor('▸ cpu', 5000);
		// The tree under the title line, the cursor on its first row.
		const rows = tree.split('\n').slice(1);
		expect(rows[0]).toMatch(/^› /);
		await terminal.send('jjj', true);
		const moved = await terminal.waitFor((screen) => screen.split('\n')[4]?.startsWith('›') === true, 3000);
		expect(moved.split('\n').filter((line) => line.startsWith('›'))).toEqual([`›${rows[3]?.slice(1)}`]);

		// Editing a value: the keys typed in one read and a paste are text (a q in them neither leaves nor quits).
		await terminal.send('/pools.0.user', true);
		await terminal.send('Enter');
		await terminal.waitFor(/› +user /, 3000);
		await terminal.send('Enter');
		await terminal.waitFor('user: type the new value', 3000);
		await terminal.send('C-u');
		await terminal.send('abcq', true);
		await terminal.waitFor(/› +user +abcq\s*$/m, 3000);
		await terminal.paste('xq-z');
		await terminal.waitFor(/› +user +abcqxq-z\s*$/m, 3000);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => !screen.includes('type the new value'), 3000);

		// Browsing, a paste is no command: the view stays.
		await terminal.paste('qq');
		await terminal.send('?', true);
		await terminal.waitFor('Config view keys', 3000);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => !screen.includes('Config view keys') && screen.includes('▸ cpu'), 3000);
		// q leaves the view, the second q (in the same read) quits from the dashboard.
		await terminal.send('qq', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('Ctrl+Z gives the shell back; fg brings rigtop back, drawn, and its keys work', async () => {
		terminal = await TmuxTerminal.start(['bash', '--norc', '--noprofile', '-i'], {cols: 80, rows: 24, env: {PS1: 'shell$ '}});
		await terminal.waitFor('shell$', 5000);
		await terminal.send(`node '${CLI}' --demo -i 0.5 --no-history`, true);
		await terminal.send('Enter');
		await terminal.waitFor((screen) => screen.includes('demo-rig') && screen.includes('q quit') && /live/.test(screen), 8000);
		await terminal.send('C-z');
		const shell = await terminal.waitFor(/Stopped +node [\s\S]*\nshell\$/, 5000);
		expect(shell).not.toContain('q quit');
		// The terminal is made larger while rigtop is stopped (the shell gets that news, not rigtop).
		await terminal.resize(100, 30);
		await terminal.send('fg', true);
		await terminal.send('Enter');
		// Drawn in full again (the alternate screen is back: no shell lines), at the new size, and the keys work.
		const back = await terminal.waitFor(
			(screen) => screen.includes('demo-rig') && screen.includes('q quit') && screen.split('\n')[1]?.trimEnd().length === 100,
			5000,
		);
		expect(back).not.toContain('Stopped');
		expect(back.split('\n')[0]).toContain('rigtop');
		expect(back).toContain('╭ Threads');
		await terminal.send('+', true);
		await terminal.waitFor('every 1s', 3000);
		await terminal.send('q', true);
		await terminal.waitFor(/fg\n.*--demo[\s\S]*\nshell\$/, 5000);
	});

	it('Ctrl+Z with no shell to go back to (no job control) leaves rigtop running', async () => {
		terminal = await TmuxTerminal.start(['node', CLI, '--demo', '-i', '0.5', '--no-history'], {cols: 80, rows: 24});
		await terminal.waitFor((screen) => screen.includes('demo-rig') && /live/.test(screen), 8000);
		await terminal.send('C-z');
		await terminal.send('+', true);
		const back = await terminal.waitFor((screen) => screen.includes('every 1s') && screen.includes('q quit'), 5000);
		expect(back.split('\n')[0]).toContain('rigtop');
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});
