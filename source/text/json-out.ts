import {escapeUnsafe, unicodeEscape} from './escape.js';

/**
 * THE JSON writer of everything rigtop writes as JSON for another program: `--once --json`, `history --json`, the
 * --on-alert hook's standard input, the exporter's `--log.format=json`, a batch's `--json`. JSON.stringify, then every
 * character escape.ts names (C0, DEL, C1, bidi controls, U+2028/2029, stray invisibles) written as `\uXXXX`: the same
 * document to a parser, and no terminal control in its bytes. JSON.stringify writes those characters only inside
 * strings, where an escape means the character itself, but for the line feeds of its indentation (a line feed inside
 * a string it writes `\n` itself).
 */
export function jsonText(value: unknown, space?: string | number): string {
	const text = JSON.stringify(value, null, space) as string | undefined;
	if (text === undefined) throw new TypeError('jsonText: the value has no JSON form');
	return escapeUnsafe(text, unicodeEscape, true);
}
