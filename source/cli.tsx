import process from 'node:process';
import meow from 'meow';
import packageJson from '../package.json' with {type: 'json'};
import {askedFor, checkArgv, demoSpelling, prometheusSpellings} from './cli/argv.js';
import {NothingToWatchError, UsageError} from './session/errors.js';
import {FLAGS, VALUE_HINTS} from './cli/flags.js';
import {planCommand, type CommandName, type CommandPlans, type CommandRequest} from './cli/options.js';
import type {Command, CommandContext} from './commands/command.js';
import {TargetError} from './miner/target.js';
import {keysHelpLines} from './ui/keys/reference.js';

// Start-up time matters (rigtop is started by hand, often over SSH): this file loads only the flag
// parser, the keymap (for the keys in --help) and small modules of the CLI's own. Everything else is
// imported where it is needed, and the bundle is split along those imports (scripts/build.mjs), so
// --version, --help, --once and config never load Ink or React, and the live dashboard's first poll
// is on the wire while Ink and React load.

// `rigtop help` and `-h` print the usage, like --help (`rigtop help exporter`: the exporter's).
const args = process.argv.slice(2);
const argv = demoSpelling(args[0] === 'help' ? ['--help', ...args.slice(1)] : args.map((word) => (word === '-h' ? '--help' : word)));
const argvProblem = checkArgv(argv, FLAGS, VALUE_HINTS);
if (argvProblem !== null) {
	process.stderr.write(`rigtop: ${argvProblem}\nRun rigtop --help for usage.\n`);
	process.exit(2);
}

const cli = meow(
	`
	Usage
	  $ rigtop [URL…]          the live dashboard of the miner at URL (host:port);
	                           several miners: the fleet view (Enter opens one)
	  $ rigtop --rigs FILE     the fleet listed in FILE
	  $ rigtop                 finds the XMRig running on this machine
	  $ rigtop config get [PATH] [URL]      the miner's config (secrets masked)
	  $ rigtop config set PATH=VALUE… [URL] change it (conflict check, backup)
	  $ rigtop pause|resume [URL…|--rigs FILE]
	  $ rigtop config set|apply|undo … --rigs FILE
	                           many rigs at once, each checked and read back
	                           (rigtop help pause: their own options)
	  $ rigtop history [URL] [--since 24h] [--json | --csv]
	                           the miner's stored polls and events
	                           (rigtop history --help: its own options)
	  $ rigtop exporter [URL…] [--rigs FILE]
	                           the miners' metrics for Prometheus on /metrics
	                           (rigtop exporter --help: its own options)
	  $ rigtop watch [URL…] [--rigs FILE] --notify-file FILE
	                           no screen: alerts, history and notifications,
	                           a log line on stderr for each (see the readme)
	  $ rigtop notify test     one test notice to each channel
	  $ rigtop notify mute RIG DURATION | unmute RIG | mutes
	                           hold a rig's notices back (it still shows)

	Options
	  --url URL                a miner to watch (repeatable)
	  --rigs FILE              the rigs listed in FILE, a JSON list of {"name":
	                           "rig-01", "url": "host:port", "tokenFile": "path"}
	                           (relative to FILE; without one, --token-file)
	  --token-file PATH        the miner's access token (http.access-token), or
	                           RIGTOP_TOKEN (--token VALUE: others can see it)
	  --config, -c PATH        the API address and token from the miner's config
	  --where                  where each setting came from (token masked)
	  --interval, -i SECONDS   poll interval, default 2 (exporter 10), min 0.25;
	                           live, the last one set with + - is remembered
	  --demo                   watch a simulated miner on a free loopback port
	  --demo proxy             watch a simulated xmrig-proxy and its workers
	  --once                   print one snapshot as text and exit
	  --json                   with --once: the snapshot as JSON, per miner;
	                           with a batch: every rig's result in one document
	  --read-only              never write to the miner (no config, pause, resume)
	  --yes                    with config set: confirm an http.*/api.* change
	  --add                    with config set: add a key the miner does not have
	  --dry-run                with a batch: print each rig's diff, change nothing
	  --parallel N             with a batch: rigs at once (default 8)
	  --bell                   ring the terminal bell on an alert
	  --paused-alert DURATION  alert when paused this long (default 10m; 0 never)
	  --temp-alert C           alert at this CPU °C (default: each sensor's max)
	  --on-alert CMD           run CMD on each alert, the alert as one line of
	                           JSON on its stdin; no shell runs it ("sh -c '…'"
	                           for pipes); stopped after 10s
	  --notify-file PATH       notify these channels: URLs, one a line (mode
	                           0600), such as ntfys://ntfy.sh/TOPIC; or
	                           RIGTOP_NOTIFY (--notify URL: others can see it)
	  --notify-group DURATION  troubles within it go as one notice (30s)
	  --notify-repeat DURATION tell a trouble again while it lasts (4h; 0 never)
	  --notify-flap N/DURATION that many downs make one flapping notice (3/10m)
	  --heartbeat URL          pinged while all is well, its /fail on trouble
	                           (or a "heartbeat URL" line in the notify file)
	  --no-history             store nothing (else polls and events go to
	                           $XDG_STATE_HOME/rigtop/history.sqlite)
	  --since, --until TIME    with history: from / to (90m, 24h, 7d, or a date)
	  --csv, --list            with history: CSV; the miners stored
	  --worker NAME            with history: one worker of an xmrig-proxy
	  --no-color               no colours (so does NO_COLOR)
	  --listen HOST:PORT       exporter: where /metrics listens (127.0.0.1:9189;
	                           :PORT for every interface: protect it with a token
	                           or users); repeatable; also --web.listen-address
	  --metrics HOST:PORT      live view: serve the miners' metrics there too
	  --metrics-token-file PATH
	                           /metrics wants "Authorization: Bearer TOKEN"
	  --web.config.file PATH   TLS and basic auth users, in node_exporter's
	                           web config format (htpasswd -B hashes)
	  --help, -h, --version

	Exit codes (--once): 0 every miner was read, 1 one could not be, 2 bad usage.
	Exit codes (a batch, --dry-run too), after one line such as
	  5 rigs: ok=1 changed=2 skipped=1 failed=0 unreachable=1
	0 no rig failed (a rig skipped is not its change: a proxy for a miner's key),
	1 a rig failed, 2 bad usage, 3 none failed but a rig was unreachable.

${keysHelpLines()
	.map((line) => `\t${line}`)
	.join('\n')}

	Examples
	  $ rigtop 127.0.0.1:18088 --token-file ~/.config/rigtop/token
	  $ rigtop --once --json http://10.0.0.5:8080
	  $ rigtop 10.0.0.5:8080 10.0.0.6:8080 --bell --on-alert "logger -t rigtop"
	  $ rigtop --demo
	  $ rigtop exporter --rigs rigs.json        (Prometheus: docs/prometheus/)
	  $ rigtop watch --rigs rigs.json --notify-file ~/.config/rigtop/notify
`,
	{
		importMeta: import.meta,
		argv: prometheusSpellings(argv),
		// meow's `pkg`: the fields it uses (version, description, the process title), so it does not look for package.json.
		// Never read `cli.pkg`: its getter runs normalize-package-data (SPDX tables, semver, hosted-git-info), 20-30 ms
		// of a start; the version is packageJson.version (test/e2e/once.test.ts, "what --once loads").
		pkg: {name: packageJson.name, version: packageJson.version, description: packageJson.description, bin: packageJson.bin},
		// Shorter than package.json's, to keep the help within 80 columns.
		description: 'A live terminal monitor for XMRig miners: dashboard, fleet, config editor.',
		allowUnknownFlags: false,
		booleanDefault: undefined,
		flags: FLAGS,
	},
);

