/**
 * The one keymap: each binding names a command, the keys that trigger it, the words shown for it,
 * and the screens where it applies. Key handling (`commandFor`) and the footer/help text
 * (`footerHints`, `helpEntries`) both read this table, so they can never disagree.
 */
import type {Key} from 'ink';

/** 'fleet' is the many-miners table; 'help' is the help overlay over either. */
export type Screen = 'dashboard' | 'help' | 'fleet';

export type CommandName =
	| 'quit'
	| 'help'
	| 'back'
	| 'threadsUp'
	| 'threadsDown'
	| 'pageUp'
	| 'pageDown'
	| 'threadsTop'
	| 'threadsBottom'
	| 'config'
	| 'pause'
	| 'resume'
	| 'refresh'
	/** Fleet: move the selection, open the selected rig; dashboard: back to the fleet. */
	| 'fleetUp'
	| 'fleetDown'
	| 'fleetPageUp'
	| 'fleetPageDown'
	| 'fleetTop'
	| 'fleetBottom'
	| 'open'
	| 'toFleet';

/** The special keys a binding can use (names of Ink's `Key` flags). */
export type SpecialKey =
	'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'escape' | 'return';

export type KeySpec =
	/** A printed character, case-sensitive ('R' is Shift+r). With `ctrl`, the letter of a Ctrl chord. */
	{readonly input: string; readonly ctrl?: boolean} | {readonly special: SpecialKey};

export type Binding = {
	readonly command: CommandName;
	readonly keys: readonly KeySpec[];
	/** How the keys are written in help: "q, Ctrl+C". */
	readonly keyLabel: string;
	/** One line for the help overlay. */
	readonly description: string;
	readonly screens: readonly Screen[];
	/** Shown in the footer as `keys label`, or null when the footer leaves it to help. */
	readonly footer: {readonly keys: string; readonly label: string} | null;
};

/** The subset of Ink's `Key` the keymap reads (tests can pass just the flags they set). */
export type KeyLike = Partial<Pick<Key, SpecialKey | 'ctrl' | 'meta' | 'tab' | 'backspace' | 'delete'>>;

const both: readonly Screen[] = ['dashboard', 'help', 'fleet'];
const dashboard: readonly Screen[] = ['dashboard'];
const fleet: readonly Screen[] = ['fleet'];

