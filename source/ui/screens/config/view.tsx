import {Box, Text} from 'ink';
import {useMemo} from 'react';
import type {KeyResult} from '../../../config/apply.js';
import {showPath} from '../../../config/json-values.js';
import type {ConfigSessionState, ConfigStore} from '../../../config/session.js';
import {wordsFor, type ConfigSubject} from '../../../config/words.js';
import {formatClock} from '../../../text/format.js';
import {scrollToShow} from '../scroll.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {CONFIG_KEYMAP, type ConfigCommandName} from '../../keys/bindings.js';
import {Footer} from '../../panes/footer.js';
import {helpScrollKeys} from '../help-toggle.js';
import {HelpOverlay, helpMaxOffset} from '../../panes/help-overlay.js';
import {Line, Pane} from '../../panes/pane.js';
import {TitleBar} from '../../panes/title-bar.js';
import {TooSmall} from '../../panes/too-small.js';
import {Wrapped, wrappedHeight} from '../../widgets/wrap.js';
import {isTooSmall} from '../layout.js';
import {useTheme, type ThemeToken} from '../../text/theme.js';
import {useScreenEnv, useScreenHelp, useScreenState} from '../contract.js';
import {shownNotice, showsResult, writesOff, type ConfigEnv, type ConfigHelpFrom} from './availability.js';
import {ConfigPanel} from './config-panel.js';
import {configLogic, initialConfigUi, type ConfigEffect, type ConfigUiAction} from './reduce.js';
import {ConfigTree} from '../../widgets/config-tree.js';
import {dialogContent, resultContent, type PanelContent} from './panel-content.js';
import {cursorIndex, keyNote, visibleEntries} from '../../widgets/config-rows.js';
import type {ConfigUiState} from './state.js';
import type {ConfigEntry} from '../../../config/document.js';
import {textWidth} from '../../../text/cells.js';

export type ConfigViewProps = {
	/**
	 * The miner's ConfigSession (or any store of its shape), opened for this visit by whoever shows the view
	 * (`session.open()`, commands/live/app.tsx): the view only reads it and sends it the effects of keys.
	 */
	readonly session: ConfigStore;
	readonly minerName: string;
	/** What is configured: a miner (the default) or an xmrig-proxy, whose words the view then uses (words.ts). */
	readonly subject?: ConfigSubject;
	readonly caps: ConfigViewCaps;
	/** --read-only: every write key says so instead. */
	readonly readOnly: boolean;
};

/** What the config view can do beyond itself, as its host offers it. */
export type ConfigViewCaps = {
	/** Back to the dashboard, or the proxy screen (Esc, q). */
	readonly back: () => void;
	/** Quit rigtop (F10); without it F10 goes back to the dashboard. */
	readonly quit?: (() => void) | undefined;
};

/** The most lines the feedback under the tree takes (a message that needs more is cut there). */
const MAX_NOTICE_LINES = 3;

/**
 * The config view's rows: header, tree (or a panel), the feedback under it (one line, or the lines a
 * message needs, wrapped, up to three), footer; never taller than rows - 1.
 */
export function configLayout(
	columns: number,
	rows: number,
	noticeWanted = 1,
): {readonly width: number; readonly bodyRows: number; readonly noticeLines: number; readonly footerLines: number} {
	const available = Math.max(1, rows - 1);
	const footerLines = available >= 3 ? 1 : 0;
	const wanted = Math.min(MAX_NOTICE_LINES, Math.max(1, noticeWanted));
	const noticeLines = available >= 4 ? (available >= 8 ? wanted : 1) : 0;
	return {width: Math.max(1, columns), bodyRows: Math.max(0, available - 1 - footerLines - noticeLines), noticeLines, footerLines};
}

