/**
 * The words of the config view's questions and panels: the diff, the apply confirmation (and the
 * second question for a change that can cut rigtop off), undo, leaving, reloading or discarding with
 * pending changes, and the result of an apply or undo with each key applied ✓ / not applied ✗. Pure; every
 * value shown comes from the engine's display text, so secrets are already masked.
 */
import path from 'node:path';
import type {ApplyResult, KeyResult} from '../../../config/apply.js';
import {showPath} from '../../../config/json-values.js';
import type {ConfigSessionState} from '../../../config/session.js';
import {formatClock} from '../../../text/format.js';
import {CONFIG_KEYMAP} from '../../keys/bindings.js';
import type {Dialog, Tone} from './state.js';

/**
 * A line of a panel. Prose (questions, reasons, fixes) wraps over the lines it needs; a data line (a key
 * and its values, a file name) is one line, cut at the edge if it must be.
 */
export type PanelLine = {
	readonly text: string;
	readonly tone?: Tone | 'muted' | 'accent';
	/** Cut at the edge instead of wrapped (a path, a backup's name). */
	readonly data?: true;
	/** Columns the line (every line of it, when it wraps) starts in from the frame's text. */
	readonly indent?: number;
};
export type PanelContent = {readonly title: string; readonly lines: readonly PanelLine[]; readonly prompt: string | null};

/** A question's answers with their keys: "y apply · n cancel". */
function answers(yes: string, no: string): string {
	return `${CONFIG_KEYMAP.keyOf('yes', 'confirm')} ${yes} · ${CONFIG_KEYMAP.keyOf('no', 'confirm')} ${no}`;
}

