/**
 * What `rigtop config undo` puts back: per rig, the backup its last batch apply wrote and a hash of the config that
 * apply left (no secret is kept here: the backups hold the documents). One file, `batch-undo.json`, in the backups'
 * folder (mode 0700), written 0600 through a temporary file and a rename. An undo replaces a rig's record with its own,
 * so a second undo puts the batch's change back, as `u` twice does in the config view.
 */
import {randomBytes} from 'node:crypto';
import {readFile, rename, unlink, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {configHash} from './rig-action.js';
import type {RigResult, UndoRecord} from './types.js';
import {makeDirectory} from '../config/make-directory.js';
import {ConfigDocument} from '../config/document.js';

const FILE = 'batch-undo.json';

export function undoRecordsFile(backupDir: string): string {
	return path.join(backupDir, FILE);
}

function isRecord(value: unknown): value is UndoRecord {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Record<string, unknown>;
	return (
		typeof record['url'] === 'string' &&
		typeof record['backupPath'] === 'string' &&
		typeof record['appliedHash'] === 'string' &&
		typeof record['what'] === 'string' &&
		typeof record['at'] === 'number'
	);
}

/** The records, by rig URL; none when the file is missing or unreadable. */
export async function readUndoRecords(backupDir: string): Promise<Map<string, UndoRecord>> {
	try {
		const parsed = JSON.parse(await readFile(undoRecordsFile(backupDir), 'utf8')) as unknown;
		const list = Array.isArray(parsed) ? parsed : [];
		return new Map(list.filter((item) => isRecord(item)).map((record) => [record.url, record]));
	} catch {
		return new Map();
	}
}

/** The record an applied rig leaves (its backup and the config read back, else the one sent), or null. */
export function recordOf(result: RigResult, what: string, at: number): UndoRecord | null {
	const {apply} = result;
	if (apply?.status !== 'done') return null;
	const left = apply.applied ?? apply.sent;
	return {url: result.rig.url, backupPath: apply.backupPath, appliedHash: configHash(new ConfigDocument(left.reveal()).value), what, at};
}

/** Adds (replaces) the records of the rigs a batch applied to. */
export async function saveUndoRecords(backupDir: string, records: readonly UndoRecord[]): Promise<void> {
	if (records.length === 0) return;
	const all = await readUndoRecords(backupDir);
	for (const record of records) all.set(record.url, record);
	await makeDirectory(backupDir, 0o700);
	const file = undoRecordsFile(backupDir);
	const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	try {
		await writeFile(temporary, `${JSON.stringify([...all.values()], null, '\t')}\n`, {mode: 0o600});
		await rename(temporary, file);
	} catch (error) {
		await unlink(temporary).catch(() => undefined);
		throw error;
	}
}
