import {Text} from 'ink';
import {render} from '../helpers/ink-testing.js';
import {useEffect} from 'react';
import {describe, expect, test, vi} from 'vitest';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../../source/ui/keys/bindings.js';
import type {Capability} from '../../../source/ui/keys/matcher.js';
import {
	commandOf,
	decide,
	footerOf,
	helpOf,
	keyAction,
	pasteAction,
	useScreen,
	type Availability,
	type KeyAction,
	type PasteAction,
	type ScreenDefinition,
	type ScreenLogic,
} from '../../../source/ui/screens/contract.js';

const offered = new Set<Capability>(['config', 'pause', 'threads']);

describe('decide', () => {
	test('a key that needs nothing works; one whose need is offered works; one not offered is in neither set', () => {
		const availability = decide(SCREEN_KEYMAP, 'dashboard', offered);
		expect(availability.works.has('quit')).toBe(true);
		expect(availability.works.has('config')).toBe(true);
		expect(availability.works.has('pause')).toBe(true);
		expect(availability.works.has('resume')).toBe(false);
		expect(availability.refused.has('resume')).toBe(false);
	});

	test('a refused capability refuses every command that needs it, with the reason; a refused command too', () => {
		const availability = decide(
			SCREEN_KEYMAP,
			'dashboard',
			offered,
			new Map<Capability | CommandName, string>([
				['pause', 'read-only'],
				['quit', 'not now'],
			]),
		);
		expect(availability.works.has('pause')).toBe(false);
		expect(availability.refused.get('pause')).toBe('read-only');
		expect(availability.refused.get('quit')).toBe('not now');
	});
});

describe('commandOf', () => {
	const availability = decide(SCREEN_KEYMAP, 'dashboard', offered, new Map([['pause', 'the miner is paused already']]));

	test('a working key gives its command, a refused one its reason, any other nothing', () => {
		expect(commandOf(SCREEN_KEYMAP, availability, 'q', {})).toEqual({command: 'quit'});
		expect(commandOf(SCREEN_KEYMAP, availability, 'p', {})).toEqual({refused: 'the miner is paused already'});
		// r (resume) is not offered: nothing, silently.
		expect(commandOf(SCREEN_KEYMAP, availability, 'r', {})).toBeNull();
		expect(commandOf(SCREEN_KEYMAP, availability, 'Z', {})).toBeNull();
	});
});

describe('footer and help read the same availability', () => {
	test('the footer shows only what works; the help marks the rest unavailable', () => {
		const availability = decide(SCREEN_KEYMAP, 'dashboard', offered, new Map([['pause', 'no']]));
		const footer = footerOf(SCREEN_KEYMAP, availability).map((hint) => hint.label);
		expect(footer).toContain('quit');
		expect(footer).toContain('config');
		expect(footer).not.toContain('pause');
		const help = helpOf(SCREEN_KEYMAP, ['dashboard'], availability);
		expect(help.find((entry) => entry.description.startsWith('pause'))?.available).toBe(false);
		expect(help.find((entry) => entry.description === 'quit rigtop')).toEqual({
			keys: 'q, F10, Ctrl+C',
			description: 'quit rigtop',
			available: true,
		});
	});
});

describe('unlisted: works, but the footer leaves it to the help', () => {
	test('footerOf omits an unlisted command; it still works when pressed and the help marks it available', () => {
		const decided = decide(SCREEN_KEYMAP, 'dashboard', offered);
		const availability: Availability<CommandName, Screen> = {...decided, unlisted: new Set<CommandName>(['config'])};
		const footer = footerOf(SCREEN_KEYMAP, availability).map((hint) => hint.label);
		expect(footerOf(SCREEN_KEYMAP, decided).map((hint) => hint.label)).toContain('config');
		expect(footer).not.toContain('config');
		expect(footer).toContain('quit');
		expect(commandOf(SCREEN_KEYMAP, availability, 'c', {})).toEqual({command: 'config'});
		expect(helpOf(SCREEN_KEYMAP, ['dashboard'], availability).find((entry) => entry.keys === 'c')?.available).toBe(true);
	});
});

type CountEnv = {readonly step: number};
type CountState = {readonly total: number};
const counter: ScreenLogic<CountState, 'add', CountEnv, 'added', CommandName, Screen> = {
	reduce: (state, _action, env) => ({state: {total: state.total + env.step}, effects: ['added']}),
	availability: (): Availability<CommandName, Screen> => decide(SCREEN_KEYMAP, 'dashboard', new Set()),
};

