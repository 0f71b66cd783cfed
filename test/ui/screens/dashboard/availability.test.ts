/**
 * The dashboard's availability is the one source of its footer, its help and its key handler: these check that the
 * three agree, and that what they agree on is right (what the miner refuses, the threads pane, a terminal too small).
 */
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {READ_ONLY_MESSAGE} from '../../../../source/config/session.js';
import {SCREEN_KEYMAP, type CommandName} from '../../../../source/ui/keys/bindings.js';
import type {KeyLike, KeySpec} from '../../../../source/ui/keys/matcher.js';
import {footerOf, helpOf} from '../../../../source/ui/screens/contract.js';
import {availability, dashboardKeys, minerFacts, THREADS_HIDDEN} from '../../../../source/ui/screens/dashboard/availability.js';
import {initialState, reduce} from '../../../../source/ui/screens/dashboard/reduce.js';
import type {DashboardEnv, DashboardState, FrozenMoment, Given, MinerFacts} from '../../../../source/ui/screens/dashboard/state.js';
import {makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';

/** What f holds: the miner's state, its shares and the clock of the moment. */
const MOMENT: FrozenMoment = {state: makeState(), at: NOW};
const ALL: Given = {config: true, pause: true, resume: true, refresh: true, back: true, interval: true, chart: true, events: true};
const NONE: Given = {config: false, pause: false, resume: false, refresh: false, back: false, interval: false, chart: false, events: false};

const MINERS = {
	/** Mining, and says so (4.4+): pause works, resume is refused. */
	mining: minerFacts(makeState()),
	paused: minerFacts(makeState({snapshot: makeSnapshot({paused: true})})),
	/** Before 4.4: it does not say whether it is paused, so both work. */
	unsaid: minerFacts(makeState({snapshot: makeSnapshot({paused: null})})),
	down: minerFacts(makeState({status: 'down', error: refused()})),
	old: minerFacts(makeState({snapshot: makeSnapshot({dialect: 'v1', version: '2.14.4', kind: 'cpu', paused: null, restricted: null})})),
	restricted: minerFacts(makeState({snapshot: makeSnapshot({restricted: true})})),
	waiting: minerFacts(makeState({status: 'connecting', snapshot: null})),
} satisfies Record<string, MinerFacts>;

function envOf(overrides: Partial<DashboardEnv> = {}): DashboardEnv {
	return {
		miner: MINERS.unsaid,
		given: ALL,
		readOnly: false,
		tokenGiven: true,
		threads: 'scrolls',
		tooSmall: false,
		pageSize: 7,
		threadCount: 16,
		helpMax: 3,
		intervalMs: 2000,
		moment: () => MOMENT,
		...overrides,
	};
}

/** A key as the terminal sends it, for a key spec of the keymap. */
function press(spec: KeySpec): {readonly input: string; readonly key: KeyLike} {
	if ('special' in spec) return {input: '', key: {[spec.special]: true}};
	if ('fn' in spec) return {input: '', key: {fn: spec.fn}};
	return {input: spec.input, key: spec.ctrl === true ? {ctrl: true} : {}};
}

const keyOf = (command: CommandName, context: 'dashboard' | 'help' | 'question' = 'dashboard') => {
	const spec = SCREEN_KEYMAP.bindings.find((binding) => binding.command === command && binding.contexts.includes(context))?.keys[0];
	if (spec === undefined) throw new Error(`no key for ${command}`);
	return press(spec);
};

function step(state: DashboardState, command: CommandName, env: DashboardEnv, context: 'dashboard' | 'help' | 'question' = 'dashboard') {
	const {input, key} = keyOf(command, context);
	return reduce(state, {type: 'key', input, key}, env);
}

const footerWords = (state: DashboardState, env: DashboardEnv) =>
	footerOf(SCREEN_KEYMAP, availability(state, env)).map((hint) => hint.label);
const helpShows = (env: DashboardEnv) =>
	helpOf(SCREEN_KEYMAP, ['dashboard'], dashboardKeys(env))
		.filter((entry) => entry.available)
		.map((entry) => entry.description);
const described = (command: CommandName) =>
	SCREEN_KEYMAP.bindings.find((binding) => binding.command === command && binding.contexts.includes('dashboard'))?.description ?? '';

/** What a key whose command works does (never a refusal): an effect, a question, the help, a scroll, a sort. */
function worked(
	command: CommandName,
	before: DashboardState,
	after: {readonly state: DashboardState; readonly effects: readonly string[]},
) {
	expect(after.state.message?.tone, command).not.toBe('warn');
	switch (command) {
		case 'pause':
			expect(after.state.asking).toBe('pause');
			break;
		case 'help':
			expect(after.state.help).toBe(true);
			break;
		case 'threadsDown':
		case 'pageDown':
		case 'threadsBottom':
			expect(after.state.threadsOffset).toBeGreaterThan(before.threadsOffset);
			break;
		case 'sort':
		case 'sortReverse':
			expect(after.state.threadSort).not.toEqual(before.threadSort);
			break;
		case 'freeze':
			// The display holds the moment the env gives (f again shows the present): no effect reaches the app.
			expect(after.state.frozen).toBe(MOMENT);
			expect(after.effects).toEqual([]);
			break;
		case 'threadsUp':
		case 'pageUp':
		case 'threadsTop':
			// From the top there is nowhere to go: the key is taken, and nothing is said.
			expect(after.effects).toEqual([]);
			expect(after.state.message).toBeNull();
			break;
		default:
			expect(after.effects).toEqual([command]);
	}
}

describe('the footer, the help and the key handler agree', () => {
	const miners = Object.keys(MINERS) as (keyof typeof MINERS)[];
	const givens = fc.record<Given>({
		config: fc.boolean(),
		pause: fc.boolean(),
		resume: fc.boolean(),
		refresh: fc.boolean(),
		back: fc.boolean(),
		interval: fc.boolean(),
		chart: fc.boolean(),
		events: fc.boolean(),
	});
	const envs = fc
		.record({
			miner: fc.constantFrom(...miners),
			given: givens,
			readOnly: fc.boolean(),
			tokenGiven: fc.boolean(),
			threads: fc.constantFrom('hidden' as const, 'fits' as const, 'scrolls' as const),
		})
		.map(({miner, ...rest}) => envOf({...rest, miner: MINERS[miner], ...(rest.threads === 'fits' ? {pageSize: 16} : {})}));

	test('every key of the dashboard: in the footer it works; refused, it says why and does nothing; not offered, it is silent', () => {
		fc.assert(
			fc.property(envs, (env) => {
				const state = initialState();
				const keys = availability(state, env);
				const footer = footerWords(state, env);
				const help = helpShows(env);
				for (const binding of SCREEN_KEYMAP.bindings.filter((entry) => entry.contexts.includes('dashboard'))) {
					const {command} = binding;
					if (command === 'suspend') continue; // Ctrl+Z is handled before any screen (hooks/use-keys.ts).
					const after = step(state, command, env);
					const reason = keys.refused.get(command);
					if (keys.works.has(command)) {
						worked(command, state, after);
						expect(help, command).toContain(binding.description);
					} else {
						if (binding.footer !== undefined) expect(footer, command).not.toContain(binding.footer);
						expect(help, command).not.toContain(binding.description);
						expect(after.effects, command).toEqual([]);
						if (reason === undefined) expect(after.state, command).toBe(state);
						else expect(after.state.message, command).toEqual({text: reason, tone: 'warn'});
					}
				}

				for (const word of footer) {
					const binding = SCREEN_KEYMAP.bindings.find((entry) => entry.footer === word && entry.contexts.includes('dashboard'));
					expect(binding && keys.works.has(binding.command), word).toBe(true);
				}
			}),
			{numRuns: 60},
		);
	});
});

describe("what the miner refuses: each refused key's reason, out of the footer and the help", () => {
	const cases: readonly {
		readonly name: string;
		readonly env: DashboardEnv;
		readonly refused: readonly (readonly [CommandName, string | RegExp])[];
		readonly works: readonly CommandName[];
	}[] = [
		{
			name: '--read-only',
			env: envOf({readOnly: true}),
			refused: [
				['pause', READ_ONLY_MESSAGE],
				['resume', READ_ONLY_MESSAGE],
			],
			works: ['config', 'refresh'],
		},
		{
			name: 'a miner that is down',
			env: envOf({miner: MINERS.down}),
			refused: [
				['pause', 'the miner is not answering (down): nothing can be sent to it now'],
				['config', 'the miner is not answering (down): its config cannot be read now'],
			],
			works: ['refresh'],
		},
		{
			name: 'a miner that has not answered yet',
			env: envOf({miner: MINERS.waiting}),
			refused: [['config', 'wait: the miner has not answered yet']],
			works: ['refresh'],
		},
		{
			name: 'a paused miner',
			env: envOf({miner: MINERS.paused}),
			refused: [['pause', 'the miner is paused already (r resumes it)']],
			works: ['resume'],
		},
		{
			name: 'a mining one',
			env: envOf({miner: MINERS.mining}),
			refused: [['resume', 'the miner is mining, not paused (p pauses it)']],
			works: ['pause'],
		},
		{
			name: 'XMRig 2.14',
			env: envOf({miner: MINERS.old}),
			refused: [
				['pause', 'XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)'],
				['resume', /XMRig 2\.14\.4 has no pause or resume/],
			],
			works: ['config'],
		},
		{
			name: 'a restricted API',
			env: envOf({miner: MINERS.restricted}),
			refused: [
				['pause', /restricted: pausing needs http\.restricted false/],
				['config', /restricted: reading its config needs http\.restricted false/],
			],
			works: ['refresh'],
		},
		{
			name: 'no token',
			env: envOf({tokenGiven: false}),
			refused: [['pause', "pausing needs the miner's access token: --token-file or RIGTOP_TOKEN"]],
			works: ['refresh'],
		},
		{
			name: 'the threads pane not on screen',
			env: envOf({threads: 'hidden'}),
			refused: [
				['threadsDown', THREADS_HIDDEN],
				['sort', THREADS_HIDDEN],
				['threadsBottom', THREADS_HIDDEN],
			],
			works: ['pause', 'freeze'],
		},
	];

	for (const {name, env, refused: reasons, works} of cases) {
		test(name, () => {
			const state = initialState();
			for (const [command, reason] of reasons) {
				const after = step(state, command, env);
				expect(after.effects, command).toEqual([]);
				if (typeof reason === 'string') expect(after.state.message?.text, command).toBe(reason);
				else expect(after.state.message?.text, command).toMatch(reason);
				const label = SCREEN_KEYMAP.bindings.find((binding) => binding.command === command)?.footer;
				if (label !== undefined) expect(footerWords(state, env), command).not.toContain(label);
				expect(helpShows(env), command).not.toContain(described(command));
			}

			for (const command of works) {
				worked(command, state, step(state, command, env));
				expect(helpShows(env), command).toContain(described(command));
			}
		});
	}

	test('a key whose action the app did not give is silent, in no footer and no help', () => {
		const env = envOf({given: NONE});
		const state = initialState();
		for (const command of ['config', 'pause', 'resume', 'refresh', 'toFleet', 'slower', 'chart', 'events'] as const) {
			expect(step(state, command, env).state, command).toBe(state);
			expect(helpShows(env), command).not.toContain(described(command));
		}

		expect(footerWords(state, env)).toEqual(['quit', 'help', 'threads', 'freeze']);
	});
});

describe('the threads pane', () => {
	test('its scroll keys are offered only while it has rows out of sight; its sort keys while it is on screen', () => {
		const state = initialState();
		const fits = envOf({threads: 'fits', pageSize: 16});
		expect(footerWords(state, fits)).not.toContain('threads');
		expect(helpShows(fits)).not.toContain('scroll threads down');
		expect(helpShows(fits)).toContain(described('sort'));
		expect(step(state, 'threadsDown', fits).state).toBe(state);
		worked('sort', state, step(state, 'sort', fits));
		const scrolls = envOf({threads: 'scrolls'});
		expect(footerWords(state, scrolls)).toContain('threads');
		expect(helpShows(scrolls)).toContain('scroll threads down');
		worked('threadsDown', state, step(state, 'threadsDown', scrolls));
	});
});

describe('a terminal too small to draw the dashboard', () => {
	const modes: readonly (readonly [string, DashboardState])[] = [
		['the dashboard', initialState()],
		['its help', {...initialState(), help: true}],
		['the pause question', {...initialState(), asking: 'pause'}],
	];

	for (const [mode, state] of modes) {
		test(`under ${mode}, only its ways out work: q quits, Esc goes back to the fleet (when there is one); nothing else acts`, () => {
			for (const given of [ALL, {...ALL, back: false}]) {
				const env = envOf({tooSmall: true, given});
				const keys = availability(state, env);
				expect([...keys.works].sort()).toEqual(given.back ? ['quit', 'toFleet'] : ['quit']);
				expect(keys.refused.size).toBe(0);
				for (const binding of SCREEN_KEYMAP.bindings) {
					for (const spec of binding.keys) {
						const {input, key} = press(spec);
						const after = reduce(state, {type: 'key', input, key}, env);
						const wayOut = SCREEN_KEYMAP.commandFor(input, key, 'dashboard', keys.works);
						if (wayOut === null) {
							expect(after.state, `${binding.command} ${JSON.stringify(spec)}`).toBe(state);
							expect(after.effects).toEqual([]);
						} else {
							expect(after.effects).toEqual([wayOut]);
						}
					}
				}
			}
		});
	}
});

describe('the pause question', () => {
	test("its answers are y and n; the dashboard's keys are a no (c does not open the config view)", () => {
		const env = envOf();
		const asked = step(initialState(), 'pause', env).state;
		expect(footerWords(asked, env)).toEqual(['yes', 'no']);
		const other = step(asked, 'config', env);
		expect(other.effects).toEqual([]);
		expect(other.state.message?.text).toBe('not paused: mining goes on');
		expect(step(asked, 'yes', env, 'question').effects).toEqual(['pause']);
	});
});
