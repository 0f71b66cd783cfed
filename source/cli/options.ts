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
	readonly interval: number;
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
};

export type RunMode = 'live' | 'once' | 'where';

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
	/** Lines for stderr before anything else (the non-terminal notice). */
	readonly notices: readonly string[];
};

export const MIN_INTERVAL_SECONDS = 0.25;

export type PlanInputs = {
	readonly positional: readonly string[];
	readonly flags: CliFlags;
	readonly env: NodeJS.ProcessEnv;
	readonly stdinIsTty: boolean;
	readonly stdoutIsTty: boolean;
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

/** Turns parsed flags into what to run. Throws UsageError (exit 2) on bad usage. */
export function planRun(inputs: PlanInputs): RunPlan {
	const {flags} = inputs;
	if (!Number.isFinite(flags.interval) || flags.interval < MIN_INTERVAL_SECONDS) {
		throw new UsageError(`--interval must be a number of seconds, at least ${MIN_INTERVAL_SECONDS}`);
	}

	const urls = [...inputs.positional, ...(flags.url ?? [])];
	for (const url of urls) {
		try {
			normalizeMinerUrl(url);
		} catch (error) {
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
	// --json is a --once format; asking for it alone means one JSON snapshot.
	let mode: RunMode = flags.where ? 'where' : flags.once || flags.json ? 'once' : 'live';
	if (mode === 'live' && (!inputs.stdinIsTty || !inputs.stdoutIsTty)) {
		mode = 'once';
		notices.push('not a terminal: printing one snapshot instead of the live dashboard (use --once to say so)');
	}

	const color = colorEnabled(inputs.env, flags.color);
	return {
		mode,
		json: flags.json,
		color,
		intervalMs: Math.round(flags.interval * 1000),
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
		notices,
	};
}
