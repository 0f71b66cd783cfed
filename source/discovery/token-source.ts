/**
 * The token the user gave rigtop explicitly: --token-file PATH, RIGTOP_TOKEN, or --token VALUE, in
 * that order of preference. The token's value never appears in any message.
 */

import {readFile, stat} from 'node:fs/promises';
import path from 'node:path';
import type {Source} from './types.js';

export type ExplicitToken = {readonly token: string; readonly source: Source};

export type ExplicitTokenResult = {
	readonly token: ExplicitToken | null;
	readonly warnings: readonly string[];
	readonly problems: readonly string[];
};

/** Token files are small; anything larger is the wrong file. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * Reads a token file: the whole content without its trailing newline(s). Warns when other users can
 * read the file. Throws a plain-words Error (without the content) when it cannot be read.
 */
export async function readTokenFile(file: string): Promise<{token: string; warnings: string[]}> {
	const warnings: string[] = [];
	let text: string;
	try {
		const info = await stat(file);
		if (!info.isFile()) throw new Error(`--token-file ${file} is not a regular file`);
		if (info.size > MAX_TOKEN_FILE_BYTES) throw new Error(`--token-file ${file} is too large to hold a token`);
		if ((info.mode & 0o077) !== 0) {
			const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
			// The fix early in the line (a dashboard's events pane shows one line of it): the path once, in the command.
			warnings.push(`--token-file can be read by other users (mode ${mode}): chmod 600 ${file}`);
		}
		text = await readFile(file, 'utf8');
	} catch (error) {
		if (error instanceof Error && error.message.startsWith('--token-file')) throw error;
		const code = (error as NodeJS.ErrnoException).code ?? 'error';
		const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : code;
		throw new Error(`cannot read --token-file ${file}: ${reason}`, {cause: error});
	}
	const token = text.replace(/[\r\n]+$/, '');
	if (token === '') warnings.push(`--token-file ${file} is empty: no token will be sent`);
	return {token, warnings};
}

/** Picks the explicit token, if any. An empty RIGTOP_TOKEN, --token or token file counts as unset. */
export async function pickExplicitToken(input: {
	readonly tokenFile?: string | undefined;
	readonly tokenEnv?: string | undefined;
	readonly tokenFlag?: string | undefined;
	readonly cwd?: string | undefined;
}): Promise<ExplicitTokenResult> {
	const warnings: string[] = [];
	const problems: string[] = [];
	const given: string[] = [];
	let chosen: ExplicitToken | null = null;
	if (input.tokenFile !== undefined) {
		given.push('--token-file');
		const file = path.resolve(input.cwd ?? process.cwd(), input.tokenFile);
		try {
			const read = await readTokenFile(file);
			warnings.push(...read.warnings);
			if (read.token !== '') chosen = {token: read.token, source: {kind: 'flag', detail: `--token-file ${file}`}};
		} catch (error) {
			problems.push((error as Error).message);
		}
	}
	if (input.tokenEnv !== undefined && input.tokenEnv !== '') {
		given.push('RIGTOP_TOKEN');
		chosen ??= {token: input.tokenEnv, source: {kind: 'env', detail: 'RIGTOP_TOKEN'}};
	}
	if (input.tokenFlag !== undefined && input.tokenFlag !== '') {
		given.push('--token');
		warnings.push(
			'--token puts the access token where every user of this machine can see it (the process list); use --token-file or RIGTOP_TOKEN instead',
		);
		chosen ??= {token: input.tokenFlag, source: {kind: 'flag', detail: '--token'}};
	}
	if (given.length > 1 && chosen) {
		warnings.push(`a token was given ${given.length} ways (${given.join(', ')}); using the one from ${chosen.source.detail}`);
	}
	return {token: chosen, warnings, problems};
}
