/**
 * The proxy screen as shipped (`rigtop --demo proxy` in tmux): at 200×50 the lines its twelve workers leave hold the
 * newest events, the footer on the last line; `c` opens its config view, which speaks of the proxy, and Esc goes back
 * to the proxy screen.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
});

describe('the proxy screen, built', () => {
	it("200×50: events under the workers; c: the proxy's config view, back to the proxy", async () => {
		terminal = await TmuxTerminal.start(['node', CLI, '--demo', 'proxy'], {cols: 200, rows: 50});
		// The table and its totals come with the workers' first read; the demo's workers come and go (12 to start).
		const screen = await terminal.waitFor(/totals: all \d+ workers listed[\s\S]*watching demo-proxy/, 15_000);
		const lines = screen.split('\n');
		const note = lines.findIndex((line) => /totals: all \d+ workers listed/.test(line));
		expect(note).toBeGreaterThan(0);
		// The newest events right under the table, without the proxy's name on each; the key help on the last line.
		expect(lines[note + 1]).toMatch(/^ \d\d:\d\d \S/);
		expect(screen).toMatch(/^ \d\d:\d\d watching demo-proxy, xmrig-proxy 6\.26\.0/m);
		expect(lines.findLast((line) => line.trim() !== '')).toMatch(/^ q quit {2}\? help/);

		await terminal.send('c', true);
		const config = await terminal.waitFor(/read from proxy \d\d:\d\d/, 10_000);
		expect(config).toContain('demo-proxy · config');
		await terminal.send('?', true);
		await terminal.send('jjjjjjjjjjjjjjjj', true);
		const help = await terminal.waitFor(/Esc +back to the proxy/);
		expect(help).not.toContain('dashboard');
		await terminal.send('Escape');
		await terminal.waitFor(/\/ search/);
		await terminal.send('Escape');
		await terminal.waitFor(/worker listed/, 10_000);
	});
});
