import {Box, Text} from 'ink';
import {memo} from 'react';
import type {KeyResult} from '../../config/apply.js';
import type {ConfigDocument, ConfigEntry} from '../../config/document.js';
import type {PendingEdits} from '../../config/edits.js';
import type {ConfigPath} from '../../config/types.js';
import {useTheme} from '../text/theme.js';
import type {TypedText} from './line-editor.js';
import {cycleHint, entryLabel, entryValue, isContainer, wasText} from './config-rows.js';
import {cutText, padText, textWidth} from '../../text/cells.js';

/** The line typed under the tree: a search, or a key's new value. */
export type Prompt =
	| ({readonly kind: 'search'} & TypedText)
	| ({
			readonly kind: 'edit';
			readonly path: ConfigPath;
			readonly id: string;
			readonly secret: boolean;
			readonly error: string | null;
	  } & TypedText);

export type ConfigTreeProps = {
	readonly document: ConfigDocument;
	readonly edits: PendingEdits | null;
	/** The visible rows and the slice of them on screen. */
	readonly rows: readonly ConfigEntry[];
	readonly top: number;
	readonly height: number;
	readonly cursor: number;
	readonly expanded: ReadonlySet<string>;
	readonly width: number;
	/** The inline editor, when one is open (on the cursor row). */
	readonly editor: Extract<Prompt, {kind: 'edit'}> | null;
	/** Per-key outcome of the apply the tree was read back from (✓ / ✗), by dotted path. */
	readonly outcomes: ReadonlyMap<string, KeyResult['status']> | null;
};

const MIN_NAME = 20;
const MIN_VALUE = 8;

function nameText(entry: ConfigEntry, expanded: boolean, changed: boolean): string {
	const slot = isContainer(entry) ? (expanded ? '▾ ' : '▸ ') : changed ? '● ' : '  ';
	return `${'  '.repeat(entry.depth)}${slot}${entryLabel(entry)}`;
}

/**
 * The part of a value being typed that fits `room` columns with the caret in it: all of it when it fits, else a
 * window that keeps the caret on screen, "…" on each side that is cut (a value longer than the line used to lose the
 * caret past the edge, so what was typed could not be seen).
 */
export function editorWindow(length: number, caret: number, room: number): {from: number; to: number; lead: boolean; tail: boolean} {
	// The caret takes a cell of its own at the end of the text.
	if (length + 1 <= room || room < 3) return {from: 0, to: length, lead: false, tail: false};
	if (caret < room - 1) return {from: 0, to: room - 1, lead: false, tail: true};
	const to = Math.min(length, caret + 1);
	const tail = to < length;
	const cells = room - 1 - (tail ? 1 : 0) - (caret === length ? 1 : 0);
	return {from: Math.max(0, to - cells), to, lead: true, tail};
}

/** The text being typed, a secret as one • per character, with the caret (inverse with colour, ▏ without), in `room` columns. */
export function EditorText({
	text,
	caret,
	secret,
	room,
}: {
	readonly text: string;
	readonly caret: number;
	readonly secret: boolean;
	readonly room: number;
}) {
	const theme = useTheme();
	// The caret counts UTF-16 units, as the line editor does.
	const shown = secret ? '•'.repeat(text.length) : text;
	const at = Math.min(Math.max(0, caret), shown.length);
	// Without colour the caret is a "▏" of its own between two characters (at the end it takes the caret's cell).
	const {from, to, lead, tail} = editorWindow(shown.length, at, theme.color || at === shown.length ? room : room - 1);
	const before = `${lead ? '…' : ''}${shown.slice(from, at)}`;
	const under = shown.slice(at, at + 1);
	const after = `${shown.slice(at + 1, Math.max(at + 1, to))}${tail ? '…' : ''}`;
	if (!theme.color) return <Text>{`${before}▏${under}${after}`}</Text>;
	return (
		<Text>
			{before}
			<Text inverse>{under === '' ? ' ' : under}</Text>
			{after}
		</Text>
	);
}

const OUTCOME_TEXT: Record<KeyResult['status'], string> = {applied: '✓ applied', 'not-applied': '✗ not applied', unknown: '? unknown'};

/** The config as a tree: "▾ cpu", "  ● huge-pages   false   (was true)", secrets masked, the cursor row marked "› ". */
function ConfigTreeView({document, edits, rows, top, height, cursor, expanded, width, editor, outcomes}: ConfigTreeProps) {
	const theme = useTheme();
	const shown = rows.slice(top, top + Math.max(0, height));
	const names = shown.map((entry) => nameText(entry, expanded.has(entry.id), edits?.isChanged(entry.path) === true));
	const values = shown.map((entry) => entryValue(entry, edits, document));
	const nameWidth = Math.min(Math.max(MIN_NAME, ...names.map((name) => textWidth(name) + 3)), Math.max(MIN_NAME, Math.floor(width * 0.45)));
	const valueWidth = Math.min(
		Math.max(MIN_VALUE, ...values.map((value) => textWidth(value) + 2)),
		Math.max(MIN_VALUE, Math.floor(width * 0.3)),
	);
	return (
		<Box flexDirection="column" width={width} height={Math.max(0, height)} overflowY="hidden">
			{shown.map((entry, index) => {
				const selected = top + index === cursor;
				const changed = edits?.isChanged(entry.path) === true;
				const name = names[index] ?? '';
				const value = values[index] ?? '';
				const was = wasText(entry, edits);
				const outcome = changed ? undefined : outcomes?.get(entry.id);
				const hint = selected && !changed ? cycleHint(entry) : null;
				const editing = selected && editor !== null && editor.id === entry.id;
				// Each cut (…) a column short of its width, so a gap stays before the next.
				const nameCell = padText(cutText(name, nameWidth - 1), nameWidth);
				const valueCell = padText(cutText(value, valueWidth - 1), valueWidth);
				return (
					<Box key={entry.id} height={1} width={width}>
						<Text wrap="truncate-end">
							<Text bold {...theme.text('accent')}>
								{selected ? '› ' : '  '}
							</Text>
							<Text bold={selected || isContainer(entry)} {...(changed ? theme.text('warn') : selected ? theme.text('accent') : {})}>
								{nameCell}
							</Text>
							{editing ? (
								<EditorText text={editor.text} caret={editor.caret} secret={editor.secret} room={width - 2 - nameWidth} />
							) : (
								<>
									<Text {...(changed ? theme.text('warn') : isContainer(entry) ? theme.text('muted') : {})}>{valueCell}</Text>
									{was ? <Text {...theme.text('muted')}>{was}</Text> : null}
									{outcome ? (
										<Text {...theme.text(outcome === 'applied' ? 'ok' : outcome === 'not-applied' ? 'error' : 'warn')}>
											{OUTCOME_TEXT[outcome]}
										</Text>
									) : null}
									{hint ? <Text {...theme.text('muted')}>{hint}</Text> : null}
								</>
							)}
						</Text>
					</Box>
				);
			})}
		</Box>
	);
}

export const ConfigTree = memo(ConfigTreeView);
