/**
 * The engine behind `rigtop config get [PATH]` and `rigtop config set PATH=VALUE [PATH=VALUE…]`.
 * Returns the lines to print and the exit code (0: everything applied / read; 1: otherwise, with the
 * reason). Secrets are printed masked; the CLI layer only prints.
 */
import {isProxySummaryShape} from '../miner/shapes.js';
import {applyEdits, type ApplyResult, type KeyResult} from './apply.js';
import {ConfigDocument} from './document.js';
import {AssignmentError, assignmentValue, diffLine, parseAssignment, PendingEdits, SECRET_CHANGED} from './edits.js';
import type {Assignment} from './edits.js';
import {explainConfigError, problemLine} from './errors.js';
import {showPath, showValue} from './json-values.js';
import {didYouMean} from './suggest.js';
import {CONFIG_ENDPOINT, SUMMARY_ENDPOINT} from './types.js';
import type {ConfigClient} from './types.js';
import {wordsFor, type ConfigSubject} from './words.js';
import {escapeUnsafe, unicodeEscape} from '../text/escape.js';

/** 0: done; 1: not done, with the reason; 2: bad usage (a key the miner does not have), nothing sent. */
export type ScriptedResult = {
	readonly exitCode: 0 | 1 | 2;
	readonly lines: readonly string[];
	/** What the apply did, when one was tried (the caller records it in the history, as the config view does). */
	readonly applied?: ApplyResult;
	/** What the config is of, as the lines say it (words.ts): the caller says its own words, and the event's, the same. */
	readonly subject: ConfigSubject;
};

/**
 * What the caller knows the target to be before reading it (a rigs file's or discovery's kind). Without it, or when it
 * says miner, the config says (xmrig-proxy's own `mode` and `bind`), or, when the config cannot be read, the summary.
 */
type Known = {readonly subject?: ConfigSubject};

export type ConfigGetOptions = Known & {
	readonly client: ConfigClient;
	/** A dotted key path; the whole document when absent. */
	readonly path?: string;
	readonly tokenGiven?: boolean;
	readonly signal?: AbortSignal;
};

export type ConfigSetOptions = Known & {
	readonly client: ConfigClient;
	/** `PATH=VALUE` arguments. */
	readonly assignments: readonly string[];
	/**
	 * Whether changes that can cut rigtop off from the API (http.* / api.* port, host, token,
	 * restricted, enabled) were confirmed by the user. Without it such a change is refused.
	 */
	readonly confirmApiChanges: boolean;
	/** How the user confirms (shown in the refusal), default `--yes`. */
	readonly confirmFlag?: string;
	/**
	 * Whether a PATH may name a key the miner's config does not have, to add it (--add). Without it such a key is
	 * refused before any backup or PUT, with the closest existing keys suggested: a typo (cpu.hugepages for
	 * cpu.huge-pages) would otherwise be sent, and a real miner reloads its config for nothing and drops the key.
	 */
	readonly addKeys?: boolean;
	/** How the user allows new keys (shown in the refusal), default `--add`. */
	readonly addFlag?: string;
	readonly backupDir?: string;
	readonly verifyTimeoutMs?: number;
	readonly verifyIntervalMs?: number;
	readonly tokenGiven?: boolean;
	readonly signal?: AbortSignal;
};

/**
 * The lines of a config's JSON text, each as written but for a control or invisible character (which JSON allows raw
 * only inside a string, C1, bidi and zero-width ones), written as its `\uXXXX` escape: the same JSON, and no terminal
 * control on the screen (text/escape.ts). Tabs, the indentation of many configs, stay.
 */
function splitLines(text: string): string[] {
	const lines = text.split(/\r?\n/).map((line) => escapeUnsafe(line, (char) => (char === '\t' ? char : unicodeEscape(char))));
	if (lines.at(-1) === '') lines.pop();
	return lines;
}

