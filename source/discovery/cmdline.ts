/**
 * Reads an XMRig command line the way XMRig does (glibc getopt_long: `--flag value`, `--flag=value`,
 * unambiguous prefixes such as `--conf`, `-c value`, `-cvalue`, grouped short flags, `--` ending the
 * options, non-options skipped) and keeps what matters to rigtop: the HTTP API options and the
 * config files, in order.
 *
 * XMRig (2.15.1+) turns the command line into a chain of JSON layers: the options before a
 * `-c FILE`, the file, the options after it, and so on. Each options layer here is a document in the
 * config-file shape (`{"http": {...}, "api": {...}}`) so that the chain can be resolved uniformly.
 */

import {cleanText} from '../text/clean.js';

/** Long options of XMRig 2.14 – 6.x (CPU miner, GPU forks) and xmrig-proxy that take a value. */
const LONG_WITH_VALUE = [
	'access-log-file',
	'access-password',
	'algo',
	'api-access-token',
	'api-id',
	'api-port',
	'api-worker-id',
	'argon2-impl',
	'asm',
	'av',
	'bench',
	'benchmark',
	'bind',
	'coin',
	'config',
	'cpu-affinity',
	'cpu-argon2-impl',
	'cpu-max-threads-hint',
	'cpu-memory-pool',
	'cpu-priority',
	'cuda-affinity',
	'cuda-bfactor-hint',
	'cuda-bsleep-hint',
	'cuda-devices',
	'cuda-launch',
	'cuda-loader',
	'cuda-max-threads',
	'custom-diff',
	'daemon-job-timeout',
	'daemon-poll-interval',
	'daemon-zmq-port',
	'data-dir',
	'dns-ttl',
	'donate-level',
	'donate-over-proxy',
	'hash',
	'health-print-time',
	'http-access-token',
	'http-host',
	'http-port',
	'hugepage-size',
	'log-file',
	'login-file',
	'max-cpu-usage',
	'mode',
	'opencl-affinity',
	'opencl-devices',
	'opencl-launch',
	'opencl-loader',
	'opencl-mem-chunk',
	'opencl-platform',
	'opencl-strided-index',
	'opencl-unroll-factor',
	'pass',
	'pause-on-active',
	'pool-coin',
	'print-time',
	'proxy',
	'randomx-init',
	'randomx-mode',
	'retries',
	'retry-pause',
	'reuse-timeout',
	'rig-id',
	'rotation',
	'seed',
	'self-select',
	'spend-secret-key',
	'threads',
	'title',
	'tls-bind',
	'tls-cert',
	'tls-cert-key',
	'tls-ciphers',
	'tls-ciphersuites',
	'tls-dhparam',
	'tls-fingerprint',
	'tls-gen',
	'tls-protocols',
	'token',
	'url',
	'user',
	'user-agent',
	'userpass',
	'variant',
	'verify',
	'workers',
];

/** Long options that take no value (or only an optional `=value`, which never consumes the next element). */
const LONG_WITHOUT_VALUE = [
	'1gb-pages',
	'api-ipv6',
	'api-no-restricted',
	'background',
	'cache-qos',
	'cpu-no-yield',
	'cuda',
	'custom-diff-stats',
	'daemon',
	'debug',
	'dns-ipv6',
	'dry-run',
	'http-enabled',
	'http-no-restricted',
	'huge-pages-jit',
	'hugepages-jit',
	'ipv4',
	'ipv6',
	'keepalive',
	'nicehash',
	'no-algo-ext',
	'no-color',
	'no-cpu',
	'no-dmi',
	'no-huge-pages',
	'no-hugepages',
	'no-nvml',
	'no-rdmsr',
	'no-title',
	'no-watch',
	'no-workers',
	'no-yield',
	'opencl',
	'opencl-no-cache',
	'pause-on-battery',
	'randomx-1gb-pages',
	'randomx-cache-qos',
	'randomx-no-numa',
	'randomx-no-rdmsr',
	'randomx-wrmsr',
	'safe',
	'stress',
	'submit',
	'submit-to-origin',
	'syslog',
	'tls',
	'verbose',
	'wrmsr',
];

