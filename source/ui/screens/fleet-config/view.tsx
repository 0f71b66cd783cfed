import {Box, Text} from 'ink';
import {useMemo} from 'react';
import type {FleetConfigSession, FleetConfigState} from '../../../batch/fleet-config.js';
import {showPath} from '../../../config/json-values.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {Footer} from '../../panes/footer.js';
import {cutText, Wrapped, wrappedHeight} from '../../widgets/wrap.js';
import {padText, textWidth} from '../../../text/cells.js';
import {TitleBar} from '../../panes/title-bar.js';
import {useTheme, type ThemeToken} from '../../text/theme.js';
import {EditorText} from '../../widgets/config-tree.js';
import {useScreenEnv, useScreenHelp, useScreenState} from '../contract.js';
import {BatchPane} from '../../widgets/batch-pane.js';
import {fleetConfigContext, runWords, type FleetConfigEnv} from './availability.js';
import {helpScrollKeys} from '../help-toggle.js';
import {HelpOverlay, helpMaxOffset} from '../../panes/help-overlay.js';
import {cursorAt, fleetConfigLogic, initialFleetConfigUi, type FleetConfigEffect, type FleetConfigUiState} from './reduce.js';
import {diffPlan, keyRows, rigReads, valuesText, type DiffPlan, type RigDiff} from './rigs.js';
import {diffMaxOffset, diffNameWidth, diffRigLines, diffTextIndent, wrapsReason} from './diff-lines.js';

export type FleetConfigViewProps = {
	/** The marked rigs' session (batch/fleet-config.ts), opened by whoever shows the view: the view reads it. */
	readonly session: FleetConfigSession;
	readonly caps: FleetConfigViewCaps;
};

/** What the fleet config view can do beyond itself, as its host offers it. */
export type FleetConfigViewCaps = {
	/** Back to the fleet (Esc, q), the marks kept. */
	readonly back: () => void;
	readonly quit: () => void;
};

/** What a refusal for a lacking key says: the diff's key that adds it. */
export const ADD_HINT = `${SCREEN_KEYMAP.keyOf('addKeys', 'fleetConfigDiff')} adds it`;

/** The frame's rows: the title, the body, a line for the prompt, a question or a message, the footer. */
export function fleetConfigLayout(rows: number): {readonly bodyRows: number} {
	return {bodyRows: Math.max(1, rows - 1 - 3)};
}

const DIFF_TONE: Readonly<Record<RigDiff['kind'], ThemeToken | null>> = {
	change: null,
	already: 'muted',
	lacks: 'warn',
	skipped: 'warn',
	failed: 'error',
	unreachable: 'error',
};

/** "y/n", as the keymap names the question's answers. */
const YES_NO = `${SCREEN_KEYMAP.keyOf('yes', 'question')}/${SCREEN_KEYMAP.keyOf('no', 'question')}`;

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "cpu.huge-pages-jit → true: changes 5 of 8 rigs · 2 already so · 1 lacks it · 1 skipped": the rigs said once. */
export function diffTitle(plan: DiffPlan, id: string, value: string): string {
	const {counts} = plan;
	const parts = [`changes ${counts.change === 0 ? 'none' : counts.change} of ${count(plan.rigs.length, 'rig')}`];
	if (counts.already > 0) parts.push(`${counts.already} already so`);
	if (counts.lacks > 0) parts.push(`${counts.lacks} ${counts.lacks === 1 ? 'lacks' : 'lack'} it`);
	if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
	if (counts.failed > 0) parts.push(`${counts.failed} refused`);
	if (counts.unreachable > 0) parts.push(`${counts.unreachable} unreachable`);
	return `${id} → ${value}: ${parts.join(' · ')}`;
}

/** The line under the diff: what y does, what a does. */
function diffQuestion(plan: DiffPlan, add: boolean): string {
	const yes = SCREEN_KEYMAP.keyOf('yes', 'fleetConfigDiff');
	const addKey = SCREEN_KEYMAP.keyOf('addKeys', 'fleetConfigDiff');
	const apply = plan.counts.change === 0 ? 'no rig would change' : `${yes}: apply to ${count(plan.counts.change, 'rig')}`;
	const lacking = add ? ` · ${addKey}: do not add the key` : plan.counts.lacks > 0 ? ` · ${addKey}: add the key where it lacks` : '';
	return `${apply}${lacking} · ${SCREEN_KEYMAP.keyOf('no', 'fleetConfigDiff')}: back`;
}

