/**
 * The keys, as data. Each binding names a command, the keys that trigger it, what it does, the contexts (screens, or a
 * screen's modes) where it works, its footer label and what it needs from the session. Everything a user reads about
 * keys is derived from these tables through the matcher (matcher.ts) and the reference renderers (reference.ts).
 *
 * A new screen adds a context to a table (or a table of its own, built with `createKeymap`); a key that works only
 * where the session or the miner offers something names that capability in `needs`, and the screen's `availability`
 * (screens/contract.ts) says whether it is offered now, or refused and why.
 */
import {createKeymap, matches, type Binding, type Capability, type KeyLike, type KeySpec} from './matcher.js';

// ---- The live screens --------------------------------------------------------------------------

/**
 * 'fleet' is the many-miners table ('fleetFilter' while a filter is typed there); 'help' is the help overlay over any
 * screen; 'question' a y/n question on the dashboard (p); 'chart' the full-screen hashrate chart (`g`); 'events' the
 * full-screen event view (`e`); 'proxy' an xmrig-proxy's screen (its state over its workers' table, typing a filter
 * there is 'fleetFilter' too; 'proxyFiltered' while a filter is in force, where Esc clears it), 'worker' one worker's
 * detail on it (Enter). 'fleetConfig' the marked rigs' config keys
 * (`c` with rigs marked), 'fleetConfigTyping' a search or a value typed there, 'fleetConfigDiff' each rig's diff,
 * 'fleetConfigHelp' its help (where q goes back to the fleet, as in the config view's).
 */
export type Screen =
	| 'dashboard'
	| 'help'
	| 'fleet'
	| 'fleetFilter'
	| 'question'
	| 'chart'
	| 'events'
	| 'proxy'
	| 'proxyFiltered'
	| 'worker'
	| 'fleetBatch'
	| 'fleetResults'
	| 'fleetConfig'
	| 'fleetConfigTyping'
	| 'fleetConfigDiff'
	| 'fleetConfigHelp';

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
	| 'toFleet'
	/** Fleet: sort, filter, poll every rig; typing the filter: keep it, clear it. */
	| 'sort'
	| 'sortReverse'
	| 'filter'
	| 'clearFilter'
	| 'refreshAll'
	| 'filterKeep'
	| 'filterClear'
	/** Fleet: mark rigs for a batch (pause, resume); the batch's progress and results: cancel, scroll, close. */
	| 'mark'
	| 'markShown'
	| 'clearMarks'
	| 'batchCancel'
	| 'batchUp'
	| 'batchDown'
	| 'batchPageUp'
	| 'batchPageDown'
	| 'batchClose'
	/** The fleet config view: find a key, set its value on the marked rigs, add it where it lacks, undo the batch. */
	| 'search'
	| 'nextMatch'
	| 'setValue'
	| 'addKeys'
	| 'batchUndo'
	/** Scroll the help overlay (where the screen offers it). */
	| 'helpUp'
	| 'helpDown'
	/** The answers to a question (pause?). */
	| 'yes'
	| 'no'
	/** The poll interval one step longer (+) or shorter (-), as btop's update interval. */
	| 'slower'
	| 'faster'
	/** Hold the display still (bottom's f) while polling and alerts go on; f again lets it go. */
	| 'freeze'
	/** Dashboard and fleet: open the chart, the event view; there: back to where they were opened from. */
	| 'chart'
	| 'events'
	| 'closeView'
	/** The chart: its span (zoom) and where it ends (back and forth in time). */
	| 'zoomIn'
	| 'zoomOut'
	| 'span'
	| 'older'
	| 'newer'
	| 'latest'
	/** The chart: the next series (hashrate, temperature, clock, power, H/W). */
	| 'series'
	/** The event view: scrolling. */
	| 'eventsUp'
	| 'eventsDown'
	| 'eventsPageUp'
	| 'eventsPageDown'
	| 'eventsNewest'
	| 'eventsOldest'
	/** Ctrl+Z: hand the shell back (fg brings rigtop back), on every screen; hooks/use-keys.ts acts on it. */
	| 'suspend';

