/**
 * The one contract every screen keeps. A screen is a folder, `source/ui/screens/<name>/`, holding:
 *
 * - **`reduce(state, action, env)`**, pure: the screen's own state (selection, scroll, mode, help…) and nothing else.
 *   Everything it reads but does not own — the miner's state, the terminal's size, the clock, the rows on screen,
 *   what the app gave it — is its `Env`, passed at each dispatch (never copied into state by an effect, never riding
 *   in a key action). What reaches outside the screen (quit, open a rig, pause, apply, save a preference) is an
 *   effect of the step, run by the view's `run`: nothing is pushed back up through React effects. What answers an
 *   effect (a refusal to show) comes back as an action `run` returns, reduced at once.
 * - **`availability(state, env)`**: for each command of the context the keys are read in now, whether it works, is
 *   refused (its key then says why, in one line), or is not offered at all (the screen was not given it). It is the
 *   one source of the footer (`footerOf`), the `?` help (`helpOf`) and the key handler (`commandOf`): a key the
 *   footer offers works, and a key that does nothing says why or is not listed.
 * - **a view** (`view.tsx`) that reads stores with `useStore`, builds its `Env` (memoized), calls `useScreen` (which
 *   reads its keys and gives its footer and help) and draws: an env hook and a layout component. It does no I/O: the
 *   history it shows comes from stores (history/stores.ts), never from SQLite. A view that
 *   draws part of a store (a span of the chart, the sparkline's width) says which from an effect with the store's
 *   `request`, as it says it listens with `subscribe`: the store reads then, outside render, and hands its answer out
 *   through `getState`; a request already answered reads nothing.
 *
 * The clock: the App provides one `FixedNowContext` (its `now` prop, for tests and screenshots); a screen reads
 * the time with `useNow` and passes it in its env. Only the dashboard's freeze (`f`) nests a provider of its own.
 */
import {useCallback, useLayoutEffect, useMemo, useRef} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import {useStepReducer, type Step} from '../hooks/use-step-reducer.js';
import {keysLabel, type Capability, type HelpEntry, type Hint, type KeyLike, type Keymap} from '../keys/matcher.js';

/** Which commands of a context work now, and why each refused one does not (not offered: in neither). */
export type Availability<Command extends string, Context extends string> = {
	/** The context the keys are read in now: a screen, or one of its modes (help, a question, typing). */
	readonly context: Context;
	readonly works: ReadonlySet<Command>;
	/** One line for the user who presses the key anyway. */
	readonly refused: ReadonlyMap<Command, string>;
	/**
	 * Commands that work (they are in `works`) but the footer leaves to the help now: it has room for what matters at
	 * the moment. They work when pressed and the help marks them available; only the footer omits them.
	 */
	readonly unlisted?: ReadonlySet<Command>;
};

/** The commands that leave a screen: quit, and back to the fleet where it came from one. */
const WAYS_OUT: ReadonlySet<string> = new Set(['quit', 'toFleet']);

/**
 * `keys` in a terminal too small to draw the screen: only its ways out work (any other key would act out of sight: p
 * and then y paused the miner with no question on screen), and nothing is refused aloud.
 */
export function onlyWaysOut<Command extends string, Context extends string>(
	keys: Availability<Command, Context>,
): Availability<Command, Context> {
	return {context: keys.context, works: new Set([...keys.works].filter((command) => WAYS_OUT.has(command))), refused: new Map()};
}

/** A screen's pure half: what `useScreen` drives. */
export type ScreenLogic<State, Action, Env, Effect, Command extends string, Context extends string> = {
	readonly reduce: (state: State, action: Action, env: Env) => Step<State, Effect>;
	readonly availability: (state: State, env: Env) => Availability<Command, Context>;
};

/**
 * The availability of a context from what the screen offers (`offered`, the capabilities a binding's `needs` can
 * name) and what is refused now with a reason (`refused`, by capability or by command). A command whose binding needs
 * nothing works unless refused; one whose need is neither offered nor refused is not offered.
 */
export function decide<Command extends string, Context extends string>(
	keymap: Keymap<Command, Context>,
	context: Context,
	offered: ReadonlySet<Capability>,
	refused: ReadonlyMap<Capability | Command, string> = new Map(),
): Availability<Command, Context> {
	const works = new Set<Command>();
	const why = new Map<Command, string>();
	for (const binding of keymap.bindings) {
		if (!binding.contexts.includes(context)) continue;
		const reason = refused.get(binding.command) ?? (binding.needs === undefined ? undefined : refused.get(binding.needs));
		if (reason !== undefined) why.set(binding.command, reason);
		else if (binding.needs === undefined || offered.has(binding.needs)) works.add(binding.command);
	}

	return {context, works, refused: why};
}

