#!/usr/bin/env node
// `npm run demo` (through scripts/supported-node.mjs): build, then rigtop against the simulated miner.
import {spawnSync} from 'node:child_process';
import process from 'node:process';

const built = spawnSync(process.execPath, ['scripts/build.mjs'], {stdio: 'inherit'});
if (built.status !== 0) process.exit(built.status ?? 1);
const demo = spawnSync(process.execPath, ['dist/cli.js', '--demo', ...process.argv.slice(2)], {stdio: 'inherit'});
process.exit(demo.status ?? 1);
