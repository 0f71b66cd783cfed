import process from 'node:process';
import {UsageError} from '../session/errors.js';
import {escapeUnsafe} from '../text/escape.js';
import {jsonText} from '../text/json-out.js';

/**
 * The exporter's log: one line per event on stderr, each with a time and a level, in logfmt
 * (`ts=2026-11-26T07:00:00.000Z level=info msg="serving …" miners=3`) or JSON, as Prometheus's own components write
 * theirs (`--log.format`, `--log.level`). What goes in a line is a message and a few fields named by the caller;
 * tokens and passwords never reach it (the messages name miners and files, never their content).
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['logfmt', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type LogFields = Readonly<Record<string, string | number | boolean>>;

export type Logger = Readonly<Record<LogLevel, (message: string, fields?: LogFields) => void>>;

export type LoggerOptions = {
	readonly format: LogFormat;
	/** The lowest level written. */
	readonly level: LogLevel;
	readonly write: (line: string) => void;
	readonly now?: () => Date;
};

/** --log.format and --log.level as typed (undefined: logfmt, info); UsageError for anything else. */
export function logSettings(format: string | undefined, level: string | undefined): {format: LogFormat; level: LogLevel} {
	const pick = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, flag: string): T => {
		if (value === undefined) return fallback;
		const found = allowed.find((one) => one === value.trim().toLowerCase());
		if (found === undefined) throw new UsageError(`${flag} ${jsonText(value)}: write ${allowed.join(', ')}`);
		return found;
	};

	return {format: pick(format, LOG_FORMATS, 'logfmt', '--log.format'), level: pick(level, LOG_LEVELS, 'info', '--log.level')};
}

/**
 * A logfmt value: bare when it is printable ASCII with no `"`, `=` or `\`, else quoted, with `\`, `"`, `\n`, `\r`
 * and `\t` escaped and every other control character (C0, DEL, C1, bidi, U+2028/2029, stray invisibles:
 * text/escape.ts) written `\u001b` as go-logfmt writes it, so a line holds no terminal control whatever a miner sent.
 */
function logfmtValue(value: string | number | boolean): string {
	const text = String(value);
	if (text !== '' && !/["=\\]/.test(text) && /^[\x21-\x7e]+$/.test(text)) return text;
	const quoted = text.replaceAll(/[\\"\n\r\t]/g, (char) => ({'\n': '\\n', '\r': '\\r', '\t': '\\t'})[char] ?? `\\${char}`);
	return `"${escapeUnsafe(quoted)}"`;
}

export function createLogger(options: LoggerOptions): Logger {
	const lowest = LOG_LEVELS.indexOf(options.level);
	const now = options.now ?? (() => new Date());
	const line = (level: LogLevel, message: string, fields: LogFields = {}) => {
		if (LOG_LEVELS.indexOf(level) < lowest) return;
		const ts = now().toISOString();
		if (options.format === 'json') {
			options.write(`${jsonText({ts, level, msg: message, ...fields})}\n`);
			return;
		}

		const parts = [`ts=${ts}`, `level=${level}`, `msg=${logfmtValue(message)}`];
		for (const [key, value] of Object.entries(fields)) parts.push(`${key}=${logfmtValue(value)}`);
		options.write(`${parts.join(' ')}\n`);
	};

	return {
		debug: (message, fields) => line('debug', message, fields),
		info: (message, fields) => line('info', message, fields),
		warn: (message, fields) => line('warn', message, fields),
		error: (message, fields) => line('error', message, fields),
	};
}

/** The exporter's logger on stderr, from --log.format and --log.level as typed (UsageError for a bad one). */
export function exporterLogger(format: string | undefined, level: string | undefined): Logger {
	return createLogger({...logSettings(format, level), write: (line) => process.stderr.write(line)});
}