// Refresh is on R only: Ink's useInput reports F5 with an empty input and no Key flag, so
// a function key cannot be told apart from other unnamed keys.
export const KEYMAP: readonly Binding[] = [
	{
		command: 'quit',
		keys: [{input: 'q'}, {input: 'c', ctrl: true}],
		keyLabel: 'q, Ctrl+C',
		description: 'quit rigtop',
		screens: both,
		footer: {keys: 'q', label: 'quit'},
	},
	{
		command: 'help',
		keys: [{input: '?'}],
		keyLabel: '?',
		description: 'show or hide this help',
		screens: both,
		footer: {keys: '?', label: 'help'},
	},
	{
		command: 'back',
		keys: [{special: 'escape'}],
		keyLabel: 'Esc',
		description: 'close this help',
		screens: ['help'],
		footer: {keys: 'Esc', label: 'close'},
	},
	{
		command: 'config',
		keys: [{input: 'c'}],
		keyLabel: 'c',
		description: "view and edit the miner's config",
		screens: dashboard,
		footer: {keys: 'c', label: 'config'},
	},
	{
		command: 'pause',
		keys: [{input: 'p'}],
		keyLabel: 'p',
		description: 'pause mining',
		screens: dashboard,
		footer: {keys: 'p', label: 'pause'},
	},
	{
		command: 'resume',
		keys: [{input: 'r'}],
		keyLabel: 'r',
		description: 'resume mining',
		screens: dashboard,
		footer: {keys: 'r', label: 'resume'},
	},
	{
		command: 'refresh',
		keys: [{input: 'R'}],
		keyLabel: 'R',
		description: 'poll the miner now',
		screens: dashboard,
		footer: {keys: 'R', label: 'refresh'},
	},
	{
		command: 'threadsUp',
		keys: [{special: 'upArrow'}, {input: 'k'}],
		keyLabel: '↑, k',
		description: 'scroll threads up',
		screens: dashboard,
		footer: {keys: '↑↓', label: 'threads'},
	},
	{
		command: 'threadsDown',
		keys: [{special: 'downArrow'}, {input: 'j'}],
		keyLabel: '↓, j',
		description: 'scroll threads down',
		screens: dashboard,
		footer: null,
	},
	{command: 'pageUp', keys: [{special: 'pageUp'}], keyLabel: 'PgUp', description: 'threads: one page up', screens: dashboard, footer: null},
	{
		command: 'pageDown',
		keys: [{special: 'pageDown'}],
		keyLabel: 'PgDn',
		description: 'threads: one page down',
		screens: dashboard,
		footer: null,
	},
	{
		command: 'threadsTop',
		keys: [{special: 'home'}, {input: 'g'}],
		keyLabel: 'Home, g',
		description: 'threads: first row',
		screens: dashboard,
		footer: null,
	},
	{
		command: 'threadsBottom',
		keys: [{special: 'end'}, {input: 'G'}],
		keyLabel: 'End, G',
		description: 'threads: last row',
		screens: dashboard,
		footer: null,
	},
	{
		command: 'toFleet',
		keys: [{special: 'escape'}],
		keyLabel: 'Esc',
		description: 'back to the fleet (all rigs)',
		screens: dashboard,
		footer: {keys: 'Esc', label: 'fleet'},
	},
	{
		command: 'fleetUp',
		keys: [{special: 'upArrow'}, {input: 'k'}],
		keyLabel: '↑, k',
		description: 'select the rig above',
		screens: fleet,
		footer: {keys: '↑↓', label: 'select'},
	},
	{
		command: 'fleetDown',
		keys: [{special: 'downArrow'}, {input: 'j'}],
		keyLabel: '↓, j',
		description: 'select the rig below',
		screens: fleet,
		footer: null,
	},
	{
		command: 'open',
		keys: [{special: 'return'}],
		keyLabel: 'Enter',
		description: "open the selected rig's dashboard",
		screens: fleet,
		footer: {keys: 'Enter', label: 'open'},
	},
	{command: 'fleetPageUp', keys: [{special: 'pageUp'}], keyLabel: 'PgUp', description: 'rigs: one page up', screens: fleet, footer: null},
	{
		command: 'fleetPageDown',
		keys: [{special: 'pageDown'}],
		keyLabel: 'PgDn',
		description: 'rigs: one page down',
		screens: fleet,
		footer: null,
	},
	{
		command: 'fleetTop',
		keys: [{special: 'home'}, {input: 'g'}],
		keyLabel: 'Home, g',
		description: 'rigs: first one',
		screens: fleet,
		footer: null,
	},
	{
		command: 'fleetBottom',
		keys: [{special: 'end'}, {input: 'G'}],
		keyLabel: 'End, G',
		description: 'rigs: last one',
		screens: fleet,
		footer: null,
	},
];

function matches(spec: KeySpec, input: string, key: KeyLike): boolean {
	if ('special' in spec) return key[spec.special] === true;
	if (spec.ctrl === true) return key.ctrl === true && input.toLowerCase() === spec.input;
	return key.ctrl !== true && input === spec.input;
}

/**
 * The command a keypress means on a screen, or null. Commands not in `available` are ignored
 * (e.g. pause when the app gave no pause action).
 */
export function commandFor(input: string, key: KeyLike, screen: Screen, available: ReadonlySet<CommandName>): CommandName | null {
	for (const binding of KEYMAP) {
		if (!binding.screens.includes(screen) || !available.has(binding.command)) continue;
		if (binding.keys.some((spec) => matches(spec, input, key))) return binding.command;
	}

	return null;
}

export type Hint = {readonly keys: string; readonly label: string};