/** Of those, the ones with an optional value (`--wrmsr=15`). */
const OPTIONAL_VALUE = new Set(['keepalive', 'randomx-wrmsr', 'wrmsr']);

const LONG_OPTIONS: ReadonlyMap<string, boolean> = new Map([
	...LONG_WITH_VALUE.map((name) => [name, true] as const),
	...LONG_WITHOUT_VALUE.map((name) => [name, false] as const),
]);

/** Short options of the miner (`a:c:kBp:Px:r:R:s:t:T:o:u:O:v:l:S46`, 6.x plus 2.x's -P) and of xmrig-proxy. */
const SHORT_OPTIONS = {
	miner: {withValue: new Set([...'acpxrRstTouOvl']), withoutValue: new Set([...'kBPS46'])},
	proxy: {withValue: new Set([...'cpxrRsTouOlbAaCmL']), withoutValue: new Set([...'khBPVS'])},
} as const;

const SHORT_TO_LONG: Readonly<Record<string, string>> = {c: 'config', o: 'url', p: 'pass', O: 'userpass', u: 'user'};

/** Options whose values are secrets: masked whenever a command line is shown. */
const SECRET_OPTIONS = new Set([
	'http-access-token',
	'api-access-token',
	'access-password',
	'pass',
	'userpass',
	'spend-secret-key',
	'token',
]);

/** One option as getopt_long returns it. */
export type ParsedOption = {
	/** Long name ('config', 'http-port', …); a short option with no long twin keeps its letter. */
	readonly name: string;
	readonly value: string | null;
	/** Index in argv of the option itself. */
	readonly index: number;
	/** Where the value is: in the same argv element (`--x=v`, `-cv`) or the next one. */
	readonly valueIndex: number | null;
};

function resolveLong(name: string): {name: string; takesValue: boolean} | null {
	const exact = LONG_OPTIONS.get(name);
	if (exact !== undefined) return {name, takesValue: exact};
	const matches = [...LONG_OPTIONS.entries()].filter(([candidate]) => candidate.startsWith(name));
	const first = matches[0];
	if (!first || matches.length !== 1) return null; // unknown or ambiguous: getopt prints an error and skips it
	return {name: first[0], takesValue: first[1]};
}

/** xmrig-proxy has its own short options; everything else (the miner, its forks, stand-ins) uses the miner's. */
function variantOf(argv: readonly string[]): 'miner' | 'proxy' {
	const program = (argv[0] ?? '').split('/').pop() ?? '';
	return /proxy/i.test(program) ? 'proxy' : 'miner';
}

/** The options of an argv (argv[0] is the program), in order, like glibc getopt_long with permutation. */
export function getoptLong(argv: readonly string[]): ParsedOption[] {
	const options: ParsedOption[] = [];
	const short = SHORT_OPTIONS[variantOf(argv)];
	for (let index = 1; index < argv.length; index++) {
		const arg = argv[index] ?? '';
		if (arg === '--') break;
		if (arg.startsWith('--')) {
			const equals = arg.indexOf('=');
			const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
			const resolved = resolveLong(name);
			if (!resolved) continue;
			if (equals !== -1) {
				// "option doesn't allow an argument": getopt reports an error and skips it.
				if (!resolved.takesValue && !OPTIONAL_VALUE.has(resolved.name)) continue;
				options.push({name: resolved.name, value: arg.slice(equals + 1), index, valueIndex: index});
			} else if (resolved.takesValue) {
				if (index + 1 >= argv.length) continue; // "requires an argument": an error
				options.push({name: resolved.name, value: argv[index + 1] ?? '', index, valueIndex: index + 1});
				index++;
			} else {
				options.push({name: resolved.name, value: null, index, valueIndex: null});
			}
			continue;
		}
		if (!arg.startsWith('-') || arg.length < 2) continue; // a non-option (getopt permutes them to the end)
		for (let position = 1; position < arg.length; position++) {
			const letter = arg[position] ?? '';
			if (short.withoutValue.has(letter)) {
				options.push({name: SHORT_TO_LONG[letter] ?? letter, value: null, index, valueIndex: null});
				continue;
			}
			if (!short.withValue.has(letter)) continue; // unknown letter: an error, skipped
			const rest = arg.slice(position + 1);
			if (rest !== '') {
				options.push({name: SHORT_TO_LONG[letter] ?? letter, value: rest, index, valueIndex: index});
			} else if (index + 1 < argv.length) {
				options.push({name: SHORT_TO_LONG[letter] ?? letter, value: argv[index + 1] ?? '', index, valueIndex: index + 1});
				index++;
			}
			break;
		}
	}
	return options;
}

