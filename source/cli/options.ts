import {DEFAULT_INTERVAL_MS} from '../monitor/poll-interval.js';
import {CommandSyntaxError, splitCommand} from '../alerts/argv.js';
import {looksLikeUrl, normalizeMinerUrl, TargetError} from '../miner/target.js';
import {UsageError} from '../session/errors.js';
import {closestCommand} from '../session/command-words.js';
import {DEFAULT_PAUSED_ALERT_MS} from '../monitor/events.js';
import {DEFAULT_WORKER_METRICS_LIMIT} from '../exporter/worker-metrics.js';
import {parseDuration} from '../text/duration.js';
import {policyOptionsFrom} from '../notify/policy/options.js';
import type {MetricsPlan, NotifyPlan, RunMode, RunPlan} from '../commands/command.js';
import type {NotifyCommandPlan} from '../commands/notify/notify.js';
import type {WatchPlan} from '../commands/watch/watch.js';
import type {BatchPlan} from '../commands/batch/batch.js';
import type {ConfigPlan} from '../commands/config/config.js';
import type {ExporterPlan} from '../commands/exporter/exporter.js';
import type {HistoryCommandOptions} from '../commands/history/history.js';
import type {LivePlan} from '../commands/live/live.js';
import {escapeUnsafe} from '../text/escape.js';
import {jsonText} from '../text/json-out.js';

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
	/** --temp-alert C: the CPU temperature (°C) alerted at, instead of each sensor's own max. */
	readonly tempAlert?: string | undefined;
	/** --listen or --web.listen-address, repeatable. */
	readonly listen?: readonly string[] | undefined;
	readonly metrics?: string | undefined;
	readonly metricsTokenFile?: string | undefined;
	/** --web.config.file. */
	readonly webConfigFile?: string | undefined;
	// ---- the subcommands' own (config, history, exporter) ----
	readonly yes?: boolean | undefined;
	readonly add?: boolean | undefined;
	readonly dryRun?: boolean | undefined;
	readonly parallel?: number | undefined;
	readonly since?: string | undefined;
	readonly until?: string | undefined;
	readonly csv?: boolean | undefined;
	readonly list?: boolean | undefined;
	/** rigtop history --worker NAME: one worker of a proxy. */
	readonly worker?: string | undefined;
	/** --log.format, --log.level (rigtop exporter). */
	readonly logFormat?: string | undefined;
	readonly logLevel?: string | undefined;
	/** --no-thread-metrics (rigtop exporter) sets it false. */
	readonly threadMetrics?: boolean | undefined;
	/** --no-worker-metrics (rigtop exporter) sets it false. */
	readonly workerMetrics?: boolean | undefined;
	/** --worker-metrics-limit N (rigtop exporter). */
	readonly workerMetricsLimit?: number | undefined;
	// ---- notifications (the live view, rigtop watch, rigtop exporter, rigtop notify) ----
	readonly notify?: readonly string[] | undefined;
	readonly notifyFile?: string | undefined;
	readonly notifyGroup?: string | undefined;
	readonly notifyRepeat?: string | undefined;
	readonly notifyFlap?: string | undefined;
	readonly heartbeat?: string | undefined;
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
	/** `rigtop exporter …` or `rigtop watch …` (the word itself is not in `positional`). */
	readonly command?: 'exporter' | 'watch' | undefined;
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

/** Each command's plan, by the command's name: what cli.tsx's table hands the command module of that name. */
export type CommandPlans = {
	readonly live: LivePlan;
	readonly once: RunPlan;
	readonly where: RunPlan;
	readonly exporter: ExporterPlan;
	readonly watch: WatchPlan;
	readonly notify: NotifyCommandPlan;
	readonly config: ConfigPlan;
	readonly history: HistoryCommandOptions;
	readonly batch: BatchPlan;
};

export type CommandName = keyof CommandPlans;

/** A command and its plan (`K`: one command, or any). */
export type CommandRequest<K extends CommandName = CommandName> = {
	readonly [P in K]: {readonly command: P; readonly plan: CommandPlans[P]};
}[K];

/** What the command line said, as meow parsed it, and where rigtop runs. */
export type CommandLine = {
	/** The words that are no flags (`config get cpu`, `history 10.0.0.5:8080`, the URLs). */
	readonly input: readonly string[];
	readonly flags: CliFlags;
	readonly env: NodeJS.ProcessEnv;
	readonly stdinIsTty: boolean;
	readonly stdoutIsTty: boolean;
};

