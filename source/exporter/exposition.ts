import {escapeUnsafe, unicodeEscape} from '../text/escape.js';
import type {Family} from './families.js';

/**
 * The exposition writer: the Prometheus text format 0.0.4 and OpenMetrics 1.0.0, written by hand rather than with
 * prom-client. Measured (bench/exposition.bench.mjs, 1000 miners, 53,000 series): prom-client's registry takes about
 * 100 ms to write one scrape (170 ms on a busy machine) where this takes 5-7 ms (the scrape goal is < 100 ms at the
 * median), and prom-client 15 renames a counter in place when a registry writes OpenMetrics, so one set of metrics
 * cannot serve both formats.
 * docs/prometheus/README.md has the figures. Its output is checked by the real `promtool check metrics` and ingested
 * by a real Prometheus in the tests.
 *
 * The two formats differ only in a counter's family name (`foo_total` in the text format, `foo` in OpenMetrics; the
 * samples are `foo_total` in both), the content type and OpenMetrics' closing `# EOF`, so the sample lines are
 * written once and shared.
 */

export type Format = 'text' | 'openmetrics';

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
	text: 'text/plain; version=0.0.4; charset=utf-8',
	openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
};

/**
 * A label value as both formats want it: backslash, double quote and line feed escaped. The formats have no other
 * escape, so any other control character (C0, DEL, C1, bidi, stray invisibles: text/escape.ts), which the readers
 * removed where a miner's text entered, is written as the visible text `\u001b` (`\\u001b`): no scrape holds a
 * control byte. Printable ASCII, nearly every value, is looked at once.
 */
export function escapeLabelValue(value: string): string {
	if (/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(value)) return value;
	const escaped = value.replaceAll(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
	return escapeUnsafe(escaped, (char) => unicodeEscape(char).replaceAll('\\', '\\\\'));
}

/** HELP text: backslash and line feed escaped. */
function escapeHelp(text: string): string {
	return text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

/** A sample value: finite numbers only (the callers leave out what is unknown). */
export function formatValue(value: number): string {
	return Object.is(value, -0) ? '0' : String(value);
}

/**
 * One sample line, with its line feed. `names` and `values` pair up. Built with join() so that the line is one flat
 * string: it is kept until the miner's next poll, and a line built with `+` would be a rope of a dozen heap objects.
 */
export function sampleLine(family: Family, names: readonly string[], values: readonly string[], value: number): string {
	const parts: string[] = [family.sample];
	for (let index = 0; index < names.length; index++) {
		parts.push(index === 0 ? '{' : ',', names[index]!, '="', escapeLabelValue(values[index] ?? ''), '"');
	}

	parts.push(names.length === 0 ? ' ' : '} ', formatValue(value), '\n');
	return parts.join('');
}

/** The HELP and TYPE lines of a family in a format. */
export function familyHeader(family: Family, format: Format): string {
	const name = format === 'text' ? family.sample : family.name;
	return `# HELP ${name} ${escapeHelp(family.help)}\n# TYPE ${name} ${family.type}\n`;
}

/**
 * Writes a whole exposition from sources that each hold, per family (by index in `families`), the sample lines they
 * have ('' for none). A family no source has a sample of is left out.
 */
export function writeExposition(families: readonly Family[], sources: Iterable<readonly string[]>, format: Format): string {
	const list = [...sources];
	const parts: string[] = [];
	for (const [index, family] of families.entries()) {
		let any = false;
		for (const fragments of list) {
			const lines = fragments[index];
			if (lines === undefined || lines === '') continue;
			if (!any) parts.push(familyHeader(family, format));
			any = true;
			parts.push(lines);
		}
	}

	if (format === 'openmetrics') parts.push('# EOF\n');
	return parts.join('');
}

/**
 * The format a scraper asked for in its Accept header: OpenMetrics when it accepts
 * `application/openmetrics-text` (version 1.0.0 or unversioned) at least as much as the text format, else text.
 * Prometheus sends `application/openmetrics-text;version=1.0.0,…;q=0.75,text/plain;version=0.0.4;q=0.5,*\/*;q=0.1`.
 */
export function negotiateFormat(accept: string | undefined): Format {
	if (accept === undefined || accept === '') return 'text';
	let openMetrics = 0;
	let text = 0;
	for (const range of accept.split(',')) {
		const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
		let q = 1;
		let version: string | null = null;
		for (const parameter of parameters) {
			const [key, value = ''] = parameter.split('=').map((part) => part.trim());
			if (key === 'q') q = Number.parseFloat(value);
			if (key === 'version') version = value;
		}

		if (!Number.isFinite(q)) continue;
		if (type === 'application/openmetrics-text' && (version === null || version === '1.0.0')) openMetrics = Math.max(openMetrics, q);
		if (type === 'text/plain' || type === 'text/*' || type === '*/*') text = Math.max(text, q);
	}

	return openMetrics > 0 && openMetrics >= text ? 'openmetrics' : 'text';
}
