/**
 * The one keymap: each binding names a command, the keys that trigger it, the words shown for it,
 * and the screens where it applies. Key handling (`commandFor`) and the footer/help text
 * (`footerHints`, `helpEntries`) both read this table, so they can never disagree.
 */
import type {Key} from 'ink';

export type Screen = 'dashboard' | 'help';

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
	| 'refresh';

/** The special keys a binding can use (names of Ink's `Key` flags). */
export type SpecialKey = 'upArrow' | 'downArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'escape' | 'return';

export type KeySpec =
	/** A printed character, case-sensitive ('R' is Shift+r). With `ctrl`, the letter of a Ctrl chord. */
	| {readonly input: string; readonly ctrl?: boolean}
	| {readonly special: SpecialKey};

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
export type KeyLike = Partial<Pick<Key, SpecialKey | 'ctrl' | 'meta'>>;

const both: readonly Screen[] = ['dashboard', 'help'];
const dashboard: readonly Screen[] = ['dashboard'];

// Refresh is on R only: Ink 6.8's useInput reports F5 with an empty input and no Key flag, so
// a function key cannot be told apart from other unnamed keys.
export const KEYMAP: readonly Binding[] = [
	{command: 'quit', keys: [{input: 'q'}, {input: 'c', ctrl: true}], keyLabel: 'q, Ctrl+C', description: 'quit rigtop', screens: both, footer: {keys: 'q', label: 'quit'}},
	{command: 'help', keys: [{input: '?'}], keyLabel: '?', description: 'show or hide this help', screens: both, footer: {keys: '?', label: 'help'}},
	{command: 'back', keys: [{special: 'escape'}], keyLabel: 'Esc', description: 'close this help', screens: ['help'], footer: {keys: 'Esc', label: 'close'}},
	{command: 'config', keys: [{input: 'c'}], keyLabel: 'c', description: "view and edit the miner's config", screens: dashboard, footer: {keys: 'c', label: 'config'}},
	{command: 'pause', keys: [{input: 'p'}], keyLabel: 'p', description: 'pause mining', screens: dashboard, footer: {keys: 'p', label: 'pause'}},
	{command: 'resume', keys: [{input: 'r'}], keyLabel: 'r', description: 'resume mining', screens: dashboard, footer: {keys: 'r', label: 'resume'}},
	{command: 'refresh', keys: [{input: 'R'}], keyLabel: 'R', description: 'poll the miner now', screens: dashboard, footer: {keys: 'R', label: 'refresh'}},
	{command: 'threadsUp', keys: [{special: 'upArrow'}, {input: 'k'}], keyLabel: '↑, k', description: 'scroll threads up', screens: dashboard, footer: {keys: '↑↓', label: 'threads'}},
	{command: 'threadsDown', keys: [{special: 'downArrow'}, {input: 'j'}], keyLabel: '↓, j', description: 'scroll threads down', screens: dashboard, footer: null},
	{command: 'pageUp', keys: [{special: 'pageUp'}], keyLabel: 'PgUp', description: 'threads: one page up', screens: dashboard, footer: null},
	{command: 'pageDown', keys: [{special: 'pageDown'}], keyLabel: 'PgDn', description: 'threads: one page down', screens: dashboard, footer: null},
	{command: 'threadsTop', keys: [{special: 'home'}, {input: 'g'}], keyLabel: 'Home, g', description: 'threads: first row', screens: dashboard, footer: null},
	{command: 'threadsBottom', keys: [{special: 'end'}, {input: 'G'}], keyLabel: 'End, G', description: 'threads: last row', screens: dashboard, footer: null},
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

/** Every dashboard binding for the help overlay, marking the ones this session cannot use. */
export function helpEntries(available: ReadonlySet<CommandName>): readonly HelpEntry[] {
	return KEYMAP.map((binding) => ({keys: binding.keyLabel, description: binding.description, available: available.has(binding.command)}));
}