const everywhere: readonly Screen[] = ['dashboard', 'help', 'fleet', 'chart', 'events', 'proxy', 'proxyFiltered', 'worker'];
const dashboard: readonly Screen[] = ['dashboard'];
const fleet: readonly Screen[] = ['fleet'];
const fleetConfig: readonly Screen[] = ['fleetConfig'];
const dashboardAndFleet: readonly Screen[] = ['dashboard', 'fleet'];
const chart: readonly Screen[] = ['chart'];
const eventView: readonly Screen[] = ['events'];
const proxy: readonly Screen[] = ['proxy', 'proxyFiltered'];
const proxyAndWorker: readonly Screen[] = [...proxy, 'worker'];

/** Ctrl+Z, as a shell's job control has it: on every screen and in every mode (the terminal's raw mode turns it into a key). */
const SUSPEND_KEYS: readonly KeySpec[] = [{input: 'z', ctrl: true}];
const SUSPEND_DESCRIPTION = 'suspend rigtop (fg in the shell brings it back)';

/** Whether a key is the suspend key (read where every screen reads its keys, hooks/use-keys.ts). */
export function isSuspendKey(input: string, key: KeyLike): boolean {
	return SUSPEND_KEYS.some((spec) => matches(spec, input, key));
}

type ScreenBinding = Binding<CommandName, Screen>;

/** The keys of the moves through lines, in this order: ↑/k, ↓/j, PgUp, PgDn, Home, End/G. */
const MOVE_KEYS: readonly (readonly KeySpec[])[] = [
	[{special: 'upArrow'}, {input: 'k'}],
	[{special: 'downArrow'}, {input: 'j'}],
	[{special: 'pageUp'}],
	[{special: 'pageDown'}],
	[{special: 'home'}],
	[{special: 'end'}, {input: 'G'}],
];

/**
 * The bindings of the moves a screen has, the first of MOVE_KEYS' order (up, down, then the pages, the first and the
 * last line): the threads, a table's rows, the results, the events, the help; each command with what it does.
 * `footer`: the hint the up key gives for both arrows ("select", "scroll"; `low`: given up first on a short line);
 * `needs`: what every one of them needs.
 */
function moveBindings<Command extends string, Context extends string>(
	commands: readonly Command[],
	descriptions: readonly string[],
	contexts: readonly Context[],
	more: {readonly footer?: string; readonly low?: boolean; readonly needs?: Capability} = {},
): Binding<Command, Context>[] {
	const [, down] = commands;
	return commands.map((command, at) => ({
		command,
		keys: MOVE_KEYS[at] ?? [],
		description: descriptions[at] ?? '',
		contexts,
		...(at === 0 && more.footer !== undefined && down !== undefined
			? {footer: more.footer, ...(more.low ? {footerRank: 'low' as const} : {}), footerWith: down}
			: {}),
		...(more.needs ? {needs: more.needs} : {}),
	}));
}

/** `/` finds a config key by its path (`example` says how one is written), `n` the next: the config view's and the fleet's. */
function searchBindings<Context extends string>(example: string, contexts: readonly Context[]): Binding<'search' | 'nextMatch', Context>[] {
	return [
		{
			command: 'search',
			keys: [{input: '/'}],
			description: `find a key by its dotted path (${example})`,
			contexts,
			footer: 'search',
		},
		{command: 'nextMatch', keys: [{input: 'n'}], description: 'next key matching the search', contexts},
	];
}

/**
 * Typing a line (a table's filter, a search or a value): Enter keeps it, Esc clears or cancels it; each with what it
 * does and its footer word. The line edits as in the config view.
 */
