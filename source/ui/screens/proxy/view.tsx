import {Box, Text} from 'ink';
import {useCallback, useMemo} from 'react';
import type {MinerSnapshot, ProxyInfo} from '../../../miner/model.js';
import type {MonitorState} from '../../../monitor/types.js';
import type {Store} from '../../../monitor/store.js';
import {useNow} from '../../hooks/use-now.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {helpScrollKeys} from '../help-toggle.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {FilterLead, filterLeadText} from '../../panes/filter-lead.js';
import {Footer} from '../../panes/footer.js';
import {Header} from '../../panes/header.js';
import {HelpOverlay} from '../../panes/help-overlay.js';
import {TooSmall} from '../../panes/too-small.js';
import {isOutdated} from '../../text/status.js';
import {useTheme} from '../../text/theme.js';
import {keyAction, pasteAction, useScreenEnv, useScreenHelp, useScreenState, type ScreenDefinition} from '../contract.js';
import {FleetEvents} from '../../panes/fleet-events.js';
import {fleetEventLines} from '../../panes/fleet-event-lines.js';
import {activeFilterOf, clearFirst, placeIn, type ListScreen} from '../list.js';
import {availability, proxyHelp, type ProxyGiven} from './availability.js';
import {WorkerDetail} from './detail.js';
import {proxyFrame, proxyHelpMax, type ProxyEnv, type ProxyFrame} from './frame.js';
import {describeWorkerSort} from './order.js';
import {initialProxyUiState, reduce, type ProxyCommand, type ProxySaved, type ProxyUiAction, type ProxyUiState} from './reduce.js';
import {nameOfKey, workerRows, type WorkerRow} from './rows.js';
import type {SummaryLine} from './summary.js';
import {WorkerTable} from './table.js';

export type ProxyViewProps = {
	/** The proxy's monitor; the App shows this screen while its snapshot is a proxy's. */
	readonly store: Store<MonitorState>;
	readonly caps: ProxyViewCaps;
	/** What the screen opens on (as it was when the chart, events or config were opened). */
	readonly saved?: ProxySaved | undefined;
};

/** What the proxy screen can do beyond itself, as the App offers it: each one absent is a key not offered. */
export type ProxyViewCaps = {
	readonly quit: () => void;
	/** Esc with no filter in force: back to the fleet. */
	readonly back?: (() => void) | undefined;
	/** `R`: poll the proxy now. */
	readonly refresh?: (() => void) | undefined;
	/** `c`: the proxy's config in the config view. */
	readonly config?: (() => void) | undefined;
	/** `g` and `e`: the chart and the events of the proxy (worker null) or of the worker whose detail is open. */
	readonly chart?: ((worker: string | null) => void) | undefined;
	readonly events?: ((worker: string | null) => void) | undefined;
	/** Where to keep what the screen shows (its selection, sort, filter, open detail) while it is away. */
	readonly save?: ((saved: ProxySaved) => void) | undefined;
};

/** What the help is made of: what the App gave, and whether a worker's detail is open. */
type ProxyHelpFrom = {readonly given: ProxyGiven; readonly detail: boolean};

const SCREEN: ScreenDefinition<ProxyUiState, ProxyUiAction, ProxyEnv, ProxyCommand, CommandName, Screen, ProxyHelpFrom> = {
	reduce,
	availability,
	keymap: SCREEN_KEYMAP,
	help: ({given, detail}) => proxyHelp(given, detail),
	key: keyAction,
	paste: pasteAction,
};

function SummaryView({lines}: {readonly lines: readonly SummaryLine[]}) {
	const theme = useTheme();
	return (
		<>
			{lines.map((line, index) => (
				<Text key={index} wrap="truncate-end">
					{line.map((part, at) => (
						<Text key={at} {...(part.tone ? theme.text(part.tone) : {})} bold={part.bold ?? false}>
							{part.text}
						</Text>
					))}
				</Text>
			))}
		</>
	);
}

