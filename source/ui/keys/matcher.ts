/**
 * How a key is matched and named: the types of a binding, `createKeymap` (the matcher: `commandFor`, `available`,
 * `footer`, `help`, `keyOf`) and `keyName`, the one place a key is spelled. The bindings themselves are data in
 * `bindings.ts`; what people read about the keys (the `rigtop --help` keys, the readme's table) is `reference.ts`.
 * A screen decides which of its keys work now through its `availability` (screens/contract.ts).
 */
import type {Key} from 'ink';

/** The special keys a binding can use (names of Ink's `Key` flags). */
export type SpecialKey =
	| 'upArrow'
	| 'downArrow'
	| 'leftArrow'
	| 'rightArrow'
	| 'pageUp'
	| 'pageDown'
	| 'home'
	| 'end'
	| 'escape'
	| 'return'
	| 'backspace'
	| 'delete';

export type KeySpec =
	/** A printed character, case-sensitive ('R' is Shift+r). With `ctrl`, the letter of a Ctrl chord. */
	| {readonly input: string; readonly ctrl?: boolean}
	| {readonly special: SpecialKey}
	/** A function key: F1 is `{fn: 1}` (read by hooks/use-keys.ts: Ink's useInput does not tell them apart). */
	| {readonly fn: number};

/** The subset of Ink's `Key` the keymap reads (tests can pass just the flags they set), and the function key pressed. */
export type KeyLike = Partial<Pick<Key, SpecialKey | 'ctrl' | 'meta' | 'tab'>> & {readonly fn?: number};

/**
 * What a key may need that a session or a miner does not always offer: the config view (not given to
 * every screen), pause / resume / poll-now actions, a fleet to go back to.
 */
export type Capability =
	| 'config'
	| 'pause'
	| 'resume'
	| 'refresh'
	| 'fleet'
	/** The screen scrolls its help overlay (the dashboard does; the help is taller than small terminals). */
	| 'scrollHelp'
	/** Changing the miner's config (not with --read-only). */
	| 'write'
	/** Changing the session's poll interval live. */
	| 'interval'
	/** The chart (g) and the event view (e): the screen was given the miner's history. */
	| 'chart'
	| 'events'
	/** The threads pane is on screen (a small terminal leaves it out): its scroll keys. */
	| 'threads'
	/** Fleet: some rig is marked (the key that clears the marks); a batch's results longer than their pane (scroll). */
	| 'marks'
	| 'scrollBatch'
	/** Fleet: `c` on the marked rigs (the app gave the fleet config view, and a rig is marked); its diff's `a`; `u` on its results. */
	| 'fleetConfig'
	| 'addKeys'
	| 'batchUndo';

export type Binding<Command extends string, Context extends string> = {
	readonly command: Command;
	readonly keys: readonly KeySpec[];
	/** One line for help and the readme. */
	readonly description: string;
	readonly contexts: readonly Context[];
	/** The footer's word for it ("quit"); without one the footer leaves the key to help. */
	readonly footer?: string;
	/**
	 * 'low': on a footer too short for every hint, given up before the others (moving, sorting, polling now, the
	 * interval: keys a user finds anyway), so the keys that open or change something (c, g, e, p) stay at 80 columns.
	 */
	readonly footerRank?: 'low';
	/** The footer shows this binding's first key with the first key of `footerWith` before the label: "↑↓ threads". */
	readonly footerWith?: Command;
	/** The key works only where this is offered (see `available`). */
	readonly needs?: Capability;
};

/** A footer entry: " q quit"; `low`: given up first when the line is short (the binding's footerRank). */
export type Hint = {readonly keys: string; readonly label: string; readonly low?: boolean};

/** A help line; `available: false` marks a key this session cannot use here. */
export type HelpEntry = {readonly keys: string; readonly description: string; readonly available: boolean};

