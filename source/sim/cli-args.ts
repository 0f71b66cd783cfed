/**
 * Command-line options of the simulator executable (dist/xmrig-sim.js): the XMRig options that matter to
 * the HTTP API, in the forms XMRig's getopt accepts (`-c PATH`, `-cPATH`, `--config=PATH`, `--config PATH`),
 * plus `--sim-*` options of its own. Unknown options are reported and ignored, as XMRig does.
 */
import {isSimDialect, type SimDialect} from './dialect.js';

export type SimCliOptions = {
	readonly configPath: string | null;
	readonly httpHost: string | null;
	readonly httpPort: number | null;
	/** undefined = not given. */
	readonly httpToken: string | undefined;
	readonly httpNoRestricted: boolean;
	/** Any --http-* option given (since XMRig 4.1 that alone turns the API on). */
	readonly httpOption: boolean;
	readonly apiPort: number | null;
	readonly apiToken: string | undefined;
	readonly apiNoRestricted: boolean;
	readonly workerId: string | null;
	readonly threads: number | null;
	readonly dialect: SimDialect | null;
	readonly warm: boolean;
	/** --sim-kind: a miner (default) or an xmrig-proxy. */
	readonly kind: 'miner' | 'proxy';
	/** --sim-workers: how many miners a simulated proxy starts with. */
	readonly workers: number | null;
	readonly seed: number | null;
	/** --sim-mac: the simulated machine's MAC address (its API id derives from it, the port and the kind). */
	readonly mac: string | null;
	readonly timeScale: number | null;
	/** --sim-sysfs: a folder to write a simulated sysfs into (sim/sysfs-tree.ts), for rigtop's RIGTOP_SYSFS. */
	readonly sysfs: string | null;
	/** -h/--help: print the usage and exit, as XMRig does. */
	readonly help: boolean;
	/** -V/--version: print the version and exit, as XMRig does. */
	readonly version: boolean;
	/** Unknown or malformed options that were ignored. */
	readonly warnings: readonly string[];
};

type Spec = {readonly value: boolean};
const OPTIONS: Readonly<Record<string, Spec>> = {
	config: {value: true},
	'http-host': {value: true},
	'http-port': {value: true},
	'http-access-token': {value: true},
	'http-no-restricted': {value: false},
	'http-enabled': {value: false},
	'api-port': {value: true},
	'api-access-token': {value: true},
	'api-no-restricted': {value: false},
	'api-worker-id': {value: true},
	'api-id': {value: true},
	threads: {value: true},
	'sim-dialect': {value: true},
	'sim-warm': {value: false},
	'sim-kind': {value: true},
	'sim-workers': {value: true},
	'sim-seed': {value: true},
	'sim-mac': {value: true},
	'sim-time-scale': {value: true},
	'sim-sysfs': {value: true},
	help: {value: false},
	version: {value: false},
};
const SHORT: Readonly<Record<string, string>> = {c: 'config', t: 'threads', h: 'help', V: 'version'};

/** What `xmrig-sim --help` prints: the XMRig options it understands, then its own. */
export const SIM_USAGE = `Usage: xmrig-sim [OPTIONS]

A simulated XMRig miner: its HTTP API, as real miners of the chosen version answer it.

XMRig options it understands:
  -c, --config=FILE             load a JSON-format configuration file
  -t, --threads=N               number of CPU threads
      --http-host=HOST          bind host for HTTP API (default: 127.0.0.1)
      --http-port=N             bind port for HTTP API (0: a free port)
      --http-access-token=T     access token for HTTP API
      --http-no-restricted      enable full remote access to HTTP API (only if access token set)
      --http-enabled            enable the HTTP API
      --api-port=N              the HTTP API port of XMRig 2.x (the older api layout)
      --api-access-token=T      the access token of XMRig 2.x
      --api-no-restricted       full remote access, XMRig 2.x
      --api-worker-id=ID        custom worker-id for API
      --api-id=ID               custom instance ID for API
  -h, --help                    display this help and exit
  -V, --version                 output version information and exit

Simulator options:
      --sim-dialect=D           6 (6.23+), 5 (5.x to 6.22), 2 (2.15, 2.16), 2.14 (2.6 to 2.14); default 6,
                                or 2.14 for a config file in the older api layout
      --sim-kind=K              miner (default) or proxy: an xmrig-proxy 6.26 with miners behind it
      --sim-workers=N           proxy: how many miners connect at the start (default 6)
      --sim-warm                start as a miner (or proxy) that has been up for days (windows full, shares, pool up)
      --sim-seed=N              deterministic randomness
      --sim-mac=MAC             the machine's MAC address (the API id derives from it, the port and the kind,
                                as XMRig's does); default one of the worker id's
      --sim-time-scale=X        simulated seconds per real second (default 1)
      --sim-sysfs=DIR           write a simulated sysfs (k10temp, cpufreq, powercap) into DIR, updated every
                                second, for rigtop's RIGTOP_SYSFS=DIR
`;

