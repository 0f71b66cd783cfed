import {DEFAULT_INTERVAL_MS} from '../monitor/poll-interval.js';
import leven from 'leven';
import {CommandSyntaxError, splitCommand} from '../alerts/argv.js';
import {normalizeMinerUrl, TargetError} from '../miner/target.js';
import {UsageError} from './errors.js';
import {DEFAULT_PAUSED_ALERT_MS} from '../monitor/events.js';
import {parseDuration} from './duration.js';

/** Flags as meow parsed them (only the ones rigtop reads). */
export type CliFlags = {
	readonly url?: readonly string[] | undefined;
	readonly tokenFile?: string | undefined;
	readonly token?: string | undefined;
	readonly config?: string | undefined;
	/** Seconds; default 2 (the exporter: 10). */
	readonly interval?: number | undefined;
	readonly demo: boolean;
	readonly once: boolean;
	readonly json: boolean;
	readonly where: boolean;
	readonly color: boolean;
	readonly readOnly: boolean;
	readonly rigs?: string | undefined;
	readonly bell?: boolean | undefined;
	readonly onAlert?: string | undefined;
	/** --no-history turns it off (meow: history false). */
	readonly history?: boolean | undefined;
	/** --paused-alert DURATION (default 10m; 0 never). */
	readonly pausedAlert?: string | undefined;
	/** --listen or --web.listen-address, repeatable. */
	readonly listen?: readonly string[] | undefined;
	readonly metrics?: string | undefined;
	readonly metricsTokenFile?: string | undefined;
	/** --web.config.file. */
	readonly webConfigFile?: string | undefined;
};

export type RunMode = 'live' | 'once' | 'where' | 'exporter';

/** Where the metrics endpoint listens (`rigtop exporter --listen`, or the live view's `--metrics`); checked when served. */
export type MetricsPlan = {
	/** One address or more (the exporter's --listen is repeatable). */
	readonly listen: readonly string[];
	readonly flag: '--listen' | '--metrics';
	readonly tokenFile: string | undefined;
	readonly webConfigFile: string | undefined;
};

export type RunPlan = {
	readonly mode: RunMode;
	readonly json: boolean;
	readonly color: boolean;
	readonly intervalMs: number;
	readonly readOnly: boolean;
	readonly demo: boolean;
	/** URLs as typed; discovery normalizes and checks them. */
	readonly urls: readonly string[];
	readonly tokenFile: string | undefined;
	readonly tokenFlag: string | undefined;
	readonly tokenEnv: string | undefined;
	readonly configPath: string | undefined;
	/** --rigs FILE: a JSON list of {name, url, tokenFile}. */
	readonly rigsFile: string | undefined;
	/** --bell: ring the terminal bell on an alert. */
	readonly bell: boolean;
	/** --on-alert CMD split into the program and its arguments (no shell), or null. */
	readonly onAlert: readonly string[] | null;
	/** Record polls and events in the history store (off with --no-history). */
	readonly history: boolean;
	/** --paused-alert: after how long a paused miner is an alert (ms; 0 never). */
	readonly pausedAlertMs: number;
	/** The metrics endpoint to serve: always for the exporter, with --metrics for the live view; else null. */
	readonly metrics: MetricsPlan | null;
	/** Lines for stderr before anything else (the non-terminal notice). */
	readonly notices: readonly string[];
};

export const MIN_INTERVAL_SECONDS = 0.25;
export const DEFAULT_INTERVAL_SECONDS = DEFAULT_INTERVAL_MS / 1000;
/** The exporter polls as often as XMRig's shortest hashrate window fills: more often adds nothing to a 15 s scrape. */
export const DEFAULT_EXPORTER_INTERVAL_SECONDS = 10;
/** `rigtop exporter` listens here unless --listen says otherwise (loopback: another address must be asked for). */
export const DEFAULT_EXPORTER_LISTEN = '127.0.0.1:9189';

export type PlanInputs = {
	readonly positional: readonly string[];
	readonly flags: CliFlags;
	readonly env: NodeJS.ProcessEnv;
	readonly stdinIsTty: boolean;
	readonly stdoutIsTty: boolean;
	/** `rigtop exporter …` (the word itself is not in `positional`). */
	readonly command?: 'exporter' | undefined;
};

/**
 * Whether to draw in colour: off with `--no-color` or a non-empty NO_COLOR (no-color.org; present but
 * empty does not count). Ink's colour layer looks only at FORCE_COLOR and the TTY, never at NO_COLOR.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, flag: boolean): boolean {
	if (!flag) return false;
	const noColor = env['NO_COLOR'];
	return noColor === undefined || noColor === '';
}

/** rigtop's commands, the first word after `rigtop`. */
const COMMANDS = ['history', 'config', 'exporter'] as const;

/**
 * The command a word that is no address is a typo of (`histroy` → history), or null. A word with a dot, a colon
 * or a slash is meant as an address, and keeps the message about what it lacks.
 */
export function closestCommand(word: string): string | null {
	if (/[.:/[\]]/.test(word)) return null;
	const typed = word.toLowerCase();
	let best: {command: string; distance: number} | null = null;
	for (const command of COMMANDS) {
		const distance = leven(typed, command);
		if (distance <= 2 && (best === null || distance < best.distance)) best = {command, distance};
	}

	return best?.command ?? null;
}