/** A layer of XMRig's config chain from the command line: options (as a config-shaped document) or a `-c` file. */
export type CmdlineLayer =
	{readonly kind: 'options'; readonly doc: Readonly<Record<string, unknown>>} | {readonly kind: 'config-file'; readonly path: string};

/** The API options of a command line, merged (a later option wins). */
export type CmdlineApiSettings = {
	readonly httpEnabled?: true;
	readonly httpHost?: string;
	readonly httpPort?: number;
	readonly httpToken?: string;
	readonly httpNoRestricted?: true;
	readonly apiPort?: number;
	readonly apiToken?: string;
	readonly apiIpv6?: true;
	readonly apiNoRestricted?: true;
};

export type XmrigCommandLine = {
	/** The chain layers in XMRig's order; empty option layers are left out, as XMRig's JsonChain does. */
	readonly layers: readonly CmdlineLayer[];
	/** Every `-c`/`--config` path, as written (relative paths are relative to the miner's working directory). */
	readonly configPaths: readonly string[];
	/** `--data-dir` / `-d` (6.x): where XMRig looks for its default config.json. */
	readonly dataDir: string | null;
	/** Whether a pool is given (`-o`/`--url`, or a benchmark): then XMRig needs no default config file. */
	readonly hasPool: boolean;
	readonly api: CmdlineApiSettings;
	/** Whether any `--http-*` option was given (then XMRig turns the API on). */
	readonly httpOptionGiven: boolean;
};

/** strtol(arg, nullptr, 10), as XMRig reads numeric options: C's isspace skips ASCII whitespace only (not NBSP, U+FEFF). */
function strtol(text: string): number {
	const match = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
	return match?.[1] ? Number.parseInt(match[1], 10) : 0;
}

function section(doc: Record<string, unknown>, name: string): Record<string, unknown> {
	const existing = doc[name];
	if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) return existing as Record<string, unknown>;
	const created: Record<string, unknown> = {};
	doc[name] = created;
	return created;
}

function pools(doc: Record<string, unknown>): Record<string, unknown>[] {
	const existing = doc['pools'];
	if (Array.isArray(existing)) return existing as Record<string, unknown>[];
	const created: Record<string, unknown>[] = [];
	doc['pools'] = created;
	return created;
}

/** Arguments::value("--data-dir", "-d"): the element after the first exact match (or `--data-dir=X`). */
function dataDirOf(argv: readonly string[]): string | null {
	for (let index = 1; index < argv.length; index++) {
		const arg = argv[index] ?? '';
		if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length);
		if ((arg === '--data-dir' || arg === '-d') && index + 1 < argv.length) return argv[index + 1] ?? null;
	}
	return null;
}