/** Removes the indentation a nested value's lines carry from the document around it. */
function dedent(raw: string, document: string, offset: number): string[] {
	const lineStart = document.lastIndexOf('\n', offset - 1) + 1;
	const indent = /^[ \t]*/.exec(document.slice(lineStart, offset))?.[0] ?? '';
	return splitLines(raw).map((line, index) => (index > 0 && line.startsWith(indent) ? line.slice(indent.length) : line));
}

/** Whether a config is xmrig-proxy's: its own top-level `mode` and `bind` list, which no miner has. */
export function isProxyConfig(document: ConfigDocument): boolean {
	return typeof document.get(['mode']) === 'string' && Array.isArray(document.get(['bind']));
}

/** What a target whose config could not be read is: a proxy when its summary says `kind: "proxy"`, else a miner. */
async function summarySubject(client: ConfigClient, signal: AbortSignal | undefined): Promise<ConfigSubject> {
	try {
		return isProxySummaryShape(await client.getJson(SUMMARY_ENDPOINT, signal)) ? 'proxy' : 'miner';
	} catch {
		return 'miner';
	}
}

/** The lines said of the subject (the values they quote as they are). */
function said(
	subject: ConfigSubject,
	exitCode: ScriptedResult['exitCode'],
	lines: readonly string[],
	applied?: ApplyResult,
): ScriptedResult {
	return {exitCode, lines: lines.map((line) => wordsFor(subject, line)), subject, ...(applied ? {applied} : {})};
}

async function readConfig(
	options: Known & {readonly client: ConfigClient; readonly tokenGiven?: boolean; readonly signal?: AbortSignal},
): Promise<{document: ConfigDocument; subject: ConfigSubject} | {failure: ScriptedResult}> {
	const {client, signal} = options;
	try {
		const document = new ConfigDocument(await client.getText(CONFIG_ENDPOINT, signal));
		return {document, subject: options.subject === 'proxy' || isProxyConfig(document) ? 'proxy' : 'miner'};
	} catch (error) {
		const [problem, subject] = await Promise.all([
			explainConfigError(error, {client, operation: 'read', tokenGiven: options.tokenGiven ?? null, ...(signal ? {signal} : {})}),
			options.subject === 'proxy' ? options.subject : summarySubject(client, signal),
		]);
		return {failure: said(subject, 1, [problemLine(problem)])};
	}
}

/** `rigtop config get [PATH]`: the config (secrets masked) or one value, as JSON text. */
export async function configGet(options: ConfigGetOptions): Promise<ScriptedResult> {
	const read = await readConfig(options);
	if ('failure' in read) return read.failure;
	const {subject} = read;
	const masked = new ConfigDocument(read.document.maskedText());
	// The config's own text, never reworded.
	if (options.path === undefined) return {exitCode: 0, lines: splitLines(masked.text), subject};
	const path = read.document.resolve(options.path);
	const noKey = (): ScriptedResult => {
		const existing = read.document.entries().map((entry) => entry.id);
		return said(subject, 1, [`the miner's config has no key ${showPath(options.path ?? '')}${didYouMean(options.path ?? '', existing)}`]);
	};
	if (!path || !read.document.has(path)) return noKey();
	const span = masked.locate(path);
	if (!span) return noKey();
	const raw = masked.text.slice(span.offset, span.offset + span.length);
	return {exitCode: 0, lines: raw.includes('\n') ? dedent(raw, masked.text, span.offset) : splitLines(raw), subject};
}

function statusWord(key: KeyResult): string {
	switch (key.status) {
		case 'applied':
			return 'applied';
		case 'not-applied':
			if (key.seen === null) return 'NOT applied';
			// A key added with --add that the miner did not keep (XMRig 5.x/6.x drop keys they do not know).
			if (key.seen === showValue(undefined)) return 'NOT applied (the miner did not keep this key)';
			return `NOT applied (the miner has ${key.secret ? 'another value' : key.seen})`;
		case 'unknown':
			return 'unknown (could not be checked)';
	}
}