/** A write with a token the user did not give says whose it uses (never the token). */
function borrowedLine(whose: string): PanelLine {
	return {text: `No token was given: this uses the one from ${whose}.`, tone: 'warn'};
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function diffLines(session: ConfigSessionState): PanelLine[] {
	const edits = session.edits?.list() ?? [];
	return edits.map((edit, index) => {
		const line = session.edits?.diffLines()[index] ?? showPath(edit.id);
		// Wrapped whole, never cut: a value must be read in full before it is applied ("… → "stratum+ssl://a-very-lo…" hid it).
		return {text: line, tone: edit.guarded ? 'warn' : 'accent', indent: 2};
	});
}

function guardedIds(session: ConfigSessionState): string[] {
	return (session.edits?.list() ?? []).filter((edit) => edit.guarded).map((edit) => showPath(edit.id));
}

export function dialogContent(dialog: Dialog, session: ConfigSessionState, minerName: string): PanelContent {
	const count = session.edits?.size ?? 0;
	switch (dialog.kind) {
		case 'diff':
			return {title: `Pending changes (${count})`, lines: [{text: 'before → after', tone: 'muted'}, ...diffLines(session)], prompt: null};
		case 'confirm': {
			const guarded = guardedIds(session);
			if (dialog.step === 2) {
				return {
					title: 'Are you sure?',
					lines: [
						{text: `The change to ${guarded.join(', ')} can cut rigtop off from the miner's API:`, tone: 'warn'},
						{text: 'rigtop may not reach the miner afterwards (new port, host, token, or API off).', tone: 'warn'},
						{text: "If that happens, fix it in the miner's config file; the config as it was is backed up first."},
					],
					prompt: answers('apply anyway', 'cancel'),
				};
			}

			const lines: PanelLine[] = [...diffLines(session), {text: ''}];
			if (guarded.length > 0)
				lines.push({text: `⚠ ${guarded.join(', ')} can cut rigtop off from the miner's API (asks again)`, tone: 'warn'});
			lines.push({text: 'A backup is saved first; then the whole config is sent and read back.', tone: 'muted'});
			if (session.tokenFrom !== undefined) lines.push(borrowedLine(session.tokenFrom));
			return {title: `Apply ${plural(count, 'change')} to ${minerName}?`, lines, prompt: answers('apply', 'cancel')};
		}

		case 'undo': {
			const last = session.lastApplied;
			const lines: PanelLine[] = [];
			if (last) {
				lines.push({text: `Puts back the config as it was before the ${last.wasUndo ? 'undo' : 'apply'} at ${formatClock(last.at)}:`});
				lines.push(...last.keys.map((key): PanelLine => ({text: `  ${key}`, tone: 'accent', data: true})));
				lines.push({text: `from the backup ${path.basename(last.backupPath)}`, tone: 'muted', data: true});
			}

			if (count > 0) lines.push({text: `Your ${plural(count, 'pending change')} will be dropped.`, tone: 'warn'});
			if (session.tokenFrom !== undefined) lines.push(borrowedLine(session.tokenFrom));
			return {
				title: last?.wasUndo ? 'Redo the change the undo reverted?' : 'Undo the last apply?',
				lines,
				prompt: answers(last?.wasUndo ? 'redo' : 'undo', 'cancel'),
			};
		}

		case 'leave': {
			const quit = dialog.then === 'quit';
			return {
				title: `${quit ? 'Quit rigtop' : 'Leave'} with ${plural(count, 'pending change')}?`,
				lines: [...diffLines(session), {text: ''}, {text: 'They are dropped; the miner keeps its config.', tone: 'muted'}],
				prompt: answers(quit ? 'quit' : 'leave', 'stay'),
			};
		}
		case 'reload':
			return {
				title: 'Read the config from the miner again?',
				lines: [{text: `Your ${plural(count, 'pending change')} will be dropped:`, tone: 'warn'}, ...diffLines(session)],
				prompt: answers('reload', 'keep them'),
			};
		case 'discard':
			return {
				title: `Discard ${plural(count, 'pending change')}?`,
				lines: [...diffLines(session), {text: ''}, {text: 'They are dropped; the miner keeps its config.', tone: 'muted'}],
				prompt: answers('discard', 'keep them'),
			};
	}
}

function keyLine(key: KeyResult): PanelLine {
	const change = key.secret ? `${showPath(key.path)}: •••••••• (changed)` : `${showPath(key.path)}: ${key.before} → ${key.after}`;
	switch (key.status) {
		case 'applied':
			return {text: `✓ ${change}  applied`, tone: 'ok', data: true};
		case 'not-applied': {
			const seen = key.seen === null || key.secret ? '' : ` (the miner has ${key.seen})`;
			return {text: `✗ ${change}  not applied${seen}`, tone: 'error', data: true};
		}

		case 'unknown':
			return {text: `? ${change}  unknown (could not be checked)`, tone: 'warn', data: true};
	}
}

/** Where the backup went, as two lines so a long path is not cut off: the directory, then the file. */
function backupLines(file: string): PanelLine[] {
	return [
		{text: `backup of the config as it was: ${path.dirname(file)}/`, tone: 'muted', data: true},
		{text: `  ${path.basename(file)}`, tone: 'muted', data: true},
	];
}

export function resultContent(result: ApplyResult, action: 'apply' | 'undo'): PanelContent {
	const verb = action === 'undo' ? 'Undo' : 'Apply';
	switch (result.status) {
		case 'nothing-to-apply':
			return {title: `${verb}: nothing to do`, lines: [{text: result.message}], prompt: null};
		case 'conflict':
			return {
				title: `${verb}: conflict — nothing was applied`,
				lines: [
					{text: "The miner's config changed since rigtop read it:", tone: 'warn'},
					...result.conflicts.map((line): PanelLine => ({text: `  ${line}`, tone: 'warn'})),
					{text: ''},
					{
						text: `${CONFIG_KEYMAP.keyOf('reload', 'panel')} reads it again (your changes are dropped); then make them again on what the miner has now.`,
						tone: 'muted',
					},
				],
				prompt: null,
			};
		case 'failed':
			return {
				title: `${verb} failed`,
				lines: [
					...result.keys.map((key) => keyLine(key)),
					{text: result.message, tone: 'error'},
					{text: `fix: ${result.problem.fix}`},
					...(result.backupPath ? backupLines(result.backupPath) : []),
				],
				prompt: null,
			};
		case 'done': {
			const applied = result.keys.filter((key) => key.status === 'applied').length;
			const title = result.allApplied
				? `${verb}: applied ${plural(result.keys.length, 'change')}`
				: `${verb}: ${applied} of ${result.keys.length} applied`;
			return {
				title,
				lines: [
					...result.keys.map((key) => keyLine(key)),
					...result.notes.map((note): PanelLine => ({text: note, tone: 'warn'})),
					...backupLines(result.backupPath),
					// Restricted mode on: the miner refuses the undo's reads and writes (the note says how to turn it back).
					...(result.restrictedOn
						? []
						: [
								{
									text: `${CONFIG_KEYMAP.keyOf('undo', 'panel')}: ${action === 'undo' ? 'redo the change' : 'undo this apply'}`,
									tone: 'muted',
								} as const,
							]),
				],
				prompt: null,
			};
		}
	}
}
