#!/usr/bin/env node
// `npm run bench` (through scripts/supported-node.mjs): build, then every benchmark (bench/run.mjs).
import {spawnSync} from 'node:child_process';
import process from 'node:process';

const built = spawnSync(process.execPath, ['scripts/build.mjs'], {stdio: 'inherit'});
if (built.status !== 0) process.exit(built.status ?? 1);
const run = spawnSync(process.execPath, ['bench/run.mjs', ...process.argv.slice(2)], {stdio: 'inherit'});
process.exit(run.status ?? 1);