function typingBindings(
	contexts: readonly Screen[],
	[keep, keepWord]: readonly [string, string],
	[clear, clearWord]: readonly [string, string],
): ScreenBinding[] {
	return [
		{
			command: 'filterKeep',
			keys: [{special: 'return'}],
			description: `${keep} (it edits as in the config view)`,
			contexts,
			footer: keepWord,
		},
		{command: 'filterClear', keys: [{special: 'escape'}], description: clear, contexts, footer: clearWord},
	];
}

/** `s` sorts by the next column, `I` reverses the sort: each with what it does; `footer`: `s` has its hint ("sort", low). */
function sortBindings(
	[sort, reverse]: readonly [string, string],
	contexts: readonly Screen[],
	more: {readonly footer?: boolean; readonly needs?: Capability},
): ScreenBinding[] {
	const needs = more.needs ? {needs: more.needs} : {};
	return [
		{
			command: 'sort',
			keys: [{input: 's'}],
			description: sort,
			contexts,
			...(more.footer ? {footer: 'sort', footerRank: 'low' as const} : {}),
			...needs,
		},
		{command: 'sortReverse', keys: [{input: 'I'}], description: reverse, contexts, ...needs},
	];
}

/** The moves through a list of `noun`s: ↑/↓ select (the footer's "select"), and the pages, the first and the last one. */
function listMoves(noun: string, contexts: readonly Screen[], low: boolean): {select: ScreenBinding[]; pages: ScreenBinding[]} {
	const moves = moveBindings<CommandName, Screen>(
		['fleetUp', 'fleetDown', 'fleetPageUp', 'fleetPageDown', 'fleetTop', 'fleetBottom'],
		[
			`select the ${noun} above`,
			`select the ${noun} below`,
			...['one page up', 'one page down', 'first one', 'last one'].map((what) => `${noun}s: ${what}`),
		],
		contexts,
		{footer: 'select', low},
	);
	return {select: moves.slice(0, 2), pages: moves.slice(2)};
}

/**
 * A table's `s` key, as the keymap has it. Its help names the table's sortable columns, which only the table knows: the
 * screen's help and the readme's keys table say it from the columns' descriptors (ui/table/sort.ts, `help`).
 */
export const SORT_BY_COLUMN = 'sort by the next column';

/** What a table of `noun`s a user moves through says of itself in its keys' help. */
type ListWords = {
	/** Where the list's keys work. */
	readonly contexts: readonly Screen[];
	/** What Enter opens: "the selected rig's dashboard". */
	readonly open: string;
	/** What `/` matches: "name, URL or pool". */
	readonly filterBy: string;
	/** Where Esc clears the filter in force. */
	readonly clearIn: readonly Screen[];
};

/**
 * One list keymap: a table of `noun`s (the fleet's rigs, a proxy's workers) moves, opens, sorts (`s`, `I`) and filters
 * (`/`, Esc clears) with the same keys and the same words.
 */
function listBindings(noun: string, words: ListWords): ScreenBinding[] {
	const {contexts} = words;
	const {select, pages} = listMoves(noun, contexts, true);
	return [
		...select,
		{command: 'open', keys: [{special: 'return'}], description: `open ${words.open}`, contexts, footer: 'open'},
		...pages,
		...sortBindings([SORT_BY_COLUMN, 'reverse the sort'], contexts, {footer: true}),
		{
			command: 'filter',
			keys: [{input: '/'}],
			description: `show only the ${noun}s whose ${words.filterBy} holds what you type`,
			contexts,
			footer: 'filter',
		},
		{command: 'clearFilter', keys: [{special: 'escape'}], description: 'clear the filter', contexts: words.clearIn, footer: 'clear filter'},
	];
}

/** The fleet config view's list of keys moves as the tables do (it has no Enter to open, no sort, no filter). */
const configMoves = listMoves('key', fleetConfig, false);