const SPECIAL_NAMES: Readonly<Record<SpecialKey, string>> = {
	upArrow: '↑',
	downArrow: '↓',
	leftArrow: '←',
	rightArrow: '→',
	pageUp: 'PgUp',
	pageDown: 'PgDn',
	home: 'Home',
	end: 'End',
	escape: 'Esc',
	return: 'Enter',
	backspace: 'Backspace',
	delete: 'Del',
};

/** How a key is written everywhere: "q", "R", "Ctrl+C", "↑", "PgUp", "Esc", "Enter", "Space". */
export function keyName(spec: KeySpec): string {
	if ('special' in spec) return SPECIAL_NAMES[spec.special];
	if ('fn' in spec) return `F${spec.fn}`;
	if (spec.ctrl === true) return `Ctrl+${spec.input.toUpperCase()}`;
	return spec.input === ' ' ? 'Space' : spec.input;
}

/** Every key of a binding: "q, Ctrl+C". */
export function keysLabel(binding: {readonly keys: readonly KeySpec[]}): string {
	return binding.keys.map((spec) => keyName(spec)).join(', ');
}

export function matches(spec: KeySpec, input: string, key: KeyLike): boolean {
	if ('special' in spec) return key[spec.special] === true;
	if ('fn' in spec) return key.fn === spec.fn;
	if (spec.ctrl === true) return key.ctrl === true && input.toLowerCase() === spec.input;
	return key.ctrl !== true && input === spec.input;
}

export type Keymap<Command extends string, Context extends string> = {
	readonly bindings: readonly Binding<Command, Context>[];
	/** The command a keypress means in a context, or null. Commands not in `available` are ignored. */
	commandFor(input: string, key: KeyLike, context: Context, available: ReadonlySet<Command>): Command | null;
	/** The commands of a context whose needs `offered` meets. */
	available(context: Context, offered?: ReadonlySet<Capability>): ReadonlySet<Command>;
	/** The footer of a context: the hints of the shown commands that have a footer word, in table order. */
	footer(context: Context, shown: ReadonlySet<Command>): readonly Hint[];
	/** Help for the bindings of these contexts, in table order, marking the ones whose needs `offered` does not meet. */
	help(contexts: readonly Context[], offered?: ReadonlySet<Capability>): readonly HelpEntry[];
	/** The first key of a command in a context, as written in the footer ("Enter"), for hints in running text. */
	keyOf(command: Command, context: Context): string;
};

export function createKeymap<Command extends string, Context extends string>(
	bindings: readonly Binding<Command, Context>[],
): Keymap<Command, Context> {
	const on = (context: Context) => bindings.filter((binding) => binding.contexts.includes(context));
	const first = (binding: Binding<Command, Context> | undefined) => (binding?.keys[0] ? keyName(binding.keys[0]) : '');
	const find = (command: Command, context: Context) => on(context).find((binding) => binding.command === command);
	const usable = (binding: Binding<Command, Context>, offered: ReadonlySet<Capability>) =>
		binding.needs === undefined || offered.has(binding.needs);
	return {
		bindings,
		commandFor(input, key, context, available) {
			for (const binding of on(context)) {
				if (!available.has(binding.command)) continue;
				if (binding.keys.some((spec) => matches(spec, input, key))) return binding.command;
			}

			return null;
		},
		available(context, offered = new Set()) {
			return new Set(
				on(context)
					.filter((binding) => usable(binding, offered))
					.map((binding) => binding.command),
			);
		},
		footer(context, shown) {
			const hints: Hint[] = [];
			for (const binding of on(context)) {
				if (binding.footer === undefined || !shown.has(binding.command)) continue;
				const paired = binding.footerWith === undefined ? '' : first(find(binding.footerWith, context));
				hints.push({keys: first(binding) + paired, label: binding.footer, ...(binding.footerRank === 'low' ? {low: true} : {})});
			}

			return hints;
		},
		help(contexts, offered = new Set()) {
			return bindings
				.filter((binding) => contexts.some((context) => binding.contexts.includes(context)))
				.map((binding) => ({keys: keysLabel(binding), description: binding.description, available: usable(binding, offered)}));
		},
		keyOf(command, context) {
			return first(find(command, context));
		},
	};
}