const MAC = /^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/;

export type ParsedArgs = {readonly ok: true; readonly options: SimCliOptions} | {readonly ok: false; readonly error: string};

function port(text: string): number | null {
	if (!/^\d{1,5}$/.test(text)) return null;
	const value = Number(text);
	return value <= 65535 ? value : null;
}

export function parseSimArgs(argv: readonly string[]): ParsedArgs {
	const values = new Map<string, string>();
	const flags = new Set<string>();
	const warnings: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		let name: string | null = null;
		let inline: string | null = null;
		if (arg.startsWith('--')) {
			const eq = arg.indexOf('=');
			name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
			inline = eq === -1 ? null : arg.slice(eq + 1);
		} else if (arg.startsWith('-') && arg.length >= 2) {
			const long = SHORT[arg[1]!];
			if (long) {
				name = long;
				inline = arg.length > 2 ? arg.slice(2) : null;
			}
		}
		const spec = name === null ? undefined : OPTIONS[name];
		if (name === null || !spec) {
			warnings.push(`unrecognized option '${arg}'`);
			continue;
		}
		if (!spec.value) {
			flags.add(name);
			continue;
		}
		const value = inline ?? argv[i + 1];
		if (inline === null) i++;
		if (value === undefined) return {ok: false, error: `option '${arg}' requires an argument`};
		values.set(name, value);
	}

	const numberOption = (name: string, check: (n: number) => boolean): number | null | 'bad' => {
		const text = values.get(name);
		if (text === undefined) return null;
		const value = Number(text);
		return text.trim() !== '' && Number.isFinite(value) && check(value) ? value : 'bad';
	};
	const httpPortText = values.get('http-port');
	const apiPortText = values.get('api-port');
	const httpPort = httpPortText === undefined ? null : port(httpPortText);
	const apiPort = apiPortText === undefined ? null : port(apiPortText);
	if (httpPortText !== undefined && httpPort === null) return {ok: false, error: `invalid --http-port '${httpPortText}'`};
	if (apiPortText !== undefined && apiPort === null) return {ok: false, error: `invalid --api-port '${apiPortText}'`};
	const dialect = values.get('sim-dialect');
	if (dialect !== undefined && !isSimDialect(dialect)) return {ok: false, error: `unknown --sim-dialect '${dialect}' (6, 5, 2 or 2.14)`};
	const threads = numberOption('threads', (n) => Number.isInteger(n) && n > 0 && n <= 1024);
	const seed = numberOption('sim-seed', (n) => Number.isInteger(n));
	const timeScale = numberOption('sim-time-scale', (n) => n > 0);
	if (threads === 'bad') return {ok: false, error: 'invalid --threads'};
	if (seed === 'bad') return {ok: false, error: 'invalid --sim-seed'};
	const mac = values.get('sim-mac') ?? null;
	if (mac !== null && !MAC.test(mac)) return {ok: false, error: `invalid --sim-mac '${mac}' (six hex pairs, e.g. 02:00:00:00:00:01)`};
	if (timeScale === 'bad') return {ok: false, error: 'invalid --sim-time-scale'};
	const kind = values.get('sim-kind') ?? 'miner';
	if (kind !== 'miner' && kind !== 'proxy') return {ok: false, error: `unknown --sim-kind '${kind}' (miner or proxy)`};
	const workers = numberOption('sim-workers', (n) => Number.isInteger(n) && n >= 0 && n <= 10_000);
	if (workers === 'bad') return {ok: false, error: 'invalid --sim-workers'};

	return {
		ok: true,
		options: {
			configPath: values.get('config') ?? null,
			httpHost: values.get('http-host') ?? null,
			httpPort,
			httpToken: values.get('http-access-token'),
			httpNoRestricted: flags.has('http-no-restricted'),
			httpOption:
				values.has('http-host') ||
				values.has('http-port') ||
				values.has('http-access-token') ||
				flags.has('http-no-restricted') ||
				flags.has('http-enabled'),
			apiPort,
			apiToken: values.get('api-access-token'),
			apiNoRestricted: flags.has('api-no-restricted'),
			workerId: values.get('api-worker-id') ?? null,
			threads,
			dialect: dialect ?? null,
			warm: flags.has('sim-warm'),
			kind,
			workers,
			help: flags.has('help'),
			version: flags.has('version'),
			seed,
			mac,
			timeScale,
			sysfs: values.get('sim-sysfs') ?? null,
			warnings,
		},
	};
}