// F1 and F10 are htop's help and quit.
export const SCREEN_KEYMAP = createKeymap<CommandName, Screen>([
	{
		command: 'quit',
		keys: [{input: 'q'}, {fn: 10}, {input: 'c', ctrl: true}],
		description: 'quit rigtop',
		contexts: everywhere,
		footer: 'quit',
	},
	// In the fleet config view q goes back to the fleet, as in the config view; F10 and Ctrl+C quit.
	{
		command: 'quit',
		keys: [{fn: 10}, {input: 'c', ctrl: true}],
		description: 'quit rigtop (asks first when a diff is not applied)',
		contexts: ['fleetConfig', 'fleetConfigDiff', 'fleetConfigHelp'],
	},
	{
		command: 'help',
		keys: [{input: '?'}, {fn: 1}],
		description: 'show or hide this help',
		contexts: [...everywhere, 'fleetConfig', 'fleetConfigHelp'],
		footer: 'help',
	},
	{command: 'back', keys: [{special: 'escape'}], description: 'close this help', contexts: ['help', 'fleetConfigHelp'], footer: 'close'},
	...moveBindings<CommandName, Screen>(
		['helpUp', 'helpDown'],
		['scroll this help up', 'scroll this help down'],
		['help', 'fleetConfigHelp'],
		{needs: 'scrollHelp'},
	),
	{
		command: 'config',
		keys: [{input: 'c'}],
		description: "view and edit the miner's config",
		contexts: dashboard,
		footer: 'config',
		needs: 'config',
	},
	{command: 'pause', keys: [{input: 'p'}], description: 'pause mining (asks first)', contexts: dashboard, footer: 'pause', needs: 'pause'},
	{command: 'resume', keys: [{input: 'r'}], description: 'resume mining', contexts: dashboard, footer: 'resume', needs: 'resume'},
	{
		command: 'refresh',
		keys: [{input: 'R'}],
		description: 'poll the miner now',
		contexts: dashboard,
		footer: 'refresh',
		footerRank: 'low',
		needs: 'refresh',
	},
	...moveBindings<CommandName, Screen>(
		['threadsUp', 'threadsDown', 'pageUp', 'pageDown', 'threadsTop', 'threadsBottom'],
		[
			'scroll threads up',
			'scroll threads down',
			'threads: one page up',
			'threads: one page down',
			'threads: first row',
			'threads: last row',
		],
		dashboard,
		{footer: 'threads', low: true, needs: 'threads'},
	),
	// The fleet's sort keys, on the threads table (s and I are free on the dashboard).
	...sortBindings(['threads: sort by the next column: #, 10s, 60s, 15m (rates lowest first)', 'threads: reverse the sort'], dashboard, {
		needs: 'threads',
	}),
	{
		command: 'toFleet',
		keys: [{special: 'escape'}],
		description: 'back to the fleet (all rigs)',
		contexts: dashboard,
		footer: 'fleet',
		needs: 'fleet',
	},
	...listBindings('rig', {
		contexts: fleet,
		open: "the selected rig's dashboard",
		filterBy: 'name, URL or pool',
		clearIn: fleet,
	}),
	{
		command: 'refreshAll',
		keys: [{input: 'R'}],
		description: 'poll every rig now',
		contexts: fleet,
		footer: 'refresh',
		footerRank: 'low',
		needs: 'refresh',
	},
	...typingBindings(['fleetFilter'], ['while typing a filter: keep it', 'keep'], ['while typing a filter: clear it', 'clear']),
	// Marks as k9s and mc have them: Space marks (and moves down), * marks what is shown; \ clears, as k9s's Ctrl+\ and
	// mc's \ (unselect) do — u stays free for an undo.
	{
		command: 'mark',
		keys: [{input: ' '}],
		description: 'mark the selected rig (or unmark it) and select the next',
		contexts: fleet,
	},
	{
		command: 'markShown',
		keys: [{input: '*'}],
		description: 'mark every rig shown (when all are marked: unmark them)',
		contexts: fleet,
	},
	{
		command: 'clearMarks',
		keys: [{input: '\\'}],
		description: 'clear every mark (as Ctrl+\\ in k9s, \\ in mc)',
		contexts: fleet,
		needs: 'marks',
	},
	{
		command: 'pause',
		keys: [{input: 'p'}],
		description: 'pause the marked rigs, or the selected one (asks first)',
		contexts: fleet,
		footer: 'pause',
		needs: 'pause',
	},
	{
		command: 'resume',
		keys: [{input: 'r'}],
		description: 'resume the marked rigs, or the selected one (asks first)',
		contexts: fleet,
		footer: 'resume',
		needs: 'resume',
	},
	{
		command: 'config',
		keys: [{input: 'c'}],
		description: 'the marked rigs: one config key on all of them (values, a diff per rig, undo)',
		contexts: fleet,
		footer: 'config',
		needs: 'fleetConfig',
	},
	{
		command: 'batchCancel',
		keys: [{special: 'escape'}],
		description: 'cancel the batch (a rig already sent to is read back)',
		contexts: ['fleetBatch'],
		footer: 'cancel',
	},
	...moveBindings<CommandName, Screen>(
		['batchUp', 'batchDown', 'batchPageUp', 'batchPageDown'],
		['scroll the results up', 'scroll the results down', 'results: one page up', 'results: one page down'],
		['fleetBatch', 'fleetResults'],
		{footer: 'scroll', needs: 'scrollBatch'},
	),
	{
		command: 'batchClose',
		keys: [{special: 'escape'}, {special: 'return'}],
		description: 'close the results (back to the rigs)',
		contexts: ['fleetResults'],
		footer: 'close',
	},
	{
		command: 'batchUndo',
		keys: [{input: 'u'}],
		description: "undo the config batch: each rig's backup put back unless its config changed since (asks first)",
		contexts: ['fleetResults'],
		footer: 'undo',
		needs: 'batchUndo',
	},
	// The fleet config view (c with rigs marked): its keys' list, a search or a value typed, each rig's diff.
	...configMoves.select,
	...configMoves.pages,
	...searchBindings('as in the config view', fleetConfig),
	{
		command: 'setValue',
		keys: [{special: 'return'}],
		description: "type the selected key's new value for every marked rig (then each rig's diff)",
		contexts: fleetConfig,
		footer: 'set',
	},
	{
		command: 'closeView',
		keys: [{special: 'escape'}, {input: 'q'}],
		description: 'back to the fleet (the marks kept)',
		contexts: fleetConfig,
		footer: 'back',
	},
	...typingBindings(['fleetConfigTyping'], ['accept what was typed', 'ok'], ['cancel typing', 'cancel']),
	{
		command: 'yes',
		keys: [{input: 'y'}],
		description: 'apply to each rig that changes (asks again for http.*/api.*)',
		contexts: ['fleetConfigDiff'],
		footer: 'apply',
	},
	{
		command: 'addKeys',
		keys: [{input: 'a'}],
		description: 'add the key to the rigs that lack it, or not (refused by default)',
		contexts: ['fleetConfigDiff'],
		footer: 'add key',
		needs: 'addKeys',
	},
	...moveBindings<CommandName, Screen>(['batchUp', 'batchDown'], ['scroll the rigs up', 'scroll the rigs down'], ['fleetConfigDiff'], {
		footer: 'scroll',
		needs: 'scrollBatch',
	}),
	{
		command: 'no',
		keys: [{input: 'n'}, {special: 'escape'}],
		description: 'back to the keys',
		contexts: ['fleetConfigDiff'],
		footer: 'back',
	},
	{
		command: 'closeView',
		keys: [{input: 'q'}],
		description: 'back to the fleet without applying (asks first)',
		contexts: ['fleetConfigDiff'],
	},
	{command: 'closeView', keys: [{input: 'q'}], description: 'back to the fleet (the marks kept)', contexts: ['fleetConfigHelp']},
	// A proxy's screen: its workers' table moves, sorts and filters as the fleet's does (issue 26).
	// Esc clears a filter in force, as on the fleet; with none it goes back to the fleet (two contexts: one key, one meaning).
	...listBindings('worker', {
		contexts: proxy,
		open: "the selected worker's detail",
		filterBy: 'name or ip',
		clearIn: ['proxyFiltered'],
	}),
	{
		command: 'toFleet',
		keys: [{special: 'escape'}],
		description: 'with no filter: back to the fleet',
		contexts: ['proxy'],
		footer: 'back',
		needs: 'fleet',
	},
	{
		command: 'refresh',
		keys: [{input: 'R'}],
		description: 'poll the proxy now',
		contexts: proxyAndWorker,
		footer: 'refresh',
		footerRank: 'low',
		needs: 'refresh',
	},
	{
		command: 'config',
		keys: [{input: 'c'}],
		description: "view and edit the proxy's config",
		contexts: proxy,
		footer: 'config',
		needs: 'config',
	},
	{
		command: 'closeView',
		keys: [{special: 'escape'}],
		description: "in a worker's detail: back to the workers",
		contexts: ['worker'],
		footer: 'back',
	},
	{
		command: 'chart',
		keys: [{input: 'g'}],
		description: "the hashrate chart: the proxy's, or in a worker's detail the worker's",
		contexts: proxyAndWorker,
		footer: 'chart',
		needs: 'chart',
	},
	{
		command: 'events',
		keys: [{input: 'e'}],
		description: "the events: the proxy's, or in a worker's detail the worker's",
		contexts: proxyAndWorker,
		footer: 'events',
		needs: 'events',
	},
	{command: 'yes', keys: [{input: 'y'}], description: 'yes, do it', contexts: ['question'], footer: 'yes'},
	{
		command: 'no',
		keys: [{input: 'n'}, {special: 'escape'}],
		description: 'no (so does any other key)',
		contexts: ['question'],
		footer: 'no',
	},
	// The chart and the event view (issues 13 and 14). `g` was also "first row" (as `G` is "last"): Home still is.
	{
		command: 'chart',
		keys: [{input: 'g'}],
		description: "the hashrate chart (the selected rig's, in the fleet)",
		contexts: dashboardAndFleet,
		footer: 'chart',
		needs: 'chart',
	},
	{
		command: 'events',
		keys: [{input: 'e'}],
		description: 'every event, with the stored ones before this session',
		contexts: dashboardAndFleet,
		footer: 'events',
		needs: 'events',
	},
	{
		command: 'slower',
		keys: [{input: '+'}],
		description: 'poll less often (the interval one step longer)',
		contexts: dashboard,
		footer: 'interval',
		footerRank: 'low',
		footerWith: 'faster',
		needs: 'interval',
	},
	{command: 'faster', keys: [{input: '-'}], description: 'poll more often (one step shorter)', contexts: dashboard, needs: 'interval'},
	{
		command: 'freeze',
		keys: [{input: 'f'}],
		description: 'freeze the display (polling and alerts go on)',
		contexts: dashboard,
		footer: 'freeze',
		footerRank: 'low',
	},
	{command: 'closeView', keys: [{special: 'escape'}], description: 'back', contexts: [...chart, ...eventView], footer: 'back'},
	{
		command: 'span',
		keys: [{input: '1'}, {input: '2'}, {input: '3'}, {input: '4'}, {input: '5'}],
		description: 'span: 10 min, 1 h, 6 h, 24 h, 7 days',
		contexts: chart,
	},
	{
		command: 'zoomIn',
		keys: [{input: '+'}, {input: '='}],
		description: 'a shorter span',
		contexts: chart,
		footer: 'zoom',
		footerWith: 'zoomOut',
	},
	{command: 'zoomOut', keys: [{input: '-'}], description: 'a longer span', contexts: chart},
	{
		command: 'older',
		keys: [{special: 'leftArrow'}, {input: 'h'}],
		description: 'back in time (half a span)',
		contexts: chart,
		footer: 'time',
		footerWith: 'newer',
	},
	{command: 'newer', keys: [{special: 'rightArrow'}, {input: 'l'}], description: 'forward in time', contexts: chart},
	{command: 'latest', keys: [{special: 'end'}, {input: '0'}], description: 'back to now', contexts: chart, footer: 'now'},
	{
		command: 'series',
		keys: [{input: 's'}],
		description: 'series: hashrate, temperature, clock, power, H/W (a miner on this machine)',
		contexts: chart,
		footer: 'series',
	},
	...moveBindings<CommandName, Screen>(
		['eventsUp', 'eventsDown', 'eventsPageUp', 'eventsPageDown', 'eventsNewest', 'eventsOldest'],
		['scroll to newer events', 'scroll to older events', 'one page newer', 'one page older', 'the newest event', 'the oldest event'],
		eventView,
		{footer: 'scroll'},
	),
	{
		command: 'suspend',
		keys: SUSPEND_KEYS,
		description: SUSPEND_DESCRIPTION,
		contexts: [
			...everywhere,
			'fleetFilter',
			'question',
			'fleetBatch',
			'fleetResults',
			'fleetConfig',
			'fleetConfigTyping',
			'fleetConfigDiff',
			'fleetConfigHelp',
		],
	},
]);