/** Parses an XMRig argv (argv[0] is the program, as in /proc/PID/cmdline). */
export function parseXmrigCommandLine(argv: readonly string[]): XmrigCommandLine {
	const layers: CmdlineLayer[] = [];
	const configPaths: string[] = [];
	const api: {-readonly [K in keyof CmdlineApiSettings]: CmdlineApiSettings[K]} = {};
	let doc: Record<string, unknown> = {};
	let hasPool = false;
	let httpOptionGiven = false;
	const flush = () => {
		if (Object.keys(doc).length > 0) layers.push({kind: 'options', doc});
		doc = {};
	};
	for (const option of getoptLong(argv)) {
		const value = option.value ?? '';
		switch (option.name) {
			case 'config':
				flush();
				layers.push({kind: 'config-file', path: value});
				configPaths.push(value);
				break;
			case 'url':
				hasPool = true;
				pools(doc).push({url: value});
				break;
			case 'stress':
			case 'bench':
			case 'benchmark':
				// A benchmark needs no pool from a config file either.
				hasPool = true;
				pools(doc).push({url: 'benchmark'});
				break;
			case 'http-enabled':
				httpOptionGiven = true;
				api.httpEnabled = true;
				break;
			case 'http-host':
				httpOptionGiven = true;
				api.httpHost = value;
				section(doc, 'http')['host'] = value;
				break;
			case 'http-port':
				httpOptionGiven = true;
				api.httpPort = strtol(value);
				section(doc, 'http')['port'] = strtol(value);
				break;
			case 'http-access-token':
				httpOptionGiven = true;
				api.httpToken = value;
				section(doc, 'http')['access-token'] = value;
				break;
			case 'http-no-restricted':
				httpOptionGiven = true;
				api.httpNoRestricted = true;
				section(doc, 'http')['restricted'] = false;
				break;
			case 'api-port':
				api.apiPort = strtol(value);
				section(doc, 'api')['port'] = strtol(value);
				break;
			case 'api-access-token':
				api.apiToken = value;
				section(doc, 'api')['access-token'] = value;
				break;
			case 'api-ipv6':
				api.apiIpv6 = true;
				section(doc, 'api')['ipv6'] = true;
				break;
			case 'api-no-restricted':
				api.apiNoRestricted = true;
				section(doc, 'api')['restricted'] = false;
				break;
			default:
				break;
		}
	}
	// BaseTransform::finalize: any --http-* option sets http.enabled in the last layer.
	if (httpOptionGiven) section(doc, 'http')['enabled'] = true;
	flush();
	return {layers, configPaths, dataDir: dataDirOf(argv), hasPool, api, httpOptionGiven};
}

/** argv with the values of secret options (tokens, pool passwords) replaced by `••••`. */
function maskSecretOptions(argv: readonly string[]): string[] {
	const masked = [...argv];
	for (const option of getoptLong(argv)) {
		if (!SECRET_OPTIONS.has(option.name) || option.valueIndex === null || option.value === null) continue;
		const element = masked[option.valueIndex] ?? '';
		if (option.valueIndex === option.index) {
			masked[option.valueIndex] = element.slice(0, element.length - option.value.length) + '••••';
		} else {
			masked[option.valueIndex] = '••••';
		}
	}
	return masked;
}

/** The word separators of a command line held in one element: ASCII space, tab and line feed. */
const ASCII_SPACE = /[ \t\n]/;
const ASCII_SPACES = /[ \t\n]+/;

/**
 * A command line fit to show: secret option values (access tokens, pool passwords) replaced by
 * `••••`, any of the given secrets masked wherever they appear, each element cleaned (cleanText: another process's
 * argv may hold escape sequences and invisible characters), and cut to `maxLength` characters.
 */
export function describeCommand(argv: readonly string[], options: {secrets?: readonly (string | null)[]; maxLength?: number} = {}): string {
	// An element with spaces is a command line of its own (sh -c "xmrig …", a process that rewrote its title): its
	// words are masked the same way. Split at ASCII spaces, tabs and line feeds only, as a shell does: JavaScript's \s
	// also takes U+FEFF, NBSP, U+2028 and U+3000, which would become plain spaces here instead of reaching cleanText,
	// which shows them (`xmrig\uFEFF` as `xmrig<FEFF>`).
	const masked = maskSecretOptions(argv).map((element) =>
		ASCII_SPACE.test(element) ? maskSecretOptions(element.split(ASCII_SPACES)).join(' ') : element,
	);
	const secrets = (options.secrets ?? []).filter((secret): secret is string => typeof secret === 'string' && secret.length >= 3);
	const maxLength = options.maxLength ?? 100;
	const text = masked
		.map((element) =>
			cleanText(
				secrets.reduce((current, secret) => current.split(secret).join('••••'), element),
				maxLength,
			),
		)
		.map((element) => (element === '' || /[\s"']/.test(element) ? JSON.stringify(element) : element))
		.join(' ');
	return cleanText(text, maxLength);
}