/**
 * The command the command line asks for, with its plan: `rigtop config …`, `rigtop history …`, `rigtop exporter …`,
 * else --where, --once (or no terminal) or the live screens. Throws UsageError (exit 2) on bad usage: a mistyped
 * command, a flag that goes with another command.
 */
export function planCommand(line: CommandLine): CommandRequest {
	const {input, flags, env} = line;
	const targets = {tokenFile: flags.tokenFile, tokenEnv: env['RIGTOP_TOKEN'], tokenFlag: flags.token, configPath: flags.config};
	const notifyFlag = NOTIFY_FLAGS.find(([flag]) => notifyGiven(flags, flag))?.[1];
	if (notifyFlag !== undefined && (isBatch(input, flags) || input[0] === 'config' || input[0] === 'history')) {
		throw new UsageError(`${notifyFlag} goes with the live view, rigtop watch, rigtop exporter or rigtop notify`);
	}

	if (input[0] === 'notify') return {command: 'notify', plan: planNotifyCommand(input.slice(1), flags, env)};
	if (isBatch(input, flags)) {
		if (flags.rigs !== undefined && flags.rigs.trim() === '') throw new UsageError('--rigs needs the path of a JSON file listing the rigs');
		const plan: BatchPlan = {
			words: input,
			urls: flags.url ?? [],
			rigsFile: flags.rigs,
			...targets,
			dryRun: flags.dryRun === true,
			parallel: flags.parallel,
			yes: flags.yes === true,
			add: flags.add === true,
			readOnly: flags.readOnly,
			...(flags.json ? {json: true} : {}),
			...(flags.history === undefined ? {} : {history: flags.history}),
		};
		return {command: 'batch', plan};
	}

	for (const flag of ['dryRun', 'parallel'] as const) {
		if (flags[flag] !== undefined && flags[flag] !== false) {
			throw new UsageError(
				`--${flag === 'dryRun' ? 'dry-run' : flag} goes with rigtop pause, resume, config set --rigs, config apply or config undo`,
			);
		}
	}

	if (input[0] === 'config') {
		const plan: ConfigPlan = {
			words: input.slice(1),
			urls: flags.url ?? [],
			...targets,
			yes: flags.yes === true,
			add: flags.add === true,
			readOnly: flags.readOnly,
			...(flags.history === undefined ? {} : {history: flags.history}),
			...(flags.rigs === undefined ? {} : {rigsFile: flags.rigs}),
		};
		return {command: 'config', plan};
	}

	if (input[0] === 'history') {
		const plan: HistoryCommandOptions = {
			urls: [...input.slice(1), ...(flags.url ?? [])],
			since: flags.since,
			until: flags.until,
			json: flags.json,
			csv: flags.csv === true,
			list: flags.list === true,
			worker: flags.worker,
			...targets,
		};
		return {command: 'history', plan};
	}

	// A mistyped command is named before its flags are judged (`rigtop histroy --since 1h`).
	const typo = input[0] === undefined ? null : closestCommand(input[0]);
	if (typo !== null && typo !== input[0])
		throw new UsageError(`unknown command '${escapeUnsafe(input[0] ?? '')}': did you mean 'rigtop ${typo}'?`);
	for (const flag of ['since', 'until', 'csv', 'list', 'worker'] as const) {
		if (flags[flag] !== undefined && flags[flag] !== false) throw new UsageError(`--${flag} goes with rigtop history`);
	}

	const exporter = input[0] === 'exporter';
	const watch = input[0] === 'watch';
	for (const flag of ['logFormat', 'logLevel'] as const) {
		if (!exporter && !watch && flags[flag] !== undefined) {
			throw new UsageError(`--log.${flag.slice(3).toLowerCase()} goes with rigtop exporter or rigtop watch`);
		}
	}

	if (!exporter && flags.threadMetrics !== undefined) throw new UsageError('--no-thread-metrics goes with rigtop exporter');
	if (!exporter && flags.workerMetrics !== undefined) throw new UsageError('--no-worker-metrics goes with rigtop exporter');
	if (!exporter && flags.workerMetricsLimit !== undefined) throw new UsageError('--worker-metrics-limit goes with rigtop exporter');
	const limit = flags.workerMetricsLimit ?? DEFAULT_WORKER_METRICS_LIMIT;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new UsageError(`--worker-metrics-limit takes a whole number of workers, at least 1 (--no-worker-metrics: none), not ${limit}`);
	}

	if (flags.workerMetrics === false && flags.workerMetricsLimit !== undefined) {
		throw new UsageError('--no-worker-metrics serves no per-worker series: give it or --worker-metrics-limit, not both');
	}
	const plan = planRun({
		positional: exporter || watch ? input.slice(1) : input,
		command: exporter ? 'exporter' : watch ? 'watch' : undefined,
		flags,
		env,
		stdinIsTty: line.stdinIsTty,
		stdoutIsTty: line.stdoutIsTty,
	});
	if (watch) return {command: 'watch', plan: {...plan, logFormat: flags.logFormat, logLevel: flags.logLevel}};
	switch (plan.mode) {
		case 'exporter': {
			return {
				command: 'exporter',
				plan: {
					...plan,
					logFormat: flags.logFormat,
					logLevel: flags.logLevel,
					threads: flags.threadMetrics !== false,
					workers: {enabled: flags.workerMetrics !== false, limit},
				},
			};
		}

		case 'live': {
			return {command: 'live', plan: {...plan, intervalGiven: flags.interval !== undefined}};
		}

		case 'once':
		case 'where': {
			return {command: plan.mode, plan};
		}
	}
}