/** What a keypress does: a command that works, a refusal to show, or nothing. */
export type KeyOutcome<Command extends string> = {readonly command: Command} | {readonly refused: string} | null;

/** The command a keypress means now (the first binding of the context its key matches, as the keymap orders them). */
export function commandOf<Command extends string, Context extends string>(
	keymap: Keymap<Command, Context>,
	availability: Availability<Command, Context>,
	input: string,
	key: KeyLike,
): KeyOutcome<Command> {
	const every = new Set<Command>([...availability.works, ...availability.refused.keys()]);
	const command = keymap.commandFor(input, key, availability.context, every);
	if (command === null) return null;
	const refused = availability.refused.get(command);
	return refused === undefined ? {command} : {refused};
}

/** The footer of what works now, in the keymap's order, but for what the availability leaves to the help. */
export function footerOf<Command extends string, Context extends string>(
	keymap: Keymap<Command, Context>,
	availability: Availability<Command, Context>,
): readonly Hint[] {
	const {works, unlisted} = availability;
	if (unlisted === undefined || unlisted.size === 0) return keymap.footer(availability.context, works);
	return keymap.footer(availability.context, new Set([...works].filter((command) => !unlisted.has(command))));
}

/**
 * The help of these contexts: each key, marked unavailable unless it works now. `words`: what the screen says of a
 * command in place of the keymap's words (a table's `s`: its own columns, from their descriptors).
 */
export function helpOf<Command extends string, Context extends string>(
	keymap: Keymap<Command, Context>,
	contexts: readonly Context[],
	availability: Availability<Command, Context>,
	words: Partial<Record<Command, string>> = {},
): readonly HelpEntry[] {
	return keymap.bindings
		.filter((binding) => contexts.some((context) => binding.contexts.includes(context)))
		.map((binding) => ({
			keys: keysLabel(binding),
			description: words[binding.command] ?? binding.description,
			available: availability.works.has(binding.command),
		}));
}

/** The action a key is, on every screen: the reducer reads the command it means (`commandOf`). */
export type KeyAction = {readonly type: 'key'; readonly input: string; readonly key: KeyLike};
/** The action a paste is, on a screen that types (a line editor types it in). */
export type PasteAction = {readonly type: 'paste'; readonly text: string};

export const keyAction = (input: string, key: KeyLike): KeyAction => ({type: 'key', input, key});
export const pasteAction = (text: string): PasteAction => ({type: 'paste', text});

/**
 * What `useScreen` needs besides the pure half to read a screen's keys and draw their words: the keymap (the footer's
 * labels and the handler's matches), how its `?` help is made, and what a key and a paste are to its reducer.
 */
export type ScreenKeys<Action, Command extends string, Context extends string, HelpFrom> = {
	readonly keymap: Keymap<Command, Context>;
	/** The help's entries, from what the screen says they depend on (`helpFrom`: made again only when it changes). */
	readonly help: (from: HelpFrom) => readonly HelpEntry[];
	readonly key: (input: string, key: KeyLike) => Action;
	/** A paste, for a screen with a line editor; without it a paste is dropped (never read as keys). */
	readonly paste?: (text: string) => Action;
};

/** A screen as `useScreen` drives it: its pure half and its keys. */
export type ScreenDefinition<State, Action, Env, Effect, Command extends string, Context extends string, HelpFrom = void> = ScreenLogic<
	State,
	Action,
	Env,
	Effect,
	Command,
	Context
> &
	ScreenKeys<Action, Command, Context, HelpFrom>;

/** A screen's pure half, with or without its keys (a screen without them reads its keys itself, with `useKeys`). */
type AnyScreen<State, Action, Env, Effect, Command extends string, Context extends string, HelpFrom> = ScreenLogic<
	State,
	Action,
	Env,
	Effect,
	Command,
	Context
> &
	Partial<ScreenKeys<Action, Command, Context, HelpFrom>>;

/** What the keys of a screen do now, and the words they are drawn with. */
export type ScreenKeysNow<Command extends string, Context extends string> = {
	readonly availability: Availability<Command, Context>;
	/** What works now, as the footer says it (footerOf). */
	readonly footer: readonly Hint[];
};

const NO_HINTS: readonly Hint[] = [];
const NO_HELP: readonly HelpEntry[] = [];