/** Runs an effect; what the session refused (an edit made on an older read…) comes back, to be shown. */
function runEffect(effect: ConfigEffect, session: ConfigStore, caps: ConfigViewCaps): string | null {
	switch (effect.type) {
		case 'toggle':
		case 'step':
		case 'set': {
			// The reducer made the edit: the session takes it as it is, or says why not.
			const outcome = session.adopt(effect.edits);
			return outcome.ok ? null : outcome.message;
		}
		case 'discard':
			session.discard();
			return null;
		case 'apply':
			void session.apply();
			return null;
		case 'undo':
			void session.undo();
			return null;
		case 'reload':
			void session.reload();
			return null;
		case 'back':
			caps.back();
			return null;
		case 'quit':
			(caps.quit ?? caps.back)();
			return null;
	}
}

function statusText(session: ConfigSessionState, readOnly: boolean): string {
	const parts: string[] = [];
	if (readOnly) parts.push('read-only');
	if (session.busy === 'load') parts.push('reading the config…');
	else if (session.busy === 'apply') parts.push('applying…');
	else if (session.busy === 'undo') parts.push('undoing…');
	else if (session.document) {
		const pending = session.edits?.size ?? 0;
		parts.push(pending === 0 ? 'no changes' : `${pending} ${pending === 1 ? 'change' : 'changes'} pending`);
		parts.push(`read from miner ${formatClock(session.readAt)}`);
	}

	return parts.join(' · ');
}

function outcomesOf(session: ConfigSessionState): ReadonlyMap<string, KeyResult['status']> | null {
	const result = session.lastResult;
	// Only while the tree shows the config that apply read back (a reload hides them).
	if (result?.status !== 'done' || !session.lastApplied || session.readAt === null || session.readAt > session.lastApplied.at) return null;
	return new Map(result.keys.map((key) => [key.path, key.status]));
}

/** The feedback under the tree: what is typed, why a value is refused, the last key's message, a problem, the key's note. */
type Notice = {text: string; tone: ThemeToken; wraps?: true};

/** The feedback under the tree (`browsed`: the key under the cursor, while browsing). */
function configNotice(
	ui: ConfigUiState,
	state: ConfigSessionState,
	browsed: ConfigEntry | undefined,
	say: (text: string) => string,
): Notice | null {
	const promptKey = (command: ConfigCommandName) => CONFIG_KEYMAP.keyOf(command, 'prompt');
	let notice: Notice | null = null;
	const lastNotice = shownNotice(ui, state);
	const document = state.document;
	if (ui.prompt?.kind === 'search') {
		const typed = `/${ui.prompt.text.slice(0, ui.prompt.caret)}▏${ui.prompt.text.slice(ui.prompt.caret)}`;
		// What is typed; the keys (Enter ok, Esc cancel) are the footer's, said once.
		notice = {text: typed, tone: 'accent'};
	} else if (ui.prompt?.kind === 'edit') {
		// Enter and Esc are in the footer; Ctrl+U (no footer word) is said here.
		const keys = `${promptKey('clearLine')} clears`;
		const hidden = ui.prompt.secret ? ' (it stays hidden)' : '';
		notice = ui.prompt.error
			? {text: say(ui.prompt.error), tone: 'error', wraps: true}
			: {text: `${showPath(ui.prompt.id)}: type the new value${hidden}; ${keys}`, tone: 'muted'};
	} else if (lastNotice) notice = {text: say(lastNotice.text), tone: lastNotice.tone, wraps: true};
	else if (state.busy === 'apply' || state.busy === 'undo')
		notice = {text: 'backing up the config, sending it and reading it back…', tone: 'info'};
	else if (state.problem && document !== null)
		notice = {text: say(`${state.problem.message} — ${state.problem.fix}`), tone: 'error', wraps: true};
	else if (browsed) {
		// Wrapped: its end says when the change takes effect ("… after a restart").
		const note = keyNote(browsed);
		if (note) notice = {text: `${showPath(browsed.id)}: ${say(note)}`, tone: 'muted', wraps: true};
	}

	return notice;
}

/**
 * The config view's env hook: the session's state, the view's own (reduce.ts), its help, the env its keys are reduced
 * against, and its keys read.
 */