/**
 * Whether the command line asks for a batch (source/batch/): `pause`, `resume`, `config apply`, `config undo`, or a
 * `config set` on a rigs file, on more than one address (its words without `=` are addresses) or with --dry-run.
 */
function isBatch(input: readonly string[], flags: CliFlags): boolean {
	if (input[0] === 'pause' || input[0] === 'resume') return true;
	if (input[0] !== 'config') return false;
	if (input[1] === 'apply' || input[1] === 'undo') return true;
	if (input[1] !== 'set') return false;
	const addresses = input.slice(2).filter((word) => !word.includes('=')).length + (flags.url?.length ?? 0);
	// --dry-run or --json on one miner: the batch's diff or document of that one (the one-rig path has neither).
	return flags.rigs !== undefined || addresses > 1 || flags.dryRun === true || flags.json;
}

/**
 * The live view's flags `rigtop exporter` would take and do nothing with, each with what does that job instead: bad
 * usage, so no one waits for an alert that never comes. (--read-only, --no-history and --no-color hold as given: the
 * exporter writes nothing to a miner, stores nothing, colours nothing. --bell and --on-alert: planMetrics.)
 */
const NOT_FOR_THE_EXPORTER = [
	['tempAlert', '--temp-alert', 'it serves no temperatures; node_exporter does (docs/prometheus/node-exporter.yml)'],
	['pausedAlert', '--paused-alert', 'it raises no alerts; Prometheus does (XmrigPausedTooLong in docs/prometheus/alerts.yml)'],
	['yes', '--yes', 'it changes no config (--yes goes with rigtop config set)'],
	['add', '--add', 'it changes no config (--add goes with rigtop config set)'],
] as const;

