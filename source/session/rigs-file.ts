/**
 * --rigs FILE: the rigs to watch, as JSON — a list of {"name", "url", "tokenFile"}:
 *
 *   [
 *     {"name": "rig-01", "url": "10.0.0.5:8080", "tokenFile": "tokens/rig-01"},
 *     {"name": "rig-02", "url": "http://10.0.0.6:8080"}
 *   ]
 *
 * `url` is required (host:port or http://host:port); `name` is shown instead of the worker id; `kind` ("miner" or
 * "proxy", for an xmrig-proxy) says what it is before it answers (its answer wins: no key is needed for a proxy);
 * `tokenFile` is read like --token-file, relative to the rigs file's folder. A rig without a
 * tokenFile uses the token given to rigtop (--token-file, RIGTOP_TOKEN), if any. Tokens themselves
 * never go in this file: a "token" key is refused. Anything else wrong is a UsageError naming the
 * rig, so a typo ("tokenfile") never silently drops a token.
 */
import {readFile, stat} from 'node:fs/promises';
import path from 'node:path';
import {readTokenFile} from '../discovery/token-source.js';
import {cleanText} from '../text/clean.js';
import {normalizeMinerUrl} from '../miner/target.js';
import {UsageError} from './errors.js';
import {jsonText} from '../text/json-out.js';

export type RigEntry = {
	/** Canonical base URL. */
	readonly url: string;
	readonly name: string | undefined;
	/** Absolute path of the rig's token file. */
	readonly tokenFile: string | undefined;
	/** What the file says it is; undefined: found from its answer. */
	readonly kind?: RigKind | undefined;
};

/** A miner, or an xmrig-proxy. */
export type RigKind = 'miner' | 'proxy';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_RIGS = 2000;
/** A rig's name is cut to this many characters (ending in "…"). */
const MAX_NAME = 200;
const KEYS = new Set(['name', 'url', 'tokenFile', 'kind']);

function describe(index: number, entry: unknown): string {
	const name =
		typeof entry === 'object' && entry !== null && typeof (entry as {name?: unknown}).name === 'string'
			? (entry as {name: string}).name
			: null;
	// Cleaned as any text from outside (an escape sequence never reaches the terminal), then quoted.
	const shown = name === null ? '' : cleanText(name, 60);
	return shown === '' ? `rig ${index + 1}` : `rig ${index + 1} (${jsonText(shown)})`;
}

/** Reads and checks the rigs file. Throws UsageError with the file and the rig named. */
export async function readRigsFile(file: string, cwd: string = process.cwd()): Promise<RigEntry[]> {
	const absolute = path.resolve(cwd, file);
	let text: string;
	try {
		const info = await stat(absolute);
		if (!info.isFile()) throw new UsageError(`--rigs ${absolute} is not a regular file`);
		if (info.size > MAX_FILE_BYTES) throw new UsageError(`--rigs ${absolute} is too large for a list of rigs`);
		text = await readFile(absolute, 'utf8');
		// An editor's byte-order mark is not JSON; the miner's config reader drops it too.
		if (text.startsWith('\uFEFF')) text = text.slice(1);
	} catch (error) {
		if (error instanceof UsageError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		const reason = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : (code ?? 'error');
		throw new UsageError(`cannot read --rigs ${absolute}: ${reason}`);
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		// Where it goes wrong, in one line (JSON.parse's message quotes the text, newlines and all); loaded only here.
		const {jsonProblem} = await import('../text/json-errors.js');
		const where = jsonProblem(text);
		const fallback = `not valid JSON: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`;
		throw new UsageError(`--rigs ${absolute} is ${where ?? fallback}`);
	}

	const list = Array.isArray(parsed) ? parsed : null;
	if (list === null)
		throw new UsageError(
			`--rigs ${absolute} must hold a JSON list of rigs: [{"name": "rig-01", "url": "host:port", "tokenFile": "path"}, …]`,
		);
	if (list.length === 0) throw new UsageError(`--rigs ${absolute} lists no rigs`);
	if (list.length > MAX_RIGS) throw new UsageError(`--rigs ${absolute} lists ${list.length} rigs; at most ${MAX_RIGS}`);

	const folder = path.dirname(absolute);
	const rigs: RigEntry[] = [];
	list.forEach((entry: unknown, index) => {
		const which = `--rigs ${absolute}: ${describe(index, entry)}`;
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
			throw new UsageError(`${which} is not an object like {"url": "host:port"}`);
		const record = entry as Record<string, unknown>;
		if ('token' in record || 'accessToken' in record || 'access-token' in record) {
			throw new UsageError(`${which} holds a token; put it in a file of its own (chmod 600) and name that file with "tokenFile"`);
		}

		const unknown = Object.keys(record).filter((key) => !KEYS.has(key));
		if (unknown.length > 0)
			throw new UsageError(
				`${which} has unknown key${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => jsonText(cleanText(key, 60))).join(', ')}; the keys are "name", "url", "tokenFile" and "kind"`,
			);
		const {name, url, tokenFile, kind} = record;
		if (typeof url !== 'string') throw new UsageError(`${which} needs "url": "host:port"`);
		if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
			throw new UsageError(`${which}: "name" must be a non-empty string`);
		if (tokenFile !== undefined && (typeof tokenFile !== 'string' || tokenFile.trim() === ''))
			throw new UsageError(`${which}: "tokenFile" must be a path`);
		if (kind !== undefined && kind !== 'miner' && kind !== 'proxy')
			throw new UsageError(
				`${which}: "kind" must be "miner" or "proxy" (an xmrig-proxy), not ${jsonText(typeof kind === 'string' ? cleanText(kind, 60) : kind)}`,
			);
		let normalized: string;
		try {
			normalized = normalizeMinerUrl(url);
		} catch (error) {
			throw new UsageError(`${which}: ${error instanceof Error ? error.message : String(error)}`);
		}

		const twin = rigs.find((rig) => rig.url === normalized);
		if (twin) throw new UsageError(`${which} has the same url as another rig (${normalized})`);
		// A name is shown in tables and matched against words: cleaned as any text a miner sends (text/clean.ts), so
		// textWidth and cutText never meet a control character, and no two names look alike.
		const shown = typeof name === 'string' ? cleanText(name, MAX_NAME) : undefined;
		if (shown === '') throw new UsageError(`${which}: "name" must be a non-empty string`);
		const same = shown === undefined ? -1 : rigs.findIndex((rig) => rig.name === shown);
		if (same >= 0) throw new UsageError(`${which} has the same name as rig ${same + 1} (${jsonText(shown)}); each rig's name is its own`);
		rigs.push({
			url: normalized,
			name: shown,
			tokenFile: typeof tokenFile === 'string' ? path.resolve(folder, tokenFile) : undefined,
			...(kind === undefined ? {} : {kind}),
		});
	});
	return rigs;
}

/** Reads a rig's token file; problems name the rig, never the token. */
export async function readRigToken(rig: RigEntry, warn: (line: string) => void): Promise<string | null> {
	if (rig.tokenFile === undefined) return null;
	const label = rig.name ?? rig.url;
	try {
		const read = await readTokenFile(rig.tokenFile);
		for (const line of read.warnings) warn(`rig ${label}: ${line.replace('--token-file', 'tokenFile')}`);
		return read.token === '' ? null : read.token;
	} catch (error) {
		const message = error instanceof Error ? error.message.replace('--token-file', 'tokenFile') : String(error);
		throw new UsageError(`rig ${label}: ${message}`);
	}
}
