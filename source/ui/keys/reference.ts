/**
 * What people read about the keys, derived from the bindings: every context with its keys (`keysReference`), the
 * "Keys" section of `rigtop --help` (`keysHelpLines`) and the readme's keys table (`keysMarkdown`, checked by a test).
 */
import {CONFIG_KEYMAP, SCREEN_KEYMAP} from './bindings.js';
import {keyName, type Hint, type KeySpec, type Keymap} from './matcher.js';

// ---- For people reading about the keys ---------------------------------------------------------

type Section = {
	readonly title: string;
	readonly bindings: readonly {readonly command: string; readonly keys: readonly KeySpec[]; readonly description: string}[];
	readonly footer: readonly Hint[];
};

/** A context's keys (and those of `also`, modes of the same screen, each binding once), with its footer. */
function section<Command extends string, Context extends string>(
	keymap: Keymap<Command, Context>,
	context: Context,
	title: string,
	...also: readonly Context[]
): Section {
	const all = new Set(keymap.bindings.map((binding) => binding.command));
	const bindings = keymap.bindings.filter((binding) => [context, ...also].some((each) => binding.contexts.includes(each)));
	return {title, bindings, footer: keymap.footer(context, all)};
}

/** What a table's `s` does, as the table's columns say it (ui/table/sort.ts `help`): the keymap cannot know them. */
export type SortWords = {readonly fleet: string; readonly proxy: string};

/** The section with its `s` saying what the table's columns say. */
function withSort(entry: Section, sort: string | undefined): Section {
	if (sort === undefined) return entry;
	return {...entry, bindings: entry.bindings.map((binding) => (binding.command === 'sort' ? {...binding, description: sort} : binding))};
}

/** Every context a user can be in, with what each of its keys does; `sorts`, what the fleet's and the proxy's `s` sort by. */
export function keysReference(sorts?: SortWords): readonly Section[] {
	return [
		section(SCREEN_KEYMAP, 'dashboard', 'dashboard'),
		withSort(section(SCREEN_KEYMAP, 'fleet', 'fleet'), sorts?.fleet),
		section(SCREEN_KEYMAP, 'fleetFilter', 'fleet or proxy: typing a filter (/)'),
		withSort(section(SCREEN_KEYMAP, 'proxy', "proxy (and a worker's detail, Enter)", 'proxyFiltered', 'worker'), sorts?.proxy),
		section(SCREEN_KEYMAP, 'chart', 'chart (g)'),
		section(SCREEN_KEYMAP, 'events', 'events (e)'),
		section(SCREEN_KEYMAP, 'help', 'help (?)'),
		section(SCREEN_KEYMAP, 'question', 'dashboard and fleet: a question (p, r)'),
		section(SCREEN_KEYMAP, 'fleetBatch', "fleet: a batch running, then its results (p, r, c's apply)", 'fleetResults'),
		section(SCREEN_KEYMAP, 'fleetConfig', "fleet config (c with rigs marked), and each rig's diff", 'fleetConfigDiff'),
		section(SCREEN_KEYMAP, 'fleetConfigTyping', 'fleet config: typing a search or a value'),
		section(CONFIG_KEYMAP, 'browse', 'config view'),
		section(CONFIG_KEYMAP, 'prompt', 'config: typing a value or a search'),
		section(CONFIG_KEYMAP, 'confirm', 'config: a question'),
		section(CONFIG_KEYMAP, 'panel', 'config: the diff or a result'),
		section(CONFIG_KEYMAP, 'help', 'config: its help (?)'),
	];
}

/** The "Keys" section of `rigtop --help`: each main screen's footer, one line each. */
export function keysHelpLines(): readonly string[] {
	const sections = keysReference();
	const titled = (title: string) => sections.find((entry) => entry.title === title);
	const [dashboardKeys, fleetKeys, proxyKeys, chartKeys, eventKeys, configKeys] = [
		titled('dashboard'),
		titled('fleet'),
		titled("proxy (and a worker's detail, Enter)"),
		titled('chart (g)'),
		titled('events (e)'),
		titled('config view'),
	];
	// meow indents the help by four columns: a line of up to 76 fits an 80-column terminal.
	const width = 76;
	const indent = ' '.repeat(13);
	const line = (label: string, of: Section | undefined): string[] => {
		const lines = [`  ${label.padEnd(11)}`];
		for (const [index, hint] of (of?.footer ?? []).entries()) {
			const text = `${hint.keys} ${hint.label}`;
			const last = lines.at(-1) ?? '';
			if (index === 0) lines[lines.length - 1] = last + text;
			else if (last.length + 3 + text.length > width - 2) {
				lines[lines.length - 1] = `${last} ·`;
				lines.push(indent + text);
			} else lines[lines.length - 1] = `${last} · ${text}`;
		}

		return lines;
	};

	return [
		'Keys (? on the dashboard or the fleet lists every key)',
		...line('dashboard', dashboardKeys),
		...line('fleet', fleetKeys),
		...line('proxy', proxyKeys),
		...line('chart', chartKeys),
		...line('events', eventKeys),
		...line('config', configKeys),
	];
}

/** The readme's keys table (test/ui/keys/keymap.test.ts checks that readme.md holds exactly this). */
export function keysMarkdown(sorts: SortWords): string {
	const rows = keysReference(sorts).map(({title, bindings}) => {
		const keys = bindings.map((binding) => `${binding.keys.map((spec) => `\`${keyName(spec)}\``).join(' ')} ${binding.description}`);
		return `| ${title} | ${keys.join(' · ')} |`;
	});
	return ['| where | keys |', '| --- | --- |', ...rows].join('\n');
}