/** Turns parsed flags into what to run. Throws UsageError (exit 2) on bad usage. */
export function planRun(inputs: PlanInputs): RunPlan {
	const {flags} = inputs;
	const exporter = inputs.command === 'exporter';
	const watch = inputs.command === 'watch';
	if (watch) {
		for (const [flag, spelt] of [
			['bell', '--bell'],
			['once', '--once'],
			['json', '--json'],
			['where', '--where'],
			['metrics', '--metrics'],
		] as const) {
			if (flags[flag] !== undefined && flags[flag] !== false) {
				throw new UsageError(`${spelt} has no effect on rigtop watch: it has no terminal and runs until stopped`);
			}
		}
	}
	for (const [flag, spelt, instead] of exporter ? NOT_FOR_THE_EXPORTER : []) {
		if (flags[flag] !== undefined && flags[flag] !== false) throw new UsageError(`${spelt} has no effect on rigtop exporter: ${instead}`);
	}

	const interval = flags.interval ?? (exporter ? DEFAULT_EXPORTER_INTERVAL_SECONDS : DEFAULT_INTERVAL_SECONDS);
	if (!Number.isFinite(interval) || interval < MIN_INTERVAL_SECONDS) {
		throw new UsageError(`--interval must be a number of seconds, at least ${MIN_INTERVAL_SECONDS}`);
	}

	// `--demo proxy` (and `--demo=proxy`, cli.tsx): the simulated xmrig-proxy; the word is the demo's, not an address.
	const demoProxy = flags.demo && inputs.positional.length === 1 && inputs.positional[0] === 'proxy';
	const urls = [...(demoProxy ? [] : inputs.positional), ...(flags.url ?? [])];
	for (const url of urls) {
		try {
			normalizeMinerUrl(url);
		} catch (error) {
			// With --rigs, a word that is no address is a rig's name there, even one spelt like a command (session/build.ts,
			// namedRigs, says if it is not, and which command it may be a typo of).
			if (error instanceof TargetError && flags.rigs !== undefined && !looksLikeUrl(url)) continue;
			const command = exporter || !inputs.positional.includes(url) ? null : closestCommand(url);
			if (command !== null) throw new UsageError(`unknown command '${escapeUnsafe(url)}': did you mean 'rigtop ${command}'?`);
			if (error instanceof TargetError) throw new UsageError(namesHint(error.message, url));
			throw error;
		}
	}
	if (flags.demo && (urls.length > 0 || flags.config !== undefined || flags.rigs !== undefined)) {
		throw new UsageError('--demo watches the simulated miner; give either --demo or a miner (URL, --rigs or --config), not both');
	}

	if (flags.rigs !== undefined && flags.rigs.trim() === '') throw new UsageError('--rigs needs the path of a JSON file listing the rigs');
	const pausedAlertMs = flags.pausedAlert === undefined ? DEFAULT_PAUSED_ALERT_MS : parseDuration(flags.pausedAlert);
	if (pausedAlertMs === null) {
		throw new UsageError(`--paused-alert takes a duration such as 10m, 90s or 1h (0: never), not ${jsonText(flags.pausedAlert)}`);
	}

	const tempAlertC = flags.tempAlert === undefined ? null : parseCelsius(flags.tempAlert);
	if (tempAlertC === undefined) {
		throw new UsageError(`--temp-alert takes degrees Celsius between 1 and 150, such as 85 or 85C, not ${jsonText(flags.tempAlert)}`);
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
	const metrics = watch ? null : planMetrics(flags, exporter);
	// --json is a --once format; asking for it alone means one JSON snapshot.
	// rigtop watch's session is the live view's (history records its monitors), without a screen.
	let mode: RunMode = exporter ? 'exporter' : watch ? 'live' : flags.where ? 'where' : flags.once || flags.json ? 'once' : 'live';
	// RIGTOP_NOTIFY alone (set for every run) does not stop --once; a notification flag given with it is bad usage.
	const notifyFlag = NOTIFY_FLAGS.find(([flag]) => notifyGiven(flags, flag))?.[1];
	if (notifyFlag !== undefined && mode === 'once') {
		throw new UsageError(`${notifyFlag} goes with the live view, rigtop watch or rigtop exporter, not --once`);
	}

	let notify = mode === 'once' ? null : planNotify(flags, inputs.env);

	if (metrics !== null && mode !== 'exporter' && mode !== 'live') {
		throw new UsageError("--metrics serves the live view's miners while it runs; for metrics without a screen, run rigtop exporter");
	}

	if (mode === 'live' && !watch && (!inputs.stdinIsTty || !inputs.stdoutIsTty)) {
		if (metrics !== null) {
			throw new UsageError(
				'--metrics serves while the live view runs, which needs a terminal; without one, run rigtop exporter --listen ADDR',
			);
		}

		mode = 'once';
		notices.push('not a terminal: printing one snapshot instead of the live dashboard (use --once to say so)');
		if (notify !== null) notices.push('no notification is sent by one snapshot; rigtop watch notifies without a terminal');
		notify = null;
	}

	const color = colorEnabled(inputs.env, flags.color);
	return {
		mode,
		json: flags.json,
		color,
		intervalMs: Math.round(interval * 1000),
		readOnly: flags.readOnly,
		demo: flags.demo,
		...(demoProxy ? {demoProxy} : {}),
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
		tempAlertC,
		metrics,
		notices,
		notify,
	};
}

/** Whether a notification flag was given (meow makes a repeatable flag not given an empty list). */
function notifyGiven(flags: CliFlags, flag: (typeof NOTIFY_FLAGS)[number][0]): boolean {
	const value = flags[flag];
	return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** The notification flags, each as spelt. */
const NOTIFY_FLAGS = [
	['notify', '--notify'],
	['notifyFile', '--notify-file'],
	['heartbeat', '--heartbeat'],
	['notifyGroup', '--notify-group'],
	['notifyRepeat', '--notify-repeat'],
	['notifyFlap', '--notify-flap'],
] as const;

/**
 * What the notification flags and RIGTOP_NOTIFY ask for, or null for nothing. The channels themselves are read and
 * checked when the command starts (a file to read); the policy's settings are checked here. UsageError when bad.
 */
export function planNotify(flags: CliFlags, env: NodeJS.ProcessEnv): NotifyPlan | null {
	const urls = flags.notify ?? [];
	const fromEnv = env['RIGTOP_NOTIFY']?.trim() === '' ? undefined : env['RIGTOP_NOTIFY'];
	for (const [flag, spelt] of [
		['notifyFile', '--notify-file'],
		['heartbeat', '--heartbeat'],
	] as const) {
		if (flags[flag] !== undefined && flags[flag].trim() === '') throw new UsageError(`${spelt} needs a value`);
	}

	if (urls.some((url) => url.trim() === '')) throw new UsageError('--notify needs a channel URL');
	const any = urls.length > 0 || flags.notifyFile !== undefined || fromEnv !== undefined || flags.heartbeat !== undefined;
	if (!any) {
		const policyFlag = NOTIFY_FLAGS.find(([flag]) => notifyGiven(flags, flag))?.[1];
		if (policyFlag !== undefined) throw new UsageError(`${policyFlag} needs a channel: --notify-file PATH, RIGTOP_NOTIFY or --notify URL`);
		return null;
	}

	return {
		urls,
		file: flags.notifyFile,
		env: fromEnv,
		...notifySettings(flags),
		heartbeat: flags.heartbeat,
	};
}

/** The policy's settings from --notify-group, --notify-repeat and --notify-flap (UsageError when one is bad). */
function notifySettings(flags: CliFlags): Pick<NotifyPlan, 'groupMs' | 'repeatMs' | 'flap'> {
	const settings = policyOptionsFrom({
		...(flags.notifyGroup === undefined ? {} : {group: flags.notifyGroup}),
		...(flags.notifyRepeat === undefined ? {} : {repeat: flags.notifyRepeat}),
		...(flags.notifyFlap === undefined ? {} : {flap: flags.notifyFlap}),
	});
	if (!settings.ok) throw new UsageError(settings.error);
	return settings.options;
}

/** `rigtop notify test|mute RIG DURATION|unmute RIG|mutes`. */
function planNotifyCommand(words: readonly string[], flags: CliFlags, env: NodeJS.ProcessEnv): NotifyCommandPlan {
	const [action, ...rest] = words;
	const usage = 'rigtop notify takes test, mute RIG DURATION, unmute RIG or mutes';
	const notify = planNotify(flags, env);
	const store = {history: flags.history !== false};
	switch (action) {
		case 'test': {
			if (rest.length > 0) throw new UsageError(`rigtop notify test takes no words (${usage})`);
			if (notify === null) throw new UsageError('rigtop notify test needs a channel: --notify-file PATH, RIGTOP_NOTIFY or --notify URL');
			return {action: 'test', notify, ...store};
		}

		case 'mute': {
			const [rig, duration] = rest;
			if (rig === undefined || duration === undefined || rest.length > 2) {
				throw new UsageError('rigtop notify mute takes a rig and a duration: rigtop notify mute rig-03 1h');
			}

			const ms = parseDuration(duration);
			if (ms === null || ms <= 0) throw new UsageError(`rigtop notify mute takes a duration such as 1h or 30m, not ${jsonText(duration)}`);
			return {action: 'mute', rig, durationMs: ms, notify, ...store};
		}

		case 'unmute': {
			const [rig] = rest;
			if (rig === undefined || rest.length > 1) throw new UsageError('rigtop notify unmute takes a rig: rigtop notify unmute rig-03');
			return {action: 'unmute', rig, notify, ...store};
		}

		case 'mutes': {
			if (rest.length > 0) throw new UsageError(`rigtop notify mutes takes no words (${usage})`);
			return {action: 'mutes', notify, ...store};
		}

		default: {
			throw new UsageError(action === undefined ? usage : `unknown: notify ${jsonText(action)}: ${usage}`);
		}
	}
}

/** "85", "85C", "85°C" or "92.5" → °C; undefined for anything else, or outside 1–150 °C (no CPU runs past that). */
function parseCelsius(text: string): number | undefined {
	const match = /^\s*(\d+(?:\.\d+)?)\s*(?:°?\s*C)?\s*$/i.exec(text);
	const value = match ? Number(match[1]) : Number.NaN;
	return Number.isFinite(value) && value >= 1 && value <= 150 ? value : undefined;
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

/** An address refused, and for a word that could be a rig's name, how a name is given. */
function namesHint(message: string, word: string): string {
	return looksLikeUrl(word) || word.includes(':')
		? message
		: `${message}; a rig's name is taken with --rigs FILE (rigtop --once NAME --rigs rigs.json)`;
}