/**
 * Every command, loaded when it runs, from its own folder under source/commands/ (so --version, --help, --once and
 * config never load Ink or React): each module's `run` takes the plan cli/options.ts made for it.
 */
const COMMANDS: {readonly [K in CommandName]: () => Promise<{readonly run: Command<CommandPlans[K]>}>} = {
	live: async () => import('./commands/live/live.js'),
	once: async () => import('./commands/once/once.js'),
	where: async () => import('./commands/where/where.js'),
	exporter: async () => import('./commands/exporter/exporter.js'),
	watch: async () => import('./commands/watch/watch.js'),
	notify: async () => import('./commands/notify/notify.js'),
	config: async () => import('./commands/config/config.js'),
	history: async () => import('./commands/history/history.js'),
	batch: async () => import('./commands/batch/batch.js'),
};

async function runCommand<K extends CommandName>(request: CommandRequest<K>, context: CommandContext): Promise<number> {
	const {run} = await COMMANDS[request.command]();
	return run(request.plan, context);
}

async function main(): Promise<number> {
	// --help and --version wherever they stand: nothing is looked for, read or bound.
	const asked = askedFor(argv);
	if (asked === 'version') {
		process.stdout.write(`${packageJson.version}\n`);
		return 0;
	}

	if (asked === 'help') {
		// A command with options of its own prints its own usage (`rigtop exporter --help`, `rigtop help history`).
		if (cli.input[0] === 'exporter') {
			const {exporterHelp} = await import('./exporter/help.js');
			process.stdout.write(exporterHelp());
			return 0;
		}

		if (
			cli.input[0] === 'pause' ||
			cli.input[0] === 'resume' ||
			(cli.input[0] === 'config' && ['apply', 'undo'].includes(cli.input[1] ?? ''))
		) {
			const {batchHelp} = await import('./commands/batch/help.js');
			process.stdout.write(batchHelp());
			return 0;
		}

		if (cli.input[0] === 'history') {
			const {historyHelp} = await import('./commands/history/help.js');
			process.stdout.write(historyHelp());
			return 0;
		}

		cli.showHelp(0);
	}

	const request = planCommand({
		input: cli.input,
		flags: cli.flags,
		env: process.env,
		stdinIsTty: process.stdin.isTTY === true,
		stdoutIsTty: process.stdout.isTTY === true,
	});
	return runCommand(request, {
		version: packageJson.version,
		warn: (line) => process.stderr.write(`rigtop: ${line}\n`),
	});
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		if (error instanceof NothingToWatchError) {
			process.stderr.write(`${error.message}\n`);
			process.exitCode = 1;
			return;
		}

		if (error instanceof UsageError || error instanceof TargetError) {
			process.stderr.write(`rigtop: ${error.message}\nRun rigtop --help for usage.\n`);
			process.exitCode = 2;
			return;
		}

		// Never a stack trace: one line, and no token (messages never hold it).
		const message = error instanceof Error ? error.message : String(error);
		process.stderr.write(`rigtop: ${message}\n`);
		process.exitCode = 1;
	},
);