/** The line over the footer: what is typed, a question, the last key's message, or a problem. */
function footerLine(
	ui: FleetConfigUiState,
	state: FleetConfigState,
	plan: DiffPlan | null,
	inDiff: boolean,
): {text: string; tone: ThemeToken} | null {
	const marked = state.rigs.length;
	let line: {text: string; tone: ThemeToken} | null = null;
	if (ui.prompt?.kind === 'search') {
		const typed = `/${ui.prompt.text.slice(0, ui.prompt.caret)}▏${ui.prompt.text.slice(ui.prompt.caret)}`;
		// What is typed; the keys (Enter ok, Esc cancel) are the footer's, said once.
		line = {text: typed, tone: 'accent'};
	} else if (ui.prompt?.kind === 'value') {
		line = ui.prompt.error
			? {text: ui.prompt.error, tone: 'error'}
			: {
					text: `${showPath(ui.prompt.id)}: the new value for ${count(marked, 'marked rig')}${ui.prompt.secret ? ' (it stays hidden)' : ''}`,
					tone: 'muted',
				};
	} else if (ui.asking === 'guarded' && ui.diff && plan) {
		line = {
			text: `${showPath(ui.diff.assignment.path)} can cut rigtop off from the API of ${count(plan.counts.change, 'rig')}: apply anyway? ${YES_NO}`,
			tone: 'warn',
		};
	} else if ((ui.asking === 'back' || ui.asking === 'quit') && ui.diff && plan) {
		const where = ui.asking === 'quit' ? 'quit rigtop' : 'back to the fleet';
		line = {
			text: `${where} without applying ${showPath(ui.diff.assignment.path)} → ${ui.diff.shown} to ${count(plan.counts.change, 'rig')}? ${YES_NO}`,
			tone: 'warn',
		};
	} else if (ui.asking === 'undo') {
		line = {
			text: `undo on ${count(state.undoable, 'rig')} (each backup put back, unless its config changed since)? ${YES_NO}`,
			tone: 'accent',
		};
	} else if (ui.notice) {
		line = {text: ui.notice.text, tone: ui.notice.tone};
	} else if (inDiff && plan && ui.diff) {
		line = {text: diffQuestion(plan, ui.diff.add), tone: 'accent'};
	} else if (state.problem) {
		line = {text: state.problem, tone: 'warn'};
	}

	return line;
}

/**
 * The fleet config view's env hook: the marked rigs' session, what was read of them, the view's own state (reduce.ts),
 * its help, the env its keys are reduced against, and its keys read.
 */
function useFleetConfig({session, caps}: FleetConfigViewProps) {
	const state = useStore(session);
	const screen = useScreenState(fleetConfigLogic, initialFleetConfigUi, (effect: FleetConfigEffect) => {
		switch (effect.type) {
			case 'apply':
				void session.apply(effect.assignment, {addKeys: effect.addKeys, confirmApiChanges: effect.confirmApiChanges});
				return;
			case 'undo':
				void session.undo();
				return;
			case 'cancel':
				session.cancel();
				return;
			case 'reread':
				void session.open();
				return;
			case 'back':
				caps.back();
				return;
			case 'quit':
				caps.quit();
		}
	});
	const ui = screen.state;
	const {columns, rows: height} = useTerminalSize();
	const {bodyRows} = fleetConfigLayout(height);
	const reads = useMemo(() => (state.reads ? rigReads(state.reads) : null), [state.reads]);
	const keyList = useMemo(() => (reads ? keyRows(reads) : []), [reads]);
	const unread = useMemo(() => (reads ?? []).filter((read) => read.document === null), [reads]);
	// Why each rig could not be read, wrapped over the keys (its fix is at the end), in at most a third of the body.
	const unreadText = unread.length > 0 ? `not read: ${unread.map((read) => `${read.rig.name} (${read.reason})`).join(' · ')}` : null;
	const unreadLines =
		unreadText === null ? 0 : Math.max(1, Math.min(wrappedHeight(unreadText, Math.max(1, columns - 2)), Math.floor(bodyRows / 3)));
	const pageSize = Math.max(1, bodyRows - unreadLines);
	const help = useScreenHelp(fleetConfigLogic);
	const helpMax = helpMaxOffset(help, columns, bodyRows);
	const env = useMemo(
		(): FleetConfigEnv => ({
			session: state,
			reads,
			rows: keyList,
			pageSize,
			paneRows: Math.max(1, bodyRows - 1),
			paneWidth: columns,
			addHint: ADD_HINT,
			helpMax,
		}),
		[state, reads, keyList, pageSize, bodyRows, columns, helpMax],
	);
	const {footer} = useScreenEnv(fleetConfigLogic, screen, env);
	return {state, ui, env, footer, help, helpMax, reads, unread, unreadText, unreadLines, columns, height, bodyRows};
}