describe('useScreen', () => {
	test('each dispatch is reduced with the env of the latest render, and its effects run once', async () => {
		const effects: string[] = [];
		let add: (() => void) | undefined;
		function Counter({step}: {readonly step: number}) {
			// The env is memoized by the view in real screens; here a new object each render is fine (reduce reads it at once).
			const {state, dispatch} = useScreen(
				counter,
				() => ({total: 0}),
				{step},
				(effect) => {
					effects.push(effect);
				},
			);
			useEffect(() => {
				add = () => {
					dispatch('add');
				};
			}, [dispatch]);
			return <Text>total {state.total}</Text>;
		}

		const view = render(<Counter step={1} />);
		add?.();
		// Ink draws the new state on its own schedule: one turn of the loop is not always enough under load.
		await vi.waitFor(() => expect(view.lastFrame()).toBe('total 1'));
		view.rerender(<Counter step={10} />);
		add?.();
		await vi.waitFor(() => expect(view.lastFrame()).toBe('total 11'));
		expect(effects).toEqual(['added', 'added']);
		view.unmount();
	});

	test('an effect answered by what ran it (a refusal) comes back as an action, reduced at once', async () => {
		type Asked = {readonly told: string | null};
		const asking: ScreenLogic<Asked, 'ask' | 'no', Record<string, never>, 'asked', CommandName, Screen> = {
			reduce: (state, action) => (action === 'ask' ? {state, effects: ['asked']} : {state: {told: 'refused'}, effects: []}),
			availability: (): Availability<CommandName, Screen> => decide(SCREEN_KEYMAP, 'dashboard', new Set()),
		};
		const ran: string[] = [];
		let ask: (() => void) | undefined;
		const env = {};
		function Asker() {
			const {state, dispatch} = useScreen(
				asking,
				() => ({told: null}),
				env,
				(effect): 'ask' | 'no' => {
					ran.push(effect);
					return 'no';
				},
			);
			useEffect(() => {
				ask = () => {
					dispatch('ask');
				};
			}, [dispatch]);
			return <Text>told {state.told ?? 'nothing'}</Text>;
		}

		const view = render(<Asker />);
		ask?.();
		await new Promise((resolve) => setImmediate(resolve));
		expect(view.lastFrame()).toBe('told refused');
		expect(ran).toEqual(['asked']);
		view.unmount();
	});
});

describe('useScreen given the keymap', () => {
	type Typed = {readonly typed: string};
	type TypedAction = KeyAction | PasteAction;
	const typing: ScreenDefinition<Typed, TypedAction, {readonly rigs: number}, never, CommandName, Screen, number> = {
		reduce: (state, action) => ({state: {typed: state.typed + (action.type === 'key' ? action.input : `[${action.text}]`)}, effects: []}),
		availability: (): Availability<CommandName, Screen> => decide(SCREEN_KEYMAP, 'events', new Set()),
		keymap: SCREEN_KEYMAP,
		help: (rigs) => [{keys: 'x', description: `${rigs} rigs`, available: true}],
		key: keyAction,
		paste: pasteAction,
	};
	const env = {rigs: 2};

	test('installs the keys (one action a key, a run typed at once too, a paste apart) and returns the footer and the help', async () => {
		function Typing({rigs}: {readonly rigs: number}) {
			const {state, footer, help} = useScreen(
				typing,
				() => ({typed: ''}),
				env,
				() => {},
				rigs,
			);
			return (
				<Text>
					{`typed ${state.typed} · ${footer.map((hint) => hint.label).join(',')} · ${help.map((entry) => entry.description).join(',')}`}
				</Text>
			);
		}

		const view = render(<Typing rigs={3} />);
		const footer = footerOf(SCREEN_KEYMAP, decide(SCREEN_KEYMAP, 'events', new Set()))
			.map((hint) => hint.label)
			.join(',');
		expect(view.lastFrame()).toBe(`typed  · ${footer} · 3 rigs`);
		await new Promise((resolve) => setImmediate(resolve));
		view.stdin.write('jk');
		await vi.waitFor(() => expect(view.lastFrame()).toContain('typed jk '));
		view.stdin.write('\u001B[200~pasted\u001B[201~');
		await vi.waitFor(() => expect(view.lastFrame()).toContain('typed jk[pasted] '));
		view.rerender(<Typing rigs={4} />);
		await vi.waitFor(() => expect(view.lastFrame()).toContain('· 4 rigs'));
		view.unmount();
	});
});
