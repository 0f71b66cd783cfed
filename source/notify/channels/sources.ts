import fs from 'node:fs';
import type {Channel} from '../types.js';
import {DEFAULT_BASES, type ServiceBases} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {parseHeartbeat, type Heartbeat} from './heartbeat.js';
import {parseChannel} from './parse.js';

/**
 * Where the channels' URLs come from: a --notify-file (one URL a line, '#' comments and blank lines skipped,
 * `heartbeat URL` naming the dead man's switch), the environment's RIGTOP_NOTIFY (URLs separated by whitespace),
 * and --notify / --heartbeat on the command line (the command warns about those, as it does about --token). The file
 * is refused unless it is the user's own and no one else may read or write it (0600 or stricter), the way ssh refuses
 * a loose key. Every error is one line naming the file and the line, or the variable, never the URL.
 */

export const NOTIFY_ENV = 'RIGTOP_NOTIFY';

export type NotifySourceOptions = {
	/** --notify-file PATH. */
	readonly file?: string;
	/** The environment (RIGTOP_NOTIFY is read from it); default none. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** --notify URL, each. */
	readonly urls?: readonly string[];
	/** --heartbeat URL (wins over the file's). */
	readonly heartbeat?: string;
	/** The hosted services' base URLs (tests only). */
	readonly bases?: ServiceBases;
};

export type NotifySources = {
	/** Each channel once (the same URL given twice is one channel). */
	readonly channels: readonly Channel[];
	readonly heartbeat: Heartbeat | undefined;
};

/** Throws unless the file is the user's own regular file that only the user may read and write. */
export function checkNotifyFileMode(file: string): void {
	let stat: fs.Stats;
	try {
		stat = fs.statSync(file);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new NotifyUsageError(
			code === 'ENOENT' ? `notify file ${file}: no such file` : `notify file ${file}: cannot be read (${code ?? 'error'})`,
		);
	}
	if (!stat.isFile()) throw new NotifyUsageError(`notify file ${file}: not a regular file`);
	const uid = process.getuid?.();
	if (uid !== undefined && stat.uid !== uid)
		throw new NotifyUsageError(`notify file ${file}: belongs to another user (uid ${stat.uid}); it holds tokens, so it must be your own`);
	const mode = stat.mode & 0o777;
	if ((mode & 0o077) !== 0) {
		const mode4 = mode.toString(8).padStart(4, '0');
		throw new NotifyUsageError(`notify file ${file}: others may read it (mode ${mode4}); it holds tokens: run chmod 600 ${file}`);
	}
}

/** Re-words a parse error with where the URL came from (its message names no secret). */
function at(where: string, make: () => void): void {
	try {
		make();
	} catch (error) {
		if (error instanceof NotifyUsageError) throw new NotifyUsageError(`${where}: ${error.message}`);
		throw error;
	}
}

/** Reads every source of notify URLs into channels and the heartbeat. */
export function readNotifySources(options: NotifySourceOptions): NotifySources {
	const bases = options.bases ?? DEFAULT_BASES;
	const channels = new Map<string, Channel>();
	let heartbeat: Heartbeat | undefined;
	let heartbeatWhere: string | undefined;
	const add = (url: string, where: string): void =>
		at(where, () => {
			const channel = parseChannel(url, bases);
			if (!channels.has(channel.id)) channels.set(channel.id, channel);
		});
	if (options.file !== undefined) {
		const file = options.file;
		checkNotifyFileMode(file);
		let text: string;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch (error) {
			throw new NotifyUsageError(`notify file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
		}
		const lines = text.split(/\r?\n/);
		for (const [index, raw] of lines.entries()) {
			const line = raw.trim();
			if (line === '' || line.startsWith('#')) continue;
			const where = `${file} line ${index + 1}`;
			const beat = /^heartbeat(?:\s+(.*))?$/i.exec(line);
			if (beat) {
				const url = beat[1]?.trim();
				if (!url) throw new NotifyUsageError(`${where}: 'heartbeat' wants its URL after it`);
				if (heartbeatWhere !== undefined)
					throw new NotifyUsageError(`${where}: a second heartbeat (the first is on ${heartbeatWhere.replace(`${file} `, '')})`);
				at(where, () => {
					heartbeat = parseHeartbeat(url);
				});
				heartbeatWhere = where;
				continue;
			}
			if (/\s/.test(line)) throw new NotifyUsageError(`${where}: one URL a line (this line holds spaces)`);
			add(line, where);
		}
	}
	const fromEnv = options.env?.[NOTIFY_ENV]?.trim();
	if (fromEnv) {
		const urls = fromEnv.split(/\s+/);
		for (const [index, url] of urls.entries()) add(url, `${NOTIFY_ENV} (URL ${index + 1} of ${urls.length})`);
	}
	for (const [index, url] of (options.urls ?? []).entries()) add(url, `--notify (the ${ordinal(index + 1)})`);
	if (options.heartbeat !== undefined)
		at('--heartbeat', () => {
			heartbeat = parseHeartbeat(options.heartbeat ?? '');
		});
	return {channels: [...channels.values()], heartbeat};
}

function ordinal(n: number): string {
	const tens = n % 100;
	const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}