/**
 * A screen's state, its dispatch, what its keys do now, its footer and its help; its keys read (useKeys), each reduced
 * at once against the latest state and the `env` of the latest render (useStepReducer holds the state in a ref, and
 * the env is kept in one, both updated in a layout effect: a key read between a frame drawn at a new size and React's
 * passive effects is reduced for the size on screen). `helpFrom` is what the screen's help is made from.
 */
export function useScreen<State, Action, Env, Effect, Command extends string, Context extends string, HelpFrom = void>(
	logic: AnyScreen<State, Action, Env, Effect, Command, Context, HelpFrom>,
	initial: () => State,
	env: Env,
	run: (effect: Effect) => Action | void,
	helpFrom?: HelpFrom,
): ScreenState<State, Action, Env> & ScreenKeysNow<Command, Context> & {readonly help: readonly HelpEntry[]} {
	const screen = useScreenState(logic, initial, run);
	const help = useScreenHelp(logic, helpFrom);
	const keys = useScreenEnv(logic, screen, env);
	return {...screen, ...keys, help};
}

/** A screen's state and dispatch, before its env is known (useScreenState). */
export type ScreenState<State, Action, Env> = {
	readonly state: State;
	readonly dispatch: (action: Action) => void;
	/** Keeps the env of the frame on screen for the next dispatch (useScreenEnv calls it). */
	readonly setEnv: (env: Env) => void;
};

/**
 * useScreen in parts, for a screen whose env depends on its own state (the dashboard's freeze holds the state it
 * shows) or on its help (how far the help scrolls): its state and dispatch first, its help (`useScreenHelp`), then
 * `useScreenEnv` with the env built from them.
 */
export function useScreenState<State, Action, Env, Effect, Command extends string, Context extends string>(
	logic: ScreenLogic<State, Action, Env, Effect, Command, Context>,
	initial: () => State,
	run: (effect: Effect) => Action | void,
): ScreenState<State, Action, Env> {
	const latest = useRef<Env | null>(null);
	const reduce = useCallback(
		(state: State, action: Action) => {
			// Set in the layout effect of the first frame, before any key is read (useKeys subscribes after it).
			if (latest.current === null) return {state, effects: []};
			return logic.reduce(state, action, latest.current);
		},
		[logic],
	);
	const [state, dispatch] = useStepReducer(reduce, initial, run);
	const setEnv = useCallback((env: Env) => {
		latest.current = env;
	}, []);
	return {state, dispatch, setEnv};
}

/** The `?` help's entries, made again only when what they are made from changes (none for a screen without its keys). */
export function useScreenHelp<HelpFrom>(
	logic: {readonly help?: (from: HelpFrom) => readonly HelpEntry[]},
	helpFrom?: HelpFrom,
): readonly HelpEntry[] {
	const makeHelp = logic.help;
	// A screen that says no `helpFrom` makes its help from nothing (its HelpFrom is void).
	return useMemo(() => (makeHelp === undefined ? NO_HELP : makeHelp(helpFrom as HelpFrom)), [makeHelp, helpFrom]);
}

/**
 * The last part: the env of this frame, kept for the next dispatch; what the keys do now and the footer; the keys read
 * (for a screen given its keymap).
 */
export function useScreenEnv<State, Action, Env, Effect, Command extends string, Context extends string, HelpFrom = void>(
	logic: AnyScreen<State, Action, Env, Effect, Command, Context, HelpFrom>,
	screen: ScreenState<State, Action, Env>,
	env: Env,
): ScreenKeysNow<Command, Context> {
	const {state, setEnv, dispatch} = screen;
	useLayoutEffect(() => {
		setEnv(env);
	}, [setEnv, env]);
	const availability = useMemo(() => logic.availability(state, env), [logic, state, env]);
	const {keymap, key, paste} = logic;
	const footer = useMemo(() => (keymap === undefined ? NO_HINTS : footerOf(keymap, availability)), [keymap, availability]);
	const onKey = useCallback(
		(input: string, pressed: KeyLike) => {
			if (key !== undefined) dispatch(key(input, pressed));
		},
		[dispatch, key],
	);
	const onPaste = useCallback(
		(text: string) => {
			if (paste !== undefined) dispatch(paste(text));
		},
		[dispatch, paste],
	);
	// A screen without its keymap here reads its keys itself: nothing is listened to for it.
	useKeys(onKey, {isActive: keymap !== undefined, ...(paste === undefined ? {} : {onPaste})});
	return {availability, footer};
}
