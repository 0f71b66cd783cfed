/**
 * The config view of an xmrig-proxy (`c` on the proxy screen) says what it says of the proxy: back to the proxy, after
 * the proxy restarts, the proxy's API and config. Each wording is checked in the view, over a real ConfigSession talking
 * to the simulated xmrig-proxy; a miner's view keeps its words (test/ui/screens/config/view.test.tsx).
 */
import {afterEach, describe, expect, it} from 'vitest';
import {ConfigSession} from '../../../../source/config/session.js';
import {MinerClient} from '../../../../source/miner/client.js';
import {startSimulator, type ProxySimulator} from '../../../../source/sim/simulator.js';
import {ConfigView} from '../../../../source/ui/screens/config/view.js';
import {PROXY_WORDING, wordsFor} from '../../../../source/config/words.js';
import {tempDir} from '../../../config/helpers/fixtures.js';
import {FAST, TOKEN} from '../../../config/helpers/sim-miner.js';
import {KEYS, linesOf, renderTerminal, tick, type Terminal} from '../../helpers/terminal.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The text inside the frame (borders and padding off, lines joined): for prose that wraps. */
function prose(terminal: Terminal): string {
	return linesOf(terminal.frame())
		.map((line) => line.replace(/^[│ ]+|[│ ]+$/g, ''))
		.join(' ')
		.replaceAll(/\s+/g, ' ');
}

async function search(terminal: Terminal, text: string) {
	await terminal.press('/', '/▏');
	await terminal.press(text, `/${text}▏`);
	await terminal.press('\r');
	await tick();
}

async function openProxy(options: {restricted?: boolean; columns?: number; rows?: number} = {}) {
	const sim: ProxySimulator = await startSimulator({
		kind: 'proxy',
		token: TOKEN,
		restricted: options.restricted ?? false,
		seed: 5,
		workers: 3,
	});
	const client = new MinerClient({url: sim.url, token: TOKEN});
	const temp = tempDir('rigtop-proxy-words-');
	const session = new ConfigSession({client, backupDir: temp.dir, readOnly: false, tokenGiven: true, ...FAST});
	cleanups.push(async () => {
		session.dispose();
		await client.close();
		await sim.stop();
		temp.remove();
	});
	const backs: number[] = [];
	void session.open();
	const terminal = await renderTerminal(
		<ConfigView session={session} minerName="proxy-a" caps={{back: () => backs.push(1)}} subject="proxy" readOnly={false} />,
		{columns: options.columns ?? 80, rows: options.rows ?? 24},
	);
	return {sim, session, terminal, backs};
}

describe("the config view's words for an xmrig-proxy", () => {
	it('each phrase written of a miner has its proxy wording; a miner keeps its words', () => {
		const cases: [string, string][] = [
			['Esc: back to the dashboard', 'Esc: back to the proxy'],
			['no changes · read from miner 12:07', 'no changes · read from proxy 12:07'],
			['check that the address is an XMRig miner; nothing was changed', 'check that the address is an xmrig-proxy; nothing was changed'],
			['if a proxy sits between rigtop and the miner it may rewrite', 'if an HTTP proxy sits between rigtop and the proxy it may rewrite'],
			['takes effect after the miner restarts', 'takes effect after the proxy restarts'],
			["The miner's config changed since rigtop read it:", "The proxy's config changed since rigtop read it:"],
			["there is no backup of this miner's config to go back to", "there is no backup of this proxy's config to go back to"],
			['set http.restricted to false and restart the miner', 'set http.restricted to false and restart the proxy'],
		];
		for (const [miner, proxy] of cases) {
			expect(wordsFor('proxy', miner)).toBe(proxy);
			expect(wordsFor('miner', miner)).toBe(miner);
		}

		// Every phrase of the table is exercised above.
		for (const [phrase] of PROXY_WORDING)
			expect(
				cases.some(([miner]) => new RegExp(phrase.source).test(miner)),
				phrase.source,
			).toBe(true);
	});

	it("the title, a key's restart note and the help say the proxy: read from proxy, after the proxy restarts, back to the proxy", async () => {
		const {terminal, backs} = await openProxy();
		await terminal.waitFor('▸ bind');
		expect(linesOf(terminal.frame())[0]).toMatch(/proxy-a · config\s+no changes · read from proxy \d\d:\d\d$/);
		expect(terminal.frame()).not.toContain('miner');
		await search(terminal, 'background');
		// Off the search's message, the key under the cursor says when it takes effect.
		await terminal.press('jk');
		await terminal.waitFor('background: takes effect after the proxy restarts');
		await terminal.press('?', 'Config view keys');
		for (let index = 0; index < 14; index++) await terminal.press('j');
		await terminal.waitFor(/q\s+back to the proxy \(asks first when changes are pending\)/);
		expect(terminal.frame()).not.toContain('dashboard');
		await terminal.press(KEYS.escape, '▸ bind');
		await terminal.press('q');
		expect(backs).toHaveLength(1);
	});

	it("questions say the proxy: the config read from the proxy again, the proxy keeps its config, the proxy's API", async () => {
		const {terminal} = await openProxy();
		await terminal.waitFor('▸ bind');
		await search(terminal, 'background');
		await terminal.press(' ', '(was false)');
		await terminal.press('R', 'Read the config from the proxy again?');
		await terminal.press('n', '● background');
		// A change that can cut rigtop off from the proxy's API asks twice, in the proxy's words.
		await search(terminal, 'http.port');
		await terminal.press('+', '(was ');
		await terminal.press('w', /cut rigtop off from the proxy's API/);
		expect(terminal.frame()).not.toContain("miner's");
		await terminal.press('q', 'Leave with 2 pending changes?');
		expect(prose(terminal)).toContain('They are dropped; the proxy keeps its config.');
	});

	it("a proxy whose config cannot be read: the proxy's config, restart the proxy, back to the proxy; too small: goes back to the proxy", async () => {
		const {terminal} = await openProxy({restricted: true});
		await terminal.waitFor("Could not read the proxy's config");
		expect(prose(terminal)).toContain("fix: set http.restricted to false in the proxy's config file");
		expect(prose(terminal)).toContain('restart the proxy');
		expect(terminal.frame()).toContain('Esc or q: back to the proxy');
		expect(terminal.frame()).not.toMatch(/miner|dashboard/);
		terminal.resize(40, 9);
		await terminal.waitFor('too small');
		expect(prose(terminal)).toContain('q goes back to the proxy');
	});
});
