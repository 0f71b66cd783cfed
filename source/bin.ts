#!/usr/bin/env node
// The shipped entry, dist/cli.js. Its shebang gives Node one option, on Node's own command line (no
// runtime V8 flags): V8's young generation stops growing at 4 MB semi-spaces. With V8's defaults it
// grows to 16-32 MB under a frame a second, and rigtop watching one miner held 110-120 MB of RSS
// against the goal of 100 MB; with it, 91-96 MB, for about a tenth more CPU (docs/performance.md,
// `node bench/run.mjs steady`). `env -S` splits the line (GNU coreutils 8.30+, BSD and macOS env).
//
// It does two things before loading rigtop itself (source/cli.tsx, imported below so that its code is
// never parsed on a Node that cannot run it):
//
// - On a Node older than rigtop supports it says so in one line, with the command that gets a
//   supported one, and exits 1: never a stack trace, never a half-drawn screen. This file and
//   cli/node-floor.ts are kept to syntax that every Node since 14 parses.
// - It turns on Node's module compile cache (Node 22.1+) in $XDG_CACHE_HOME/rigtop (default
//   ~/.cache/rigtop), so that every later start loads rigtop's code as cached V8 code instead of
//   compiling it again. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {nodeIsSupported, unsupportedNodeMessage} from './cli/node-floor.js';

function cacheDirectory(): string {
	const xdg = process.env['XDG_CACHE_HOME'];
	const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
	return path.join(base, 'rigtop');
}

if (nodeIsSupported(process.versions.node)) {
	try {
		module.enableCompileCache(cacheDirectory());
	} catch {
		// A cache that cannot be used only costs start-up time.
	}

	await import('./cli.js');
} else {
	process.stderr.write(unsupportedNodeMessage(process.versions.node));
	process.exitCode = 1;
}