/**
 * One config key on the marked rigs: every key they have with the values each has, a value typed for all of them,
 * each rig's diff, the apply as a batch (its pane: each rig as it goes, then each rig's result), and its undo. Reads
 * the session; every key goes through the reducer and what it asks for runs at once.
 */
export function FleetConfigView(props: FleetConfigViewProps) {
	const theme = useTheme();
	const {state, ui, env, footer, help, helpMax, reads, unread, unreadText, unreadLines, columns, height, bodyRows} = useFleetConfig(props);

	const plan = useMemo(() => (ui.diff && reads ? diffPlan(reads, ui.diff.assignment, ui.diff.add, ADD_HINT) : null), [ui.diff, reads]);
	const context = fleetConfigContext(ui, state);
	const marked = state.rigs.length;
	const status = reads
		? `${count(marked - unread.length, 'rig')} read${unread.length > 0 ? ` · ${unread.length} not` : ''}`
		: `reading ${state.reading?.done ?? 0} of ${marked}…`;

	let body;
	if (ui.help) {
		body = (
			<HelpOverlay
				entries={help}
				offset={Math.min(ui.helpOffset, helpMax)}
				scrollKeys={helpScrollKeys(SCREEN_KEYMAP)}
				width={columns}
				height={bodyRows}
				title="Fleet config keys"
			/>
		);
	} else if (ui.results && state.run) {
		body = (
			<BatchPane
				batch={state.run.batch}
				action={runWords(state.run, ui.diff?.shown)}
				offset={ui.results.offset}
				width={columns}
				height={bodyRows}
			/>
		);
	} else if (ui.diff && plan) {
		body = <DiffPane plan={plan} ui={ui} width={columns} height={bodyRows} />;
	} else if (!reads) {
		body = (
			<Box height={bodyRows} paddingX={1}>
				<Text
					{...theme.text('muted')}
				>{`reading the config of ${count(marked, 'marked rig')}: ${state.reading?.done ?? 0} of ${marked} done`}</Text>
			</Box>
		);
	} else {
		body = <KeyList ui={ui} env={env} unread={unreadText} unreadLines={unreadLines} width={columns} height={bodyRows} />;
	}

	const line = footerLine(ui, state, plan, context === 'fleetConfigDiff');

	return (
		<Box flexDirection="column" width={columns} height={height - 1} overflowY="hidden">
			<TitleBar width={columns} title={['fleet config', count(marked, 'marked rig')]} stateWidth={textWidth(status)}>
				<Text {...theme.text(reads ? 'muted' : 'info')}>{status}</Text>
			</TitleBar>
			{body}
			<Box width={columns} height={1} paddingX={1}>
				<Text wrap="truncate-end" {...(line ? theme.text(line.tone) : {})}>
					{line?.text ?? ' '}
				</Text>
			</Box>
			<Footer hints={footer} width={columns} />
		</Box>
	);
}