/** The footer for a screen: the hints of the bindings that are available and shown there. */
export function footerHints(screen: Screen, shown: ReadonlySet<CommandName>): readonly Hint[] {
	const hints: Hint[] = [];
	for (const binding of KEYMAP) {
		if (binding.footer && binding.screens.includes(screen) && shown.has(binding.command)) hints.push(binding.footer);
	}

	return hints;
}

export type HelpEntry = {readonly keys: string; readonly description: string; readonly available: boolean};

/**
 * The bindings for the help overlay, marking the ones this session cannot use: with a screen, those
 * of that screen and of the help overlay itself; without one, every binding.
 */
export function helpEntries(available: ReadonlySet<CommandName>, screen?: Exclude<Screen, 'help'>): readonly HelpEntry[] {
	const bindings =
		screen === undefined ? KEYMAP : KEYMAP.filter((binding) => binding.screens.includes(screen) || binding.screens.includes('help'));
	return bindings.map((binding) => ({keys: binding.keyLabel, description: binding.description, available: available.has(binding.command)}));
}

// ---- The config view -------------------------------------------------------------------------
// A second table in the same place, for the config view: its key handling (config-reducer.ts) and its
// footer read this one table too. Its keys depend on the view's mode: browsing the tree, typing in a
// prompt (search or an inline edit), answering a y/n question, or reading a panel.

export type ConfigMode = 'browse' | 'prompt' | 'confirm' | 'panel';

export type ConfigCommandName =
	| 'up'
	| 'down'
	| 'pageUp'
	| 'pageDown'
	| 'top'
	| 'bottom'
	| 'open'
	| 'close'
	| 'activate'
	| 'toggle'
	| 'increment'
	| 'decrement'
	| 'search'
	| 'nextMatch'
	| 'diff'
	| 'apply'
	| 'undo'
	| 'discard'
	| 'reload'
	| 'back'
	| 'submit'
	| 'cancel'
	| 'yes'
	| 'no'
	| 'dismiss';

export type ConfigBinding = {
	readonly command: ConfigCommandName;
	readonly keys: readonly KeySpec[];
	readonly keyLabel: string;
	readonly description: string;
	readonly modes: readonly ConfigMode[];
	readonly footer: {readonly keys: string; readonly label: string} | null;
};

const browse: readonly ConfigMode[] = ['browse'];