/**
 * An xmrig-proxy's screen: its own state (upstreams, miners, results, rates by window) over its workers as a table
 * that sorts, filters and scrolls as the fleet's, with totals that say what they sum; Enter opens a worker's detail.
 * Shown by the App in place of the dashboard while the open target's snapshot is a proxy's.
 */
export function ProxyView(props: ProxyViewProps) {
	const state = useStore(props.store);
	const snapshot = state.snapshot;
	if (snapshot?.proxy == null) return null;
	return <ProxyScreen {...props} state={state} snapshot={snapshot} proxy={snapshot.proxy} />;
}

type ProxyScreenProps = ProxyViewProps & {readonly state: MonitorState; readonly snapshot: MinerSnapshot; readonly proxy: ProxyInfo};

function ProxyScreen(props: ProxyScreenProps) {
	return <ProxyLayout {...useProxyScreen(props)} />;
}

/** How the step's effects reach the App's capabilities, and what it was given (the keys it offers). */
function useProxyCaps(caps: ProxyViewCaps) {
	const run = useCallback(
		(effect: ProxyCommand) => {
			if (effect.command === 'quit') caps.quit();
			else if (effect.command === 'back') caps.back?.();
			else if (effect.command === 'refresh') caps.refresh?.();
			else if (effect.command === 'config') caps.config?.();
			else if (effect.command === 'chart') caps.chart?.(effect.worker);
			else if (effect.command === 'events') caps.events?.(effect.worker);
			else caps.save?.(effect.saved);
		},
		[caps],
	);
	const given = useMemo<ProxyGiven>(
		() => ({
			refresh: caps.refresh !== undefined,
			config: caps.config !== undefined,
			chart: caps.chart !== undefined,
			events: caps.events !== undefined,
			back: caps.back !== undefined,
		}),
		[caps],
	);
	return {run, given};
}

/** Everything the proxy's layout draws. */
type ProxyScreenFrame = ListScreen<WorkerRow, string> & {
	readonly state: MonitorState;
	readonly snapshot: MinerSnapshot;
	readonly proxy: ProxyInfo;
	readonly ui: ProxyUiState;
	readonly env: ProxyEnv;
	readonly frame: ProxyFrame;
	readonly byKey: ReadonlyMap<string, WorkerRow>;
};

/** The proxy screen's env hook: the workers read, its keys installed, the frame of its state. */
function useProxyScreen({state, snapshot, proxy, caps, saved}: ProxyScreenProps): ProxyScreenFrame {
	const now = useNow();
	const size = useTerminalSize();
	const rows = useMemo(() => workerRows(proxy.workers ?? [], now, snapshot.uptime), [proxy.workers, now, snapshot.uptime]);
	const {run, given} = useProxyCaps(caps);
	const env = useMemo<ProxyEnv>(() => ({snapshot, proxy, rows, now, size, given}), [snapshot, proxy, rows, now, size, given]);
	const screen = useScreenState(SCREEN, () => initialProxyUiState(saved), run);
	const ui = screen.state;
	const detail = ui.detail !== null;
	const helpFrom = useMemo(() => ({given, detail}), [given, detail]);
	const help = useScreenHelp(SCREEN, helpFrom);
	const {footer: hints, availability: keys} = useScreenEnv(SCREEN, screen, env);

	const filter = activeFilterOf(ui);
	const frame = useMemo(() => proxyFrame(ui.sort, filter, env), [ui.sort, filter, env]);
	const {layout, order} = frame;
	const {position, offset} = placeIn(ui, order, layout.workerRows);
	const byKey = useMemo(() => new Map(rows.map((row) => [row.key, row])), [rows]);
	const visible = useMemo(
		() => order.slice(offset, offset + layout.workerRows).flatMap((key) => byKey.get(key) ?? []),
		[order, offset, layout.workerRows, byKey],
	);
	// The lines the workers leave: the newest events of the proxy and of the workers shown (all of them without a
	// filter), told as the fleet tells its rigs', without the proxy's name on each.
	const eventLines = useMemo(() => {
		if (layout.eventLines <= 0) return [];
		const shown = filter.trim() === '' ? null : new Set(order.map((key) => nameOfKey(key)));
		const events = shown ? state.events.filter((event) => event.worker === undefined || shown.has(event.worker)) : state.events;
		return fleetEventLines([{...state, events}], layout.eventLines === 1 ? 8 : layout.eventLines, now, {labels: ['']});
	}, [state, layout.eventLines, filter, order, now]);
	const footer = useMemo(() => clearFirst(hints, keys.context === 'proxyFiltered' ? 'proxyFiltered' : null), [hints, keys.context]);
	const scrolls = order.length > layout.workerRows;
	return {
		state,
		snapshot,
		proxy,
		ui,
		env,
		frame,
		byKey,
		visible,
		selected: position < 0 ? null : (order[position] ?? null),
		window: scrolls ? `workers ${offset + 1}–${Math.min(order.length, offset + layout.workerRows)} of ${order.length}` : null,
		eventLines,
		footer,
		help,
		filter,
	};
}

