/**
 * What the discovery strategies share: the report they write warnings, what was looked at and problems
 * into, and where on this machine they look.
 */
import {cleanText} from '../text/clean.js';
import type {ConfigIssueKind} from './miner-config.js';
import type {ExplicitToken} from './token-source.js';

/** Issues that still matter when the miner was found and is reachable. */
export const ISSUES_WHEN_REACHABLE: ReadonlySet<ConfigIssueKind> = new Set([
	'empty-token',
	'no-token-unrestricted',
	'host-not-ip',
	'unreadable',
]);

/** A report line can name another process's paths and a config file's values: cleaned, long enough for both. */
const REPORT_TEXT_MAX = 1000;

/** The report's lines are cleaned as they are written (cleanText): they quote other processes' paths and files' values. */
export class Report {
	readonly warnings: string[] = [];
	readonly lookedAt: string[] = [];
	readonly problems: string[] = [];

	warn(...texts: readonly string[]): void {
		for (const text of texts.map(clean)) if (!this.warnings.includes(text)) this.warnings.push(text);
	}

	looked(...texts: readonly string[]): void {
		for (const text of texts.map(clean)) if (!this.lookedAt.includes(text)) this.lookedAt.push(text);
	}

	problem(...texts: readonly string[]): void {
		for (const text of texts.map(clean)) if (!this.problems.includes(text)) this.problems.push(text);
	}

	/** Everything `own` found goes into this report too; the targets it is about carry it as their notes. */
	adopt<T extends {readonly notes?: readonly string[]}>(own: Report, targets: readonly T[]): T[] {
		this.warn(...own.warnings);
		this.problem(...own.problems);
		this.looked(...own.lookedAt);
		const found = [...own.warnings, ...own.problems];
		return targets.map((target) => withNotes(target, found));
	}
}

function clean(text: string): string {
	return cleanText(text, REPORT_TEXT_MAX);
}

/** The target with these notes added to its own (none repeated). */
export function withNotes<T extends {readonly notes?: readonly string[]}>(target: T, notes: readonly string[]): T {
	const before = target.notes ?? [];
	const added = notes.filter((note) => !before.includes(note));
	return added.length === 0 ? target : {...target, notes: [...before, ...added]};
}

export type Context = {
	readonly report: Report;
	readonly explicit: ExplicitToken | null;
	readonly cwd: string;
	readonly homeDir: string;
	readonly procRoot: string;
	readonly passwdPath: string;
	readonly selfPid: number;
	/** The effective uid running rigtop (whose processes get the user's token); null where there is none. */
	readonly selfUid: number | null;
};

/** A token was given to rigtop, but the miner's config sets none: 2.15 and later would answer 401. */
export function warnTokenNotExpected(where: string, report: Report): void {
	report.warn(
		`${where} sets no access token, but rigtop was given one: XMRig 2.15 and later answer 401 to a request that carries a token ` +
			'when the miner has none. Drop the token, or set the same one in the miner\'s "http"."access-token".',
	);
}
