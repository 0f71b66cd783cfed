import process from 'node:process';
import meow from 'meow';
import packageJson from '../package.json' with {type: 'json'};
import {planRun, type RunPlan} from './cli/options.js';
import type {Session} from './cli/session.js';
import {UsageError} from './miner/target.js';

// Start-up time matters (rigtop is started by hand, often over SSH): this file loads only the flag
// parser. Everything else is imported where it is needed, and the bundle is split along those
// imports (scripts/build.mjs), so --version, --help, --once and config never load Ink or React,
// and the live dashboard's first poll is on the wire while Ink and React load.

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
		// meow's `pkg`: the fields it uses (version, description, the process title), so it does not look for package.json.
		pkg: {name: packageJson.name, version: packageJson.version, description: packageJson.description, bin: packageJson.bin},
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

/**
 * How long the live dashboard waits for the first poll of every miner before drawing: its first
 * frame then shows the miner's data instead of "connecting" (drawing twice also costs the second
 * frame Ink's render throttle). A miner that is slow to answer gets the dashboard after this.
 */
const FIRST_FRAME_WAIT_MS = 500;

/** Resolves when every miner has finished its first poll (answered or failed), or after `maxMs`. */
async function firstPolls(session: Session, maxMs: number): Promise<void> {
	const pending = session.miners.filter((miner) => miner.monitor.getState().polls === 0);
	if (pending.length === 0) return;
	await new Promise<void>((resolve) => {
		const unsubscribes: Array<() => void> = [];
		const done = () => {
			clearTimeout(timer);
			for (const unsubscribe of unsubscribes) unsubscribe();
			resolve();
		};

		const timer = setTimeout(done, maxMs);
		const check = () => {
			if (pending.every((miner) => miner.monitor.getState().polls > 0)) done();
		};

		for (const miner of pending) unsubscribes.push(miner.monitor.subscribe(check));
	});
}

/** Ink, React and the screens: the bulk of rigtop's code, only needed for the live dashboard. */
async function loadLiveUi() {
	const [{render}, {startLive}] = await Promise.all([import('ink'), import('./cli/live.js')]);
	return {render, startLive};
}

type LiveUi = Awaited<ReturnType<typeof loadLiveUi>>;

/** The live dashboard (or fleet view) until the user quits. */
async function runLive(session: Session, plan: RunPlan, warnings: readonly string[], loadingUi: Promise<LiveUi>): Promise<number> {
	if (session.miners.length === 0) throw new UsageError('no miner to watch');
	// The first poll runs while the rest of the UI code loads.
	session.start();
	const {render, startLive} = await loadingUi;
	await firstPolls(session, FIRST_FRAME_WAIT_MS);
	const live = startLive(session, plan, warnings, () => instance.unmount());
	// interactive: rigtop has already decided (a terminal on both ends, else --once), whatever CI says;
	// alternateScreen: the dashboard owns the window, as top and htop do, and the scrollback is untouched.
	const instance = render(live.element, {
		incrementalRendering: true,
		maxFps: 20,
		patchConsole: true,
		interactive: true,
		alternateScreen: true,
	});
	try {
		await instance.waitUntilExit();
	} finally {
		await live.close();
	}

	return 0;
}

async function main(): Promise<number> {
	if (cli.input[0] === 'config') {
		const {runConfigCommand} = await import('./cli/config-command.js');
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
		const [{discover}, {formatWhere}] = await Promise.all([import('./cli/build-session.js'), import('./discovery/where.js')]);
		const result = await discover(plan);
		process.stdout.write(`${formatWhere(result).join('\n')}\n`);
		return result.targets.length > 0 ? 0 : 1;
	}

	const warnings: string[] = [];
	const {buildSession} = await import('./cli/build-session.js');
	const building = buildSession(plan, (line) => {
		warnings.push(line);
		warn(line);
	});
	// Discovery mostly waits for the file system (it may read /proc): load the dashboard's code
	// meanwhile. A failure surfaces when runLive awaits it.
	const loadingUi = plan.mode === 'live' ? loadLiveUi() : null;
	loadingUi?.catch(() => undefined);
	const session = await building;
	try {
		if (plan.mode === 'once') {
			const {runOnce} = await import('./cli/run-once.js');
			return await runOnce(session, plan, process.stdout);
		}

		return await runLive(session, plan, warnings, loadingUi ?? loadLiveUi());
	} finally {
		await session.close();
	}
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		// NothingToWatchError (cli/build-session.ts), matched by name: that module loads only when needed.
		if (error instanceof Error && error.name === 'NothingToWatchError') {
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