// ---- The config view ---------------------------------------------------------------------------
// Its keys depend on the view's mode: browsing the tree, typing in a prompt (search or an inline edit),
// answering a y/n question, reading a panel, or reading its help. Every key the view does not use in a
// mode does nothing there: none reaches another screen.

export type ConfigMode = 'browse' | 'prompt' | 'confirm' | 'panel' | 'help';

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
	/** Line editing in a prompt (line-editor.ts). */
	| 'caretLeft'
	| 'caretRight'
	| 'caretStart'
	| 'caretEnd'
	| 'deleteBack'
	| 'clearLine'
	| 'yes'
	| 'no'
	| 'dismiss'
	/** The config view's help (?), and leaving the view (q) or rigtop (F10) from any mode. */
	| 'help'
	| 'closeHelp'
	| 'helpUp'
	| 'helpDown'
	| 'leave'
	| 'quit'
	| 'suspend';

const browse: readonly ConfigMode[] = ['browse'];

/** A key of the config view that writes: offered only where the miner takes writes, its footer word its command's. */
function writeKey(
	command: ConfigCommandName,
	input: string,
	description: string,
	contexts: readonly ConfigMode[],
): Binding<ConfigCommandName, ConfigMode> {
	return {command, keys: [{input}], description, contexts, footer: command, needs: 'write'};
}

