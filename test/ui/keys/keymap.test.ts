import {readFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {keyName, type Capability, type KeyLike, type Keymap} from '../../../source/ui/keys/matcher.js';
import {CONFIG_KEYMAP, SCREEN_KEYMAP, type CommandName} from '../../../source/ui/keys/bindings.js';
import {keysHelpLines, keysMarkdown} from '../../../source/ui/keys/reference.js';
import {FLEET_SORTS} from '../../../source/ui/screens/fleet/columns.js';
import {WORKER_SORTS} from '../../../source/ui/screens/proxy/columns.js';

const everything: ReadonlySet<CommandName> = new Set<CommandName>(SCREEN_KEYMAP.bindings.map((binding) => binding.command));
const commandFor = (input: string, key: KeyLike, screen: 'dashboard' | 'help' | 'fleet' | 'fleetFilter', available = everything) =>
	SCREEN_KEYMAP.commandFor(input, key, screen, available);

describe('keymap', () => {
	test('maps keys to commands on the dashboard', () => {
		expect(commandFor('q', {}, 'dashboard')).toBe('quit');
		expect(commandFor('c', {ctrl: true}, 'dashboard')).toBe('quit');
		expect(commandFor('c', {}, 'dashboard')).toBe('config');
		expect(commandFor('?', {}, 'dashboard')).toBe('help');
		expect(commandFor('p', {}, 'dashboard')).toBe('pause');
		expect(commandFor('r', {}, 'dashboard')).toBe('resume');
		expect(commandFor('R', {}, 'dashboard')).toBe('refresh');
		expect(commandFor('', {downArrow: true}, 'dashboard')).toBe('threadsDown');
		expect(commandFor('j', {}, 'dashboard')).toBe('threadsDown');
		expect(commandFor('k', {}, 'dashboard')).toBe('threadsUp');
		expect(commandFor('', {pageDown: true}, 'dashboard')).toBe('pageDown');
		expect(commandFor('', {end: true}, 'dashboard')).toBe('threadsBottom');
		expect(commandFor('x', {}, 'dashboard')).toBeNull();
	});

	test('a Ctrl chord is not its plain letter, and the help screen takes fewer keys', () => {
		expect(commandFor('p', {ctrl: true}, 'dashboard')).toBeNull();
		expect(commandFor('p', {}, 'help')).toBeNull();
		expect(commandFor('', {downArrow: true}, 'help')).toBe('helpDown'); // where the screen scrolls its help
		expect(commandFor('', {downArrow: true}, 'help', SCREEN_KEYMAP.available('help'))).toBeNull();
		expect(commandFor('', {escape: true, meta: true}, 'help')).toBe('back');
		expect(commandFor('q', {}, 'help')).toBe('quit');
	});

	test('a key works only where what it needs is offered', () => {
		const offered = new Set<Capability>(['pause', 'threads']);
		const available = SCREEN_KEYMAP.available('dashboard', offered);
		expect(commandFor('p', {}, 'dashboard', available)).toBe('pause');
		expect(commandFor('c', {}, 'dashboard', available)).toBeNull();
		expect(commandFor('', {escape: true}, 'dashboard', available)).toBeNull();
		expect(commandFor('q', {}, 'dashboard', available)).toBe('quit');
		expect(commandFor('', {downArrow: true}, 'dashboard', available)).toBe('threadsDown');
		// Without the threads pane on screen, its scroll keys are not offered.
		const noThreads = SCREEN_KEYMAP.available('dashboard', new Set<Capability>(['pause']));
		expect(commandFor('', {downArrow: true}, 'dashboard', noThreads)).toBeNull();
		const help = SCREEN_KEYMAP.help(['dashboard', 'help'], offered);
		expect(help.find((entry) => entry.keys === 'p')?.available).toBe(true);
		expect(help.find((entry) => entry.keys === 'c')?.available).toBe(false);
		expect(help.find((entry) => entry.keys === 'q, F10, Ctrl+C')?.available).toBe(true);
	});

	test('no key means two things in one context', () => {
		const check = <C extends string, X extends string>(keymap: Keymap<C, X>) => {
			const contexts = new Set(keymap.bindings.flatMap((binding) => binding.contexts));
			for (const context of contexts) {
				const seen = new Set<string>();
				for (const binding of keymap.bindings.filter((entry) => entry.contexts.includes(context))) {
					for (const spec of binding.keys) {
						const id = JSON.stringify(spec);
						expect(seen.has(id), `${id} in ${context}`).toBe(false);
						seen.add(id);
					}
				}
			}
		};

		check(SCREEN_KEYMAP);
		check(CONFIG_KEYMAP);
	});

	test('key names are spelled in one place', () => {
		expect(keyName({input: 'c', ctrl: true})).toBe('Ctrl+C');
		expect(keyName({input: ' '})).toBe('Space');
		expect(keyName({special: 'escape'})).toBe('Esc');
		expect(keyName({special: 'return'})).toBe('Enter');
		expect(keyName({special: 'pageDown'})).toBe('PgDn');
		expect(keyName({input: 'R'})).toBe('R');
	});

	test('the footer comes from the same table and hides what is not shown', () => {
		const hints = SCREEN_KEYMAP.footer('dashboard', new Set<CommandName>(['quit', 'help', 'pause', 'threadsUp', 'threadsDown']));
		expect(hints.map((hint) => `${hint.keys} ${hint.label}`)).toEqual(['q quit', '? help', 'p pause', '↑↓ threads']);
		expect(SCREEN_KEYMAP.footer('help', SCREEN_KEYMAP.available('help')).map((hint) => hint.keys)).toEqual(['q', '?', 'Esc']);
		expect(SCREEN_KEYMAP.footer('fleet', SCREEN_KEYMAP.available('fleet')).map((hint) => `${hint.keys} ${hint.label}`)).toEqual([
			'q quit',
			'? help',
			'↑↓ select',
			'Enter open',
			's sort',
			'/ filter',
			'Esc clear filter',
		]);
		expect(SCREEN_KEYMAP.footer('chart', SCREEN_KEYMAP.available('chart')).map((hint) => `${hint.keys} ${hint.label}`)).toEqual([
			'q quit',
			'? help',
			'Esc back',
			'+- zoom',
			'←→ time',
			'End now',
			's series',
		]);
		// R needs a session that can poll its rigs.
		expect(SCREEN_KEYMAP.footer('fleet', SCREEN_KEYMAP.available('fleet', new Set(['refresh']))).at(-1)).toEqual({
			keys: 'R',
			label: 'refresh',
			// Given up first on a short footer (c, g, e stay at 80 columns).
			low: true,
		});
		// The proxy's workers: Esc clears a filter in force (and says so, as the fleet does), with none goes back.
		const proxyFooter = (context: 'proxy' | 'proxyFiltered') =>
			SCREEN_KEYMAP.footer(context, SCREEN_KEYMAP.available(context, new Set(['fleet']))).map((hint) => `${hint.keys} ${hint.label}`);
		expect(proxyFooter('proxyFiltered')).toContain('Esc clear filter');
		expect(proxyFooter('proxyFiltered')).not.toContain('Esc back');
		expect(proxyFooter('proxy')).toContain('Esc back');
		expect(proxyFooter('proxy')).not.toContain('Esc clear filter');
		expect(SCREEN_KEYMAP.footer('fleetFilter', SCREEN_KEYMAP.available('fleetFilter')).map((hint) => `${hint.keys} ${hint.label}`)).toEqual(
			['Enter keep', 'Esc clear'],
		);
	});

	test('help labels list every key a command answers to', () => {
		const entries = SCREEN_KEYMAP.help([
			'dashboard',
			'fleet',
			'fleetFilter',
			'help',
			'question',
			'chart',
			'events',
			'proxy',
			'proxyFiltered',
			'worker',
			'fleetBatch',
			'fleetResults',
			'fleetConfig',
			'fleetConfigTyping',
			'fleetConfigDiff',
			'fleetConfigHelp',
		]);
		expect(entries).toHaveLength(SCREEN_KEYMAP.bindings.length);
		expect(entries.find((entry) => entry.description === 'quit rigtop')?.keys).toBe('q, F10, Ctrl+C');
		const dismiss = CONFIG_KEYMAP.help(['panel']).find((entry) => entry.description === 'close this panel');
		expect(dismiss?.keys).toBe('Esc, Enter');
	});

	test("rigtop --help's keys are the footers of the screens, wrapped to fit 80 columns under meow's indent", () => {
		const lines = keysHelpLines();
		for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(76);
		// Each screen's footer, its continuation lines joined back.
		const screens = lines
			.slice(1)
			.join('\n')
			.replaceAll(/ ·\n {13}/g, ' · ')
			.split('\n');
		expect(screens[0]).toBe(
			'  dashboard  q quit · ? help · c config · p pause · r resume · R refresh · ↑↓ threads · Esc fleet · g chart · e events · +- interval · f freeze',
		);
		expect(screens[1]).toBe(
			'  fleet      q quit · ? help · ↑↓ select · Enter open · s sort · / filter · Esc clear filter · R refresh · p pause · r resume · c config · g chart · e events',
		);
		// The proxy's screen: the fleet's keys on its workers, no pause (the proxy has none).
		expect(screens[2]).toBe(
			'  proxy      q quit · ? help · ↑↓ select · Enter open · s sort · / filter · Esc back · R refresh · c config · g chart · e events',
		);
		expect(screens[3]).toBe('  chart      q quit · ? help · Esc back · +- zoom · ←→ time · End now · s series');
		expect(screens[4]).toBe('  events     q quit · ? help · Esc back · ↑↓ scroll');
		expect(screens[5]).toMatch(/^ {2}config {5}\/ search · Space toggle · Enter edit · /);
		expect(screens).toHaveLength(6);
	});

	test("the readme's keys table is the one the keymap gives", () => {
		const readme = readFileSync(new URL('../../../readme.md', import.meta.url), 'utf8');
		const table = /<!-- keys:begin -->\n([\s\S]*?)\n<!-- keys:end -->/.exec(readme)?.[1];
		expect(table, 'readme.md has no <!-- keys:begin --> … <!-- keys:end --> block').toBeDefined();
		const markdown = keysMarkdown({fleet: FLEET_SORTS.help, proxy: WORKER_SORTS.help});
		expect(table, `readme.md's keys table is out of date; it should read:\n${markdown}\n`).toBe(markdown);
	});
});