function useConfig({session, subject = 'miner', caps, readOnly}: ConfigViewProps) {
	const state = useStore(session);
	const {columns, rows} = useTerminalSize();
	const layout = configLayout(columns, rows);
	const tooSmall = isTooSmall(columns, rows);

	const writesAreOff = writesOff({session: state, readOnly});
	const screen = useScreenState(
		configLogic,
		() => initialConfigUi(session.getState().resultSeq),
		(effect: ConfigEffect): ConfigUiAction | undefined => {
			const refused = runEffect(effect, session, caps);
			return refused === null ? undefined : {type: 'refused', message: refused};
		},
	);
	const ui = screen.state;
	const helpFrom = useMemo((): ConfigHelpFrom => ({writesAreOff, subject}), [writesAreOff, subject]);
	const helpEntries = useScreenHelp(configLogic, helpFrom);
	const helpMax = useMemo(() => helpMaxOffset(helpEntries, layout.width, layout.bodyRows), [helpEntries, layout.width, layout.bodyRows]);
	// What the keys read and the view does not own: the session's state as drawn, the size. The effects a key asks
	// for run right away, and the session's new state is drawn (and so in the env) before the next key goes out.
	const env = useMemo(
		(): ConfigEnv => ({session: state, readOnly, pageSize: layout.bodyRows, helpMax, tooSmall}),
		[state, readOnly, layout.bodyRows, helpMax, tooSmall],
	);
	const {availability, footer: hints} = useScreenEnv(configLogic, screen, env);
	return {state, ui, availability, hints, helpEntries, writesAreOff, tooSmall, columns, rows};
}

/**
 * The miner's config as a keyboard-driven tree: browse, search, toggle / cycle / step / edit values,
 * see the diff, apply (confirmed; asked twice for a change that can cut rigtop off), undo. Reads the
 * session; every key goes through the reducer and the session calls it asks for run at once.
 */