/** Turns parsed flags into what to run. Throws UsageError (exit 2) on bad usage. */
export function planRun(inputs: PlanInputs): RunPlan {
	const {flags} = inputs;
	const exporter = inputs.command === 'exporter';
	const interval = flags.interval ?? (exporter ? DEFAULT_EXPORTER_INTERVAL_SECONDS : DEFAULT_INTERVAL_SECONDS);
	if (!Number.isFinite(interval) || interval < MIN_INTERVAL_SECONDS) {
		throw new UsageError(`--interval must be a number of seconds, at least ${MIN_INTERVAL_SECONDS}`);
	}

	const urls = [...inputs.positional, ...(flags.url ?? [])];
	for (const url of urls) {
		try {
			normalizeMinerUrl(url);
		} catch (error) {
			const command = exporter || !inputs.positional.includes(url) ? null : closestCommand(url);
			if (command !== null) throw new UsageError(`unknown command '${url}': did you mean 'rigtop ${command}'?`);
			if (error instanceof TargetError) throw new UsageError(error.message);
			throw error;
		}
	}
	if (flags.demo && (urls.length > 0 || flags.config !== undefined || flags.rigs !== undefined)) {
		throw new UsageError('--demo watches the simulated miner; give either --demo or a miner (URL, --rigs or --config), not both');
	}

	if (flags.rigs !== undefined && flags.rigs.trim() === '') throw new UsageError('--rigs needs the path of a JSON file listing the rigs');
	const pausedAlertMs = flags.pausedAlert === undefined ? DEFAULT_PAUSED_ALERT_MS : parseDuration(flags.pausedAlert);
	if (pausedAlertMs === null) {
		throw new UsageError(`--paused-alert takes a duration such as 10m, 90s or 1h (0: never), not ${JSON.stringify(flags.pausedAlert)}`);
	}

	let onAlert: string[] | null = null;
	if (flags.onAlert !== undefined) {
		try {
			onAlert = splitCommand(flags.onAlert);
		} catch (error) {
			if (error instanceof CommandSyntaxError) throw new UsageError(`--on-alert: ${error.message}`);
			throw error;
		}
	}

	const notices: string[] = [];
	const metrics = planMetrics(flags, exporter);
	// --json is a --once format; asking for it alone means one JSON snapshot.
	let mode: RunMode = exporter ? 'exporter' : flags.where ? 'where' : flags.once || flags.json ? 'once' : 'live';
	if (metrics !== null && mode !== 'exporter' && mode !== 'live') {
		throw new UsageError("--metrics serves the live view's miners while it runs; for metrics without a screen, run rigtop exporter");
	}

	if (mode === 'live' && (!inputs.stdinIsTty || !inputs.stdoutIsTty)) {
		if (metrics !== null) {
			throw new UsageError(
				'--metrics serves while the live view runs, which needs a terminal; without one, run rigtop exporter --listen ADDR',
			);
		}

		mode = 'once';
		notices.push('not a terminal: printing one snapshot instead of the live dashboard (use --once to say so)');
	}

	const color = colorEnabled(inputs.env, flags.color);
	return {
		mode,
		json: flags.json,
		color,
		intervalMs: Math.round(interval * 1000),
		readOnly: flags.readOnly,
		demo: flags.demo,
		urls,
		tokenFile: flags.tokenFile,
		tokenFlag: flags.token,
		tokenEnv: inputs.env['RIGTOP_TOKEN'],
		configPath: flags.config,
		rigsFile: flags.rigs,
		bell: flags.bell === true,
		onAlert,
		history: flags.history !== false,
		pausedAlertMs,
		metrics,
		notices,
	};
}

/** The metrics endpoint the flags ask for, or null; UsageError for a flag that does not go with the command. */
function planMetrics(flags: CliFlags, exporter: boolean): MetricsPlan | null {
	const given = (value: string | undefined, flag: string): string | undefined => {
		if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs an address, HOST:PORT`);
		return value;
	};

	const listens = flags.listen === undefined || flags.listen.length === 0 ? undefined : flags.listen;
	for (const value of listens ?? []) given(value, '--listen');
	const metrics = given(flags.metrics, '--metrics');
	if (flags.metricsTokenFile !== undefined && flags.metricsTokenFile.trim() === '') {
		throw new UsageError('--metrics-token-file needs the path of a file holding the token');
	}

	if (flags.webConfigFile !== undefined && flags.webConfigFile.trim() === '') {
		throw new UsageError('--web.config.file needs the path of a web config file (TLS, basic auth)');
	}

	const webConfigFile = flags.webConfigFile;

	if (exporter) {
		if (metrics !== undefined) throw new UsageError('rigtop exporter serves on --listen ADDR; --metrics is for the live view');
		if (flags.once || flags.json || flags.where) {
			throw new UsageError('--once, --json and --where are for the live view; rigtop exporter serves until stopped');
		}

		if (flags.bell === true || flags.onAlert !== undefined) {
			throw new UsageError(
				"--bell and --on-alert are the live view's; the exporter's alerts are Prometheus's (docs/prometheus/alerts.yml)",
			);
		}

		return {listen: listens ?? [DEFAULT_EXPORTER_LISTEN], flag: '--listen', tokenFile: flags.metricsTokenFile, webConfigFile};
	}

	if (listens !== undefined) throw new UsageError('--listen is for rigtop exporter; the live view serves metrics with --metrics ADDR');
	if (metrics === undefined) {
		if (flags.metricsTokenFile !== undefined) throw new UsageError('--metrics-token-file protects --metrics ADDR or rigtop exporter');
		if (webConfigFile !== undefined) throw new UsageError('--web.config.file is for --metrics ADDR or rigtop exporter');
		return null;
	}

	return {listen: [metrics], flag: '--metrics', tokenFile: flags.metricsTokenFile, webConfigFile};
}