export const CONFIG_KEYMAP = createKeymap<ConfigCommandName, ConfigMode>([
	...moveBindings<ConfigCommandName, ConfigMode>(
		['up', 'down', 'pageUp', 'pageDown'],
		['move up', 'move down', 'one page up', 'one page down'],
		browse,
	),
	{command: 'top', keys: [{special: 'home'}, {input: 'g'}], description: 'first key', contexts: browse},
	{command: 'bottom', keys: [{special: 'end'}, {input: 'G'}], description: 'last key', contexts: browse},
	{command: 'open', keys: [{special: 'rightArrow'}, {input: 'l'}], description: 'open a section or list item', contexts: browse},
	{
		command: 'close',
		keys: [{special: 'leftArrow'}, {input: 'h'}],
		description: 'close a section (or go to the one around)',
		contexts: browse,
	},
	...searchBindings('cpu.huge-pages, pools.0.tls', browse),
	writeKey('toggle', ' ', 'toggle a boolean, or the next of a set of values', browse),
	{command: 'activate', keys: [{special: 'return'}], description: 'edit a value (or open a section)', contexts: browse, footer: 'edit'},
	{command: 'increment', keys: [{input: '+'}, {input: '='}], description: 'number one up', contexts: browse, needs: 'write'},
	{command: 'decrement', keys: [{input: '-'}], description: 'number one down', contexts: browse, needs: 'write'},
	writeKey('diff', 'd', 'show every pending change (before → after)', browse),
	// From the tree, and from the diff's panel (`d`) that shows what it applies.
	writeKey('apply', 'w', 'apply the changes to the miner (asks first)', [...browse, 'panel']),
	writeKey('undo', 'u', 'undo the last apply (asks first)', ['browse', 'panel']),
	writeKey('discard', 'x', 'discard every pending change (asks first when more than one)', browse),
	{
		command: 'reload',
		keys: [{input: 'R'}],
		description: 'read the config from the miner again',
		contexts: ['browse', 'panel'],
		footer: 'reload',
	},
	{command: 'back', keys: [{special: 'escape'}], description: 'back to the dashboard', contexts: browse, footer: 'back'},
	{command: 'submit', keys: [{special: 'return'}], description: 'accept what was typed', contexts: ['prompt'], footer: 'ok'},
	{command: 'cancel', keys: [{special: 'escape'}], description: 'cancel typing', contexts: ['prompt'], footer: 'cancel'},
	{command: 'caretLeft', keys: [{special: 'leftArrow'}], description: 'caret one left', contexts: ['prompt']},
	{command: 'caretRight', keys: [{special: 'rightArrow'}], description: 'caret one right', contexts: ['prompt']},
	{command: 'caretStart', keys: [{special: 'home'}, {input: 'a', ctrl: true}], description: 'caret to the start', contexts: ['prompt']},
	{command: 'caretEnd', keys: [{special: 'end'}, {input: 'e', ctrl: true}], description: 'caret to the end', contexts: ['prompt']},
	{
		command: 'deleteBack',
		keys: [{special: 'backspace'}, {special: 'delete'}],
		description: 'delete the character before the caret',
		contexts: ['prompt'],
	},
	{command: 'clearLine', keys: [{input: 'u', ctrl: true}], description: 'clear what was typed', contexts: ['prompt']},
	{command: 'yes', keys: [{input: 'y'}], description: 'yes', contexts: ['confirm'], footer: 'yes'},
	{command: 'no', keys: [{input: 'n'}, {special: 'escape'}], description: 'no', contexts: ['confirm'], footer: 'no'},
	{
		command: 'dismiss',
		keys: [{special: 'escape'}, {special: 'return'}],
		description: 'close this panel',
		contexts: ['panel'],
		footer: 'close',
	},
	{
		command: 'help',
		keys: [{input: '?'}, {fn: 1}],
		description: "show or hide the config view's keys",
		contexts: ['browse', 'panel', 'help'],
		footer: 'help',
	},
	{command: 'closeHelp', keys: [{special: 'escape'}], description: 'close this help', contexts: ['help'], footer: 'close'},
	...moveBindings<ConfigCommandName, ConfigMode>(['helpUp', 'helpDown'], ['scroll this help up', 'scroll this help down'], ['help']),
	{
		command: 'leave',
		keys: [{input: 'q'}],
		description: 'back to the dashboard (asks first when changes are pending)',
		contexts: ['browse', 'panel', 'confirm', 'help'],
	},
	{
		command: 'quit',
		keys: [{fn: 10}],
		description: 'quit rigtop (asks first when changes are pending)',
		contexts: ['browse', 'prompt', 'panel', 'confirm', 'help'],
	},
	{command: 'suspend', keys: SUSPEND_KEYS, description: SUSPEND_DESCRIPTION, contexts: ['browse', 'prompt', 'panel', 'confirm', 'help']},
]);