/** The proxy drawn: its title and summary, the workers' table over the events (or a worker's detail, or the help), its footer. */
function ProxyLayout(screen: ProxyScreenFrame) {
	const {state, snapshot, proxy, ui, env, frame, filter} = screen;
	const {size, now, rows} = env;
	const {layout, order} = frame;
	if (layout.tooSmall) return <TooSmall columns={size.columns} rows={size.rows} hint={`${SCREEN_KEYMAP.keyOf('quit', 'proxy')} quits`} />;

	const listed = rows.length;
	const filtering = ui.prompt !== null || ui.filter !== '';
	const notRead =
		proxy.workers === null ? (snapshot.perThreadRead ? 'workers not listed by the proxy (workers off)' : 'workers not read yet') : null;
	let body;
	if (ui.help) {
		body = (
			<HelpOverlay
				entries={screen.help}
				offset={Math.min(ui.helpOffset, proxyHelpMax(env, layout, ui.detail !== null))}
				scrollKeys={helpScrollKeys(SCREEN_KEYMAP)}
				width={size.columns}
				height={layout.bodyHeight}
			/>
		);
	} else if (ui.detail !== null) {
		body = (
			<WorkerDetail
				row={screen.byKey.get(ui.detail) ?? null}
				name={nameOfKey(ui.detail)}
				uptime={snapshot.uptime}
				now={now}
				width={size.columns}
				height={layout.bodyHeight}
			/>
		);
	} else {
		body = (
			<>
				<WorkerTable
					rows={screen.visible}
					totals={frame.totals}
					listed={listed}
					selected={screen.selected}
					fitted={frame.fitted}
					gap={frame.gap}
					outdated={isOutdated(state)}
					window={screen.window}
					sort={describeWorkerSort(ui.sort)}
					empty={notRead ?? (filter.trim() === '' ? 'no workers' : `no worker matches "${filter.trim()}"`)}
				/>
				<FleetEvents events={screen.eventLines} lines={layout.eventLines} width={size.columns} />
			</>
		);
	}

	return (
		<Box
			flexDirection="column"
			width={size.columns}
			height={ui.help || ui.detail !== null ? layout.summaryLines + layout.bodyHeight + layout.footerLines : layout.height}
			overflowY="hidden"
		>
			<Header state={state} width={size.columns} />
			<SummaryView lines={frame.summary} />
			{body}
			{layout.footerLines > 0 ? (
				<Footer
					hints={screen.footer}
					width={size.columns}
					{...(filtering && !ui.help && ui.detail === null
						? {lead: <FilterLead ui={ui} shown={order.length} count={listed} />, leadWidth: filterLeadText(ui, order.length, listed).length}
						: {})}
				/>
			) : null}
		</Box>
	);
}