function keyLine(key: KeyResult): string {
	const change = key.secret ? `${showPath(key.path)}: ${SECRET_CHANGED}` : `${showPath(key.path)}: ${key.before} → ${key.after}`;
	return `${change}  ${statusWord(key)}`;
}

function resultLines(result: ApplyResult): string[] {
	switch (result.status) {
		case 'nothing-to-apply':
			return [result.message];
		case 'conflict':
			return [result.message, ...result.conflicts.map((line) => `  ${line}`)];
		case 'failed':
			return [...result.keys.map((key) => keyLine(key)), result.message, `fix: ${result.problem.fix}`];
		case 'done':
			return [...result.keys.map((key) => keyLine(key)), ...result.notes, `backup: ${result.backupPath}`];
	}
}

/** `rigtop config set PATH=VALUE…`: applies with the conflict check, backup and verification. */
export async function configSet(options: ConfigSetOptions): Promise<ScriptedResult> {
	const known = options.subject ?? 'miner';
	if (options.assignments.length === 0)
		return said(known, 1, ['nothing to set: give PATH=VALUE, e.g. rigtop config set cpu.huge-pages=false']);
	const assignments: Assignment[] = [];
	for (const argument of options.assignments) {
		try {
			assignments.push(parseAssignment(argument));
		} catch (error) {
			if (error instanceof AssignmentError) return said(known, 1, [error.message]);
			throw error;
		}
	}

	const read = await readConfig(options);
	if ('failure' in read) return read.failure;
	const {document, subject} = read;
	let edits = new PendingEdits(document);
	const problems: string[] = [];
	const missing: string[] = [];
	const existing = document.entries().map((entry) => entry.id);
	for (const assignment of assignments) {
		// --add can add a key under one that exists (resolve() allows a new last segment), never a whole new branch.
		const path = document.resolve(assignment.path);
		if (!path || (!document.has(path) && options.addKeys !== true)) {
			missing.push(`the miner's config has no key ${showPath(assignment.path)}${didYouMean(assignment.path, existing)}`);
			continue;
		}

		const outcome = edits.set(path, assignmentValue(path, assignment, document.get(path)));
		if (outcome.ok) edits = outcome.edits;
		else problems.push(outcome.message);
	}

	if (missing.length > 0) {
		return said(subject, 2, [
			...missing,
			...problems,
			options.addKeys === true
				? 'nothing was sent'
				: `nothing was sent; to add a key the config does not have, run again with ${options.addFlag ?? '--add'}`,
		]);
	}

	if (problems.length > 0) return said(subject, 1, [...problems, 'nothing was applied']);
	if (edits.size === 0) return said(subject, 0, ['nothing to change: the miner already has these values']);
	if (edits.hasGuarded && !options.confirmApiChanges) {
		const guarded = edits.list().filter((edit) => edit.guarded);
		return said(subject, 1, [
			...guarded.map((edit) => diffLine(edit)),
			`${guarded.map((edit) => edit.id).join(', ')} can cut rigtop off from the miner's API; ` +
				`nothing was applied: run again with ${options.confirmFlag ?? '--yes'} to confirm`,
		]);
	}

	const result = await applyEdits({
		client: options.client,
		baseText: document.text,
		edits,
		...(options.backupDir === undefined ? {} : {backupDir: options.backupDir}),
		...(options.verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs: options.verifyTimeoutMs}),
		...(options.verifyIntervalMs === undefined ? {} : {verifyIntervalMs: options.verifyIntervalMs}),
		...(options.tokenGiven === undefined ? {} : {tokenGiven: options.tokenGiven}),
		...(options.signal ? {signal: options.signal} : {}),
	});
	const lines = resultLines(result);
	const ok = result.status === 'done' && result.allApplied;
	if (!ok && result.status === 'done') lines.push(result.message);
	return said(subject, ok ? 0 : 1, lines, result);
}
