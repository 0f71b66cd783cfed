/**
 * What every command of rigtop is (`source/commands/<name>/`, one folder each): a `run` that takes the command's plan
 * (what `cli/` made of the command line) and the context it runs in, and resolves to the exit code. `source/cli.tsx`
 * loads a command with `import()` from one table (`COMMANDS`, keyed by the command `cli/options.ts` planned) and calls
 * its `run`. The errors a command throws (`UsageError`, `NothingToWatchError`: source/errors.ts) decide how rigtop exits.
 */

/** What every command is given besides its plan: the program's version and where its warnings go. */
export type CommandContext = {
	/** rigtop's version (the exporter reports it). */
	readonly version: string;
	/** A warning for stderr, before any screen takes the terminal ("rigtop: " and a newline added). */
	readonly warn: (line: string) => void;
};

/** A command's entry: its plan and the context in, the exit code out. */
export type Command<Plan> = (plan: Plan, context: CommandContext) => Promise<number>;

/** The commands that watch miners (live, once, where, exporter; watch, whose session is the live view's) take a RunPlan, which `cli/options.ts` makes of their flags. */
export type RunMode = 'live' | 'once' | 'where' | 'exporter';

/**
 * Notifications as the command line asks for them (source/notify/): the channels' sources as given (read and checked
 * when the command starts: commands/notify/setup.ts) and the policy's settings, checked here. A channel URL holds a
 * secret: nothing in this plan is ever printed.
 */
export type NotifyPlan = {
	/** --notify URL, repeatable (others can see it in the process list: warned). */
	readonly urls: readonly string[];
	/** --notify-file PATH: channel URLs one a line, and a `heartbeat URL` line; refused unless 0600 or stricter. */
	readonly file: string | undefined;
	/** RIGTOP_NOTIFY as found in the environment. */
	readonly env: string | undefined;
	/** --notify-group: troubles starting within this window go out as one notice (ms; default 30 s). */
	readonly groupMs: number;
	/** --notify-repeat: a trouble still open is told again after this long (ms; default 4 h; 0 never). */
	readonly repeatMs: number;
	/** --notify-flap N/DURATION: this many opens within the window make a rig flapping (default 3 in 10 min; count 0: off). */
	readonly flap: {readonly count: number; readonly windowMs: number};
	/** --heartbeat URL (also a notify file's `heartbeat URL` line). */
	readonly heartbeat: string | undefined;
};

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
	/** `--demo proxy`: the simulated xmrig-proxy instead of the miner. */
	readonly demoProxy?: boolean;
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
	/** --temp-alert: the CPU temperature (°C) alerted at instead of each sensor's own max; null: the sensor's max. */
	readonly tempAlertC?: number | null;
	/** The metrics endpoint to serve: always for the exporter, with --metrics for the live view; else null. */
	readonly metrics: MetricsPlan | null;
	/** Lines for stderr before anything else (the non-terminal notice). */
	readonly notices: readonly string[];
	/** Notifications (--notify, --notify-file, RIGTOP_NOTIFY, --heartbeat), or null when none is asked for. */
	readonly notify: NotifyPlan | null;
};
