/**
 * Checks the command line against rigtop's flags before meow reads it, so that a mistake is a usage error
 * (exit 2) with a one-line message instead of something meow lets through: a flag whose value is missing
 * (`rigtop -i`, a trailing `--interval`, `--token-file` followed by another flag) would otherwise fall back to
 * its default or swallow the next flag, and an unknown flag gets meow's bare "Unknown flag".
 */
import {escapeUnsafe} from '../text/escape.js';
import {jsonText} from '../text/json-out.js';

/** What meow needs to know of a flag (the subset of its flag options rigtop uses). */
export type FlagSpec = {
	readonly type: 'string' | 'number' | 'boolean';
	readonly shortFlag?: string;
	readonly isMultiple?: boolean;
	readonly default?: unknown;
};

/** What each value-taking flag's value is, for the message. */
export type ValueHints = Readonly<Record<string, string>>;

const kebab = (name: string) => name.replaceAll(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * Prometheus exporters' spellings of rigtop's flags (node_exporter's `--web.listen-address`, `--web.config.file`,
 * `--log.format`, `--log.level`), as meow cannot read dotted names.
 */
const PROMETHEUS_SPELLINGS: Readonly<Record<string, string>> = {
	'--web.listen-address': '--listen',
	'--web.config.file': '--web-config-file',
	'--log.format': '--log-format',
	'--log.level': '--log-level',
};

/** A word that is a flag rather than a value (a lone "-" and negative numbers are values). */
const isFlagWord = (word: string) => word.startsWith('-') && word !== '-' && !/^-\d/.test(word);

/**
 * The first problem with `argv` (process.argv without node and the script), or null. Flags meow adds itself
 * (--help, --version) count as known.
 */
export function checkArgv(
	argv: readonly string[],
	flags: Readonly<Record<string, FlagSpec>>,
	hints: ValueHints = {},
	aliases: Readonly<Record<string, string>> = PROMETHEUS_SPELLINGS,
): string | null {
	const byLong = new Map<string, [string, FlagSpec]>();
	const byShort = new Map<string, [string, FlagSpec]>();
	for (const [name, spec] of Object.entries(flags)) {
		byLong.set(kebab(name), [name, spec]);
		if (spec.shortFlag !== undefined) byShort.set(spec.shortFlag, [name, spec]);
	}

	for (const [alias, own] of Object.entries(aliases)) {
		const found = byLong.get(own.slice(2));
		if (found) byLong.set(alias.slice(2), found);
	}

	for (const builtIn of ['help', 'version']) if (!byLong.has(builtIn)) byLong.set(builtIn, [builtIn, {type: 'boolean'}]);

	for (let index = 0; index < argv.length; index++) {
		const word = argv[index] ?? '';
		if (word === '--') return null;
		if (!isFlagWord(word)) continue;
		const long = word.startsWith('--');
		const body = long ? word.slice(2) : word.slice(1);
		const equals = body.indexOf('=');
		const name = long ? (equals === -1 ? body : body.slice(0, equals)) : body.slice(0, 1);
		const inline = long ? (equals === -1 ? null : body.slice(equals + 1)) : body.length > 1 ? body.slice(1).replace(/^=/, '') : null;
		const found = long ? byLong.get(name) : byShort.get(name);
		// --no-color and the like: the negation of a boolean flag.
		if (!found && long && name.startsWith('no-')) {
			const negated = byLong.get(name.slice(3));
			if (negated?.[1].type === 'boolean' && inline === null) continue;
		}

		if (!found) return `unknown flag ${escapeUnsafe(long ? `--${name}` : `-${name}`)}`;
		const [key, spec] = found;
		const shown = escapeUnsafe(long ? `--${name}` : `-${name}`);
		if (spec.type === 'boolean') {
			if (inline !== null && inline !== 'true' && inline !== 'false')
				return `${shown} takes no value (got ${jsonText(inline.slice(0, 40))})`;
			continue;
		}

		const value = inline ?? argv[index + 1];
		const hint = hints[key] === undefined ? '' : ` (${hints[key]})`;
		if (value === undefined || value === '' || (inline === null && isFlagWord(value))) return `${shown} needs a value${hint}`;
		if (inline === null) index += 1;
		if (spec.type === 'number' && !Number.isFinite(Number(value)))
			return `${shown} needs a number${hint}, not ${jsonText(value.slice(0, 40))}`;
	}

	return null;
}

/**
 * Whether the command line asks for the help or the version, wherever the flag stands (meow acts on them only when
 * they are the whole command line): `rigtop exporter --help`, `rigtop --help 10.0.0.5:8080`. The help wins over the
 * version; nothing after `--` counts.
 */
export function askedFor(argv: readonly string[]): 'help' | 'version' | null {
	const end = argv.indexOf('--');
	const words = end === -1 ? argv : argv.slice(0, end);
	if (words.some((word) => word === '--help' || word === '-h' || word === '--help=true')) return 'help';
	if (words.some((word) => word === '--version' || word === '--version=true')) return 'version';
	return null;
}

/** `--demo=proxy` as `--demo proxy`: meow reads --demo as a boolean, and cli/options.ts takes the word after it. */
export function demoSpelling(argv: readonly string[]): string[] {
	const end = argv.indexOf('--');
	return argv.flatMap((word, index) => (word === '--demo=proxy' && (end === -1 || index < end) ? ['--demo', 'proxy'] : [word]));
}

/** `argv` with the exporter-style spellings (also `--web.listen-address=ADDR`, `--log.level=debug`) turned into rigtop's own flags. */
export function prometheusSpellings(argv: readonly string[]): string[] {
	const end = argv.indexOf('--');
	return argv.map((word, index) => {
		if (end !== -1 && index > end) return word;
		const equals = word.indexOf('=');
		const name = equals === -1 ? word : word.slice(0, equals);
		const own = PROMETHEUS_SPELLINGS[name];
		return own === undefined ? word : own + word.slice(name.length);
	});
}
