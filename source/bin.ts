#!/usr/bin/env node
// The shipped entry, dist/cli.js. No node option on its shebang: on Node 22 any V8 option makes Node
// compile its own built-in modules at every start (12-15 ms), and the --max-semi-space-size=4 it once
// carried to bound RSS cost more CPU than the memory it saved was worth on a mining rig
// (docs/performance.md, "Steady, RSS and no node option on the shebang"). Measured again for issue 25, it
// takes --once above 1.6x the bare request on Node 22 and leaves one miner above 100 MB on Node 26
// (docs/performance.md, "The young generation's limit on the shebang, measured again").
//
// It does two things before loading rigtop itself (source/cli.tsx, imported below so that its code is
// never parsed on a Node that cannot run it):
//
// - On a Node older than rigtop supports it says so in one line, with the command that gets a
//   supported one, and exits 1: never a stack trace, never a half-drawn screen. This file and
//   cli/node-floor.ts are kept to syntax that every Node since 14 parses.
// - It turns on Node's module compile cache (Node 22.1+) in $XDG_CACHE_HOME/rigtop (default
//   ~/.cache/rigtop), so that every later start loads rigtop's code as cached V8 code instead of
//   compiling it again. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program. The
//   folder is made first (config/make-directory.ts): Node makes it with its recursive mkdir, which
//   never returns where no folder can be made (under /proc, behind a symlink to an unmounted disk).
// - It lets stdout and stderr close under every command (`rigtop history --json | head -1`): quietly, never
//   with a stack trace (cli/closed-pipe.ts, kept to the same syntax).
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {survivePipeClosing} from './cli/closed-pipe.js';
import {nodeIsSupported, unsupportedNodeMessage} from './cli/node-floor.js';
import {makeDirectorySync} from './config/make-directory.js';

function cacheDirectory(): string {
	const xdg = process.env['XDG_CACHE_HOME'];
	const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
	return path.join(base, 'rigtop');
}

survivePipeClosing(process.stdout, process.stderr);
if (nodeIsSupported(process.versions.node)) {
	try {
		if (!process.env['NODE_DISABLE_COMPILE_CACHE']) {
			const directory = cacheDirectory();
			makeDirectorySync(directory, 0o700);
			module.enableCompileCache(directory);
		}
	} catch {
		// A cache that cannot be used only costs start-up time.
	}

	await import('./cli.js');
} else {
	process.stderr.write(unsupportedNodeMessage(process.versions.node, process.argv[1] || 'rigtop'));
	process.exitCode = 1;
}