export const CONFIG_KEYMAP: readonly ConfigBinding[] = [
	{command: 'up', keys: [{special: 'upArrow'}, {input: 'k'}], keyLabel: '↑, k', description: 'move up', modes: browse, footer: null},
	{command: 'down', keys: [{special: 'downArrow'}, {input: 'j'}], keyLabel: '↓, j', description: 'move down', modes: browse, footer: null},
	{command: 'pageUp', keys: [{special: 'pageUp'}], keyLabel: 'PgUp', description: 'one page up', modes: browse, footer: null},
	{command: 'pageDown', keys: [{special: 'pageDown'}], keyLabel: 'PgDn', description: 'one page down', modes: browse, footer: null},
	{command: 'top', keys: [{special: 'home'}, {input: 'g'}], keyLabel: 'Home, g', description: 'first key', modes: browse, footer: null},
	{command: 'bottom', keys: [{special: 'end'}, {input: 'G'}], keyLabel: 'End, G', description: 'last key', modes: browse, footer: null},
	{
		command: 'open',
		keys: [{special: 'rightArrow'}, {input: 'l'}],
		keyLabel: '→, l',
		description: 'open a section or list item',
		modes: browse,
		footer: null,
	},
	{
		command: 'close',
		keys: [{special: 'leftArrow'}, {input: 'h'}],
		keyLabel: '←, h',
		description: 'close a section (or go to the one around)',
		modes: browse,
		footer: null,
	},
	{
		command: 'search',
		keys: [{input: '/'}],
		keyLabel: '/',
		description: 'find a key by its dotted path (cpu.huge-pages, pools.0.tls)',
		modes: browse,
		footer: {keys: '/', label: 'search'},
	},
	{command: 'nextMatch', keys: [{input: 'n'}], keyLabel: 'n', description: 'next key matching the search', modes: browse, footer: null},
	{
		command: 'toggle',
		keys: [{input: ' '}],
		keyLabel: 'Space',
		description: 'toggle a boolean, or the next of a set of values',
		modes: browse,
		footer: {keys: 'Space', label: 'toggle'},
	},
	{
		command: 'activate',
		keys: [{special: 'return'}],
		keyLabel: 'Enter',
		description: 'edit a value (or open a section)',
		modes: browse,
		footer: {keys: 'Enter', label: 'edit'},
	},
	{command: 'increment', keys: [{input: '+'}, {input: '='}], keyLabel: '+', description: 'number one up', modes: browse, footer: null},
	{command: 'decrement', keys: [{input: '-'}], keyLabel: '-', description: 'number one down', modes: browse, footer: null},
	{
		command: 'diff',
		keys: [{input: 'd'}],
		keyLabel: 'd',
		description: 'show every pending change (before → after)',
		modes: browse,
		footer: {keys: 'd', label: 'diff'},
	},
	{
		command: 'apply',
		keys: [{input: 'w'}],
		keyLabel: 'w',
		description: 'apply the changes to the miner (asks first)',
		modes: browse,
		footer: {keys: 'w', label: 'apply'},
	},
	{
		command: 'undo',
		keys: [{input: 'u'}],
		keyLabel: 'u',
		description: 'undo the last apply (asks first)',
		modes: ['browse', 'panel'],
		footer: {keys: 'u', label: 'undo'},
	},
	{
		command: 'discard',
		keys: [{input: 'x'}],
		keyLabel: 'x',
		description: 'discard every pending change',
		modes: browse,
		footer: {keys: 'x', label: 'discard'},
	},
	{
		command: 'reload',
		keys: [{input: 'R'}],
		keyLabel: 'R',
		description: 'read the config from the miner again',
		modes: ['browse', 'panel'],
		footer: {keys: 'R', label: 'reload'},
	},
	{
		command: 'back',
		keys: [{special: 'escape'}],
		keyLabel: 'Esc',
		description: 'back to the dashboard',
		modes: browse,
		footer: {keys: 'Esc', label: 'back'},
	},
	{
		command: 'submit',
		keys: [{special: 'return'}],
		keyLabel: 'Enter',
		description: 'accept what was typed',
		modes: ['prompt'],
		footer: {keys: 'Enter', label: 'ok'},
	},
	{
		command: 'cancel',
		keys: [{special: 'escape'}],
		keyLabel: 'Esc',
		description: 'cancel typing',
		modes: ['prompt'],
		footer: {keys: 'Esc', label: 'cancel'},
	},
	{command: 'yes', keys: [{input: 'y'}], keyLabel: 'y', description: 'yes', modes: ['confirm'], footer: {keys: 'y', label: 'yes'}},
	{
		command: 'no',
		keys: [{input: 'n'}, {special: 'escape'}],
		keyLabel: 'n, Esc',
		description: 'no',
		modes: ['confirm'],
		footer: {keys: 'n', label: 'no'},
	},
	{
		command: 'dismiss',
		keys: [{special: 'escape'}, {special: 'return'}, {input: 'q'}],
		keyLabel: 'Esc, Enter',
		description: 'close this panel',
		modes: ['panel'],
		footer: {keys: 'Esc', label: 'close'},
	},
];

/** The config-view command a keypress means in a mode, or null. */
export function configCommandFor(input: string, key: KeyLike, mode: ConfigMode): ConfigCommandName | null {
	for (const binding of CONFIG_KEYMAP) {
		if (!binding.modes.includes(mode)) continue;
		if (binding.keys.some((spec) => matches(spec, input, key))) return binding.command;
	}

	return null;
}

/** The config view's footer in a mode: the hints of the commands shown there, in table order. */
export function configFooterHints(mode: ConfigMode, shown: ReadonlySet<ConfigCommandName>): readonly Hint[] {
	const hints: Hint[] = [];
	for (const binding of CONFIG_KEYMAP) {
		if (binding.footer && binding.modes.includes(mode) && shown.has(binding.command)) hints.push(binding.footer);
	}

	return hints;
}