export function ConfigView(props: ConfigViewProps) {
	const {minerName, subject = 'miner'} = props;
	const theme = useTheme();
	const say = (text: string) => wordsFor(subject, text);
	const sayPanel = (content: PanelContent): PanelContent => ({
		title: say(content.title),
		lines: content.lines.map((line) => ({...line, text: say(line.text)})),
		prompt: content.prompt === null ? null : say(content.prompt),
	});
	const {state, ui, availability, hints, helpEntries, writesAreOff, tooSmall, columns, rows} = useConfig(props);

	const document = state.document;
	const {edits} = state;
	const treeRows = useMemo(() => (document ? visibleEntries(document, ui.expanded) : []), [document, ui.expanded]);
	const cursor = cursorIndex(treeRows, ui.cursor, document);
	const cursorEntry = cursor === -1 ? undefined : treeRows[cursor];
	const mode = availability.context;
	const outcomes = useMemo(() => outcomesOf(state), [state]);

	// The feedback under the tree: a prompt is one line; a message wraps over the lines it needs.
	const notice = configNotice(ui, state, mode === 'browse' ? cursorEntry : undefined, say);

	const noticeWanted = notice?.wraps ? wrappedHeight(notice.text, Math.max(1, columns - 2)) : 1;
	// The frame as drawn (the keys use `layout`: a page one or two lines off while a message shows is harmless).
	const view = configLayout(columns, rows, noticeWanted);
	const top = cursor === -1 ? 0 : scrollToShow(ui.top, cursor, treeRows.length, view.bodyRows);

	let body;
	if (mode === 'help') {
		body = (
			<HelpOverlay
				entries={helpEntries}
				offset={ui.helpOffset}
				scrollKeys={helpScrollKeys(CONFIG_KEYMAP)}
				width={view.width}
				height={view.bodyRows}
				title="Config view keys"
				closeHint={`${CONFIG_KEYMAP.keyOf('help', 'help')} or ${CONFIG_KEYMAP.keyOf('closeHelp', 'help')} to close`}
			/>
		);
	} else if (ui.dialog) {
		body = <ConfigPanel content={sayPanel(dialogContent(ui.dialog, state, minerName))} width={view.width} height={view.bodyRows} />;
	} else if (showsResult(ui, state) && state.lastResult && state.lastAction) {
		body = <ConfigPanel content={sayPanel(resultContent(state.lastResult, state.lastAction))} width={view.width} height={view.bodyRows} />;
	} else if (document === null) {
		if (state.phase === 'error' && state.problem) {
			body = <ConfigProblem problem={state.problem} width={view.width} height={view.bodyRows} say={say} />;
		} else {
			body = (
				<Box height={view.bodyRows} paddingX={1}>
					<Wrapped {...theme.text('muted')}>{`reading the config of ${minerName}…`}</Wrapped>
				</Box>
			);
		}
	} else {
		body = (
			<ConfigTree
				document={document}
				edits={edits}
				rows={treeRows}
				top={top}
				height={view.bodyRows}
				cursor={cursor}
				expanded={ui.expanded}
				width={view.width}
				editor={ui.prompt?.kind === 'edit' ? ui.prompt : null}
				outcomes={outcomes}
			/>
		);
	}

	if (tooSmall) {
		const pending = edits?.size ?? 0;
		const hint =
			pending > 0
				? `${pending} ${pending === 1 ? 'change' : 'changes'} pending: make it larger to apply or discard`
				: `${CONFIG_KEYMAP.keyOf('leave', 'browse')} goes back to the dashboard`;
		return <TooSmall columns={columns} rows={rows} hint={say(hint)} />;
	}

	const status = say(statusText(state, writesAreOff));
	return (
		<Box flexDirection="column" width={view.width} height={1 + view.bodyRows + view.noticeLines + view.footerLines} overflowY="hidden">
			<TitleBar width={view.width} title={[minerName, 'config']} stateWidth={textWidth(status)}>
				<Text {...theme.text(state.busy ? 'info' : writesAreOff ? 'warn' : 'muted')}>{status}</Text>
			</TitleBar>
			{body}
			{view.noticeLines > 0 ? (
				<Box width={view.width} height={view.noticeLines} paddingX={1} overflowY="hidden">
					{notice?.wraps ? (
						<Wrapped {...theme.text(notice.tone)} lines={view.noticeLines} width={view.width - 2}>
							{notice.text}
						</Wrapped>
					) : (
						<Text wrap="truncate-end" {...(notice ? theme.text(notice.tone) : {})}>
							{notice?.text ?? ' '}
						</Text>
					)}
				</Box>
			) : null}
			{view.footerLines > 0 ? <Footer hints={hints} width={view.width} /> : null}
		</Box>
	);
}

/** Why the miner's config could not be read, its fix, and the keys out. */
function ConfigProblem({
	problem,
	width,
	height,
	say,
}: {
	readonly problem: NonNullable<ConfigSessionState['problem']>;
	readonly width: number;
	readonly height: number;
	readonly say: (text: string) => string;
}) {
	const theme = useTheme();
	// As tall as what it says (up to the room), the room kept so the footer stays at the bottom.
	const inner = Math.max(1, width - 4);
	const said = [say(problem.message), problem.detail ? say(problem.detail) : '', say(`fix: ${problem.fix}`)];
	const held = said.reduce((sum, text) => sum + (text === '' ? 0 : wrappedHeight(text, inner)), 1);
	return (
		<Box flexDirection="column" width={width} height={height} flexShrink={0}>
			<Pane title={say("Could not read the miner's config")} width={width} height={Math.min(height, held + 2)}>
				<Wrapped {...theme.text('error')}>{say(problem.message)}</Wrapped>
				{problem.detail ? <Wrapped {...theme.text('muted')}>{say(problem.detail)}</Wrapped> : null}
				<Wrapped>{say(`fix: ${problem.fix}`)}</Wrapped>
				<Line tone="muted">
					{say(
						`${CONFIG_KEYMAP.keyOf('reload', 'browse')}: try again · ${CONFIG_KEYMAP.keyOf('back', 'browse')} or ${CONFIG_KEYMAP.keyOf('leave', 'browse')}: back to the dashboard`,
					)}
				</Line>
			</Pane>
		</Box>
	);
}