/** The keys of the rigs read, each with its values: "› cpu.huge-pages-jit   false on 5, true on 2, missing on 1". */
function KeyList({
	ui,
	env,
	unread,
	unreadLines,
	width,
	height,
}: {
	readonly ui: FleetConfigUiState;
	readonly env: FleetConfigEnv;
	readonly unread: string | null;
	readonly unreadLines: number;
	readonly width: number;
	readonly height: number;
}) {
	const theme = useTheme();
	const {rows, pageSize} = env;
	const at = cursorAt(ui, rows);
	const top = Math.max(0, Math.min(ui.top, Math.max(0, rows.length - pageSize), at));
	const first = at >= top + pageSize ? at - pageSize + 1 : top;
	const shown = rows.slice(first, first + pageSize);
	// Over every key, so scrolling keeps the column where it is.
	const nameWidth = Math.min(Math.max(20, ...rows.map((row) => textWidth(showPath(row.id)) + 3)), Math.max(20, Math.floor(width * 0.45)));
	const editor = ui.prompt?.kind === 'value' ? ui.prompt : null;
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			{unread === null ? null : (
				<Box width={width} height={unreadLines} paddingX={1} overflowY="hidden">
					<Wrapped {...theme.text('warn')} lines={unreadLines} width={width - 2}>
						{unread}
					</Wrapped>
				</Box>
			)}
			{rows.length === 0 ? <Text {...theme.text('muted')}> no rig could be read</Text> : null}
			{shown.map((row, index) => {
				const selected = first + index === at;
				const name = padText(cutText(showPath(row.id), nameWidth - 1), nameWidth);
				return (
					<Box key={row.id} height={1} width={width}>
						<Text wrap="truncate-end">
							<Text bold {...theme.text('accent')}>
								{selected ? '› ' : '  '}
							</Text>
							<Text bold={selected} {...(selected ? theme.text('accent') : {})}>
								{name}
							</Text>
							{selected && editor?.id === row.id ? (
								<EditorText text={editor.text} caret={editor.caret} secret={editor.secret} room={width - 2 - nameWidth} />
							) : (
								<Text {...(row.values.length > 1 || row.missing > 0 ? theme.text('warn') : {})}>{valuesText(row)}</Text>
							)}
						</Text>
					</Box>
				);
			})}
		</Box>
	);
}

/**
 * Each rig's diff: "rig-01  cpu.huge-pages-jit: false → true", "rig-03  lacks cpu.huge-pages-jit (a adds it)"; why a
 * rig is skipped or refused wraps under its text (diff-lines.ts), so its fix is read whole.
 */
function DiffPane({
	plan,
	ui,
	width,
	height,
}: {
	readonly plan: DiffPlan;
	readonly ui: FleetConfigUiState;
	readonly width: number;
	readonly height: number;
}) {
	const theme = useTheme();
	const diff = ui.diff;
	if (!diff) return null;
	const rows = Math.max(1, height - 1);
	const lines = diffRigLines(plan, width, rows);
	const offset = Math.min(diff.offset, diffMaxOffset(lines, rows));
	const nameWidth = diffNameWidth(plan);
	const indent = diffTextIndent(plan);
	// The rigs from the offset while their lines fit (the first always).
	let end = offset;
	for (let used = 0; end < plan.rigs.length && (end === offset || used + lines[end]! <= rows); end++) used += lines[end]!;
	const shown = plan.rigs.slice(offset, end);
	const more = shown.length < plan.rigs.length ? ` (rigs ${offset + 1}–${end} of ${plan.rigs.length})` : '';
	// Which rigs are shown stays on the line: the title is cut before it.
	const title = `${diffTitle(plan, diff.assignment.path, diff.shown)}${diff.add ? ' (adding it where it lacks)' : ''}`;
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			<Text wrap="truncate-end" bold {...theme.text('accent')}>
				{` ${cutText(title, width - 1 - [...more].length)}${more}`}
			</Text>
			{shown.map((rig, index) => {
				const tone = DIFF_TONE[rig.kind];
				const style = tone ? theme.text(tone) : {};
				const tall = lines[offset + index]!;
				if (!wrapsReason(rig) || width <= indent) {
					return (
						<Text key={`${offset + index}`} wrap="truncate-end" {...style}>
							{`   ${padText(rig.name, nameWidth)}  ${rig.text}`}
						</Text>
					);
				}

				const name = padText(rig.name, nameWidth);
				return (
					<Box key={`${offset + index}`} width={width} height={tall} overflowY="hidden">
						<Box width={indent} flexShrink={0}>
							<Text {...style}>{`   ${name}  `}</Text>
						</Box>
						<Box width={width - indent} height={tall} overflowY="hidden">
							<Wrapped {...style} lines={tall} width={width - indent}>
								{rig.text}
							</Wrapped>
						</Box>
					</Box>
				);
			})}
		</Box>
	);
}
