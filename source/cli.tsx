#!/usr/bin/env node
import process from 'node:process';
import meow from 'meow';
import {render} from 'ink';
import {planRun} from './cli/options.js';
import {buildSession, discover, NothingToWatchError} from './cli/build-session.js';
import {formatWhere} from './discovery/where.js';
import {runOnce} from './cli/run-once.js';
import {enterFullScreen} from './cli/full-screen.js';
import {startLive} from './cli/live.js';
import {runConfigCommand} from './cli/config-command.js';
import {UsageError} from './miner/target.js';

const cli = meow(
	`
	Usage
	  $ rigtop [URL…]            live dashboard of the miner at URL (http://host:port or host:port);
	                             several miners: the fleet view, one row each (Enter opens one)
	  $ rigtop --rigs FILE       the fleet listed in FILE
	  $ rigtop                   finds the XMRig running on this machine (its command line, config, ports)
	  $ rigtop config get [PATH] [URL]            print the miner's config (secrets masked) or one value
	  $ rigtop config set PATH=VALUE… [URL]       change settings: conflict check, backup, verify

	Options
	  --url URL                 a miner to watch (repeatable)
	  --rigs FILE               watch the rigs listed in FILE, a JSON list of
	                            {"name": "rig-01", "url": "host:port", "tokenFile": "path"}
	                            (tokenFile relative to FILE; without one, a rig uses --token-file)
	  --token-file PATH         read the miner's access token from PATH (http.access-token)
	                            (or set RIGTOP_TOKEN; --token VALUE works but is visible in the process list)
	  --config, -c PATH         read the API address and token from the miner's own config file
	  --where                   print where each setting came from (token masked) and exit
	  --interval, -i SECONDS    poll interval, default 2, at least 0.25
	  --demo                    start a simulated miner on a free loopback port and watch it
	  --once                    print one snapshot as text and exit
	  --json                    with --once: print the snapshot as JSON (the normalized model, per miner)
	  --read-only               never write to the miner (no config apply, undo, pause or resume)
	  --yes                     with config set: confirm a change to http.*/api.* that can cut rigtop off
	  --bell                    ring the terminal bell on an alert (rig down, hashrate drop, reject burst,
	                            pool lost, miner restarted, huge pages lost)
	  --on-alert CMD            run CMD on each alert, the alert as one line of JSON on its stdin; CMD is
	                            split into words like a shell would (quotes, backslash) but no shell runs
	                            it: use "sh -c '…'" for pipes; stopped after 10 s
	  --no-color                no colours (so does the NO_COLOR variable)
	  --help, --version

	Exit codes (--once): 0 every miner was read, 1 one could not be, 2 bad usage.

	Keys (live): q quit · ? help · ↑↓ scroll threads · c config · p pause · r resume
	      fleet: ↑↓ select · Enter open the rig · Esc (on a rig) back to the fleet

	Examples
	  $ rigtop 127.0.0.1:18088 --token-file ~/.config/rigtop/token
	  $ rigtop --once --json http://10.0.0.5:8080
	  $ rigtop 10.0.0.5:8080 10.0.0.6:8080 --bell --on-alert "logger -t rigtop"
	  $ rigtop --demo
`,
	{
		importMeta: import.meta,
		allowUnknownFlags: false,
		booleanDefault: undefined,
		flags: {
			url: {type: 'string', isMultiple: true},
			rigs: {type: 'string'},
			bell: {type: 'boolean', default: false},
			onAlert: {type: 'string'},
			tokenFile: {type: 'string'},
			token: {type: 'string'},
			config: {type: 'string', shortFlag: 'c'},
			where: {type: 'boolean', default: false},
			interval: {type: 'number', shortFlag: 'i', default: 2},
			demo: {type: 'boolean', default: false},
			once: {type: 'boolean', default: false},
			json: {type: 'boolean', default: false},
			readOnly: {type: 'boolean', default: false},
			yes: {type: 'boolean', default: false},
			color: {type: 'boolean', default: true},
		},
	},
);

async function main(): Promise<number> {
	if (cli.input[0] === 'config') {
		return runConfigCommand(cli.input.slice(1), {
			urls: cli.flags.url ?? [],
			tokenFile: cli.flags.tokenFile,
			tokenEnv: process.env['RIGTOP_TOKEN'],
			tokenFlag: cli.flags.token,
			configPath: cli.flags.config,
			yes: cli.flags.yes,
			readOnly: cli.flags.readOnly,
		});
	}

	const plan = planRun({
		positional: cli.input,
		flags: cli.flags,
		env: process.env,
		stdinIsTty: process.stdin.isTTY === true,
		stdoutIsTty: process.stdout.isTTY === true,
	});
	const warn = (line: string) => process.stderr.write(`rigtop: ${line}\n`);
	for (const notice of plan.notices) warn(notice);

	if (plan.mode === 'where') {
		const result = await discover(plan);
		process.stdout.write(`${formatWhere(result).join('\n')}\n`);
		return result.targets.length > 0 ? 0 : 1;
	}

	const warnings: string[] = [];
	const session = await buildSession(plan, (line) => {
		warnings.push(line);
		warn(line);
	});
	if (plan.mode === 'once') {
		try {
			return await runOnce(session, plan, process.stdout);
		} finally {
			await session.close();
		}
	}

	if (session.miners.length === 0) throw new UsageError('no miner to watch');
	const leaveFullScreen = enterFullScreen(process.stdout);
	session.start();
	const live = startLive(session, plan, warnings, () => instance.unmount());
	const instance = render(live.element, {incrementalRendering: true, maxFps: 20, patchConsole: true});
	try {
		await instance.waitUntilExit();
	} finally {
		leaveFullScreen();
		await live.close();
		await session.close();
	}

	return 0;
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

		if (error instanceof UsageError) {
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
