#!/usr/bin/env node
import process from 'node:process';
import meow from 'meow';
import {render} from 'ink';
import {App} from './ui/app.js';
import {planRun} from './cli/options.js';
import {buildSession, discover, NothingToWatchError} from './cli/build-session.js';
import {formatWhere} from './discovery/where.js';
import {runOnce} from './cli/run-once.js';
import {enterFullScreen} from './cli/full-screen.js';
import {minerActions} from './cli/live-actions.js';
import {UsageError} from './miner/target.js';

const cli = meow(
	`
	Usage
	  $ rigtop [URL…]            live dashboard of the miner(s) at URL (http://host:port or host:port)
	  $ rigtop                   finds the XMRig running on this machine (its command line, config, ports)

	Options
	  --url URL                 a miner to watch (repeatable)
	  --token-file PATH         read the miner's access token from PATH (http.access-token)
	                            (or set RIGTOP_TOKEN; --token VALUE works but is visible in the process list)
	  --config, -c PATH         read the API address and token from the miner's own config file
	  --where                   print where each setting came from (token masked) and exit
	  --interval, -i SECONDS    poll interval, default 2, at least 0.25
	  --demo                    start a simulated miner on a free loopback port and watch it
	  --once                    print one snapshot as text and exit
	  --json                    with --once: print the snapshot as JSON (the normalized model, per miner)
	  --read-only               never write to the miner (no config apply, undo, pause or resume)
	  --no-color                no colours (so does the NO_COLOR variable)
	  --help, --version

	Exit codes (--once): 0 every miner was read, 1 one could not be, 2 bad usage.

	Keys (live): q quit · ? help · ↑↓ scroll threads · c config · p pause · r resume

	Examples
	  $ rigtop 127.0.0.1:18088 --token-file ~/.config/rigtop/token
	  $ rigtop --once --json http://10.0.0.5:8080
	  $ rigtop --demo
`,
	{
		importMeta: import.meta,
		allowUnknownFlags: false,
		booleanDefault: undefined,
		flags: {
			url: {type: 'string', isMultiple: true},
			tokenFile: {type: 'string'},
			token: {type: 'string'},
			config: {type: 'string', shortFlag: 'c'},
			where: {type: 'boolean', default: false},
			interval: {type: 'number', shortFlag: 'i', default: 2},
			demo: {type: 'boolean', default: false},
			once: {type: 'boolean', default: false},
			json: {type: 'boolean', default: false},
			readOnly: {type: 'boolean', default: false},
			color: {type: 'boolean', default: true},
		},
	},
);

async function main(): Promise<number> {
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

	const [miner] = session.miners;
	if (!miner) throw new UsageError('no miner to watch');
	const leaveFullScreen = enterFullScreen(process.stdout);
	session.start();
	// The alternate screen hides stderr: repeat the start-up warnings in the events log.
	for (const line of warnings) miner.monitor.addEvent('action', 'warn', line);
	const quit = () => instance.unmount();
	const instance = render(<App store={miner.monitor} onQuit={quit} color={plan.color} {...minerActions(miner, plan.readOnly)} />, {
		incrementalRendering: false,
		maxFps: 20,
		patchConsole: true,
	});
	try {
		await instance.waitUntilExit();
	} finally {
		leaveFullScreen();
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
