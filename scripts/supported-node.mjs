#!/usr/bin/env node
// Runs a repo script under a Node that rigtop supports: `node scripts/supported-node.mjs SCRIPT [ARG…]`.
//
// npm runs package scripts with the machine's own `node`, which may be older than rigtop's floor (this
// project was started on machines whose Node is 20, out of support since 2026-04-30). When it is, this
// fetches the floor's major from the npm registry (`npx -y -p node@22`, cached by npm after the first
// time) and runs SCRIPT under it, with that Node first on PATH, so everything SCRIPT starts (`node`,
// `npx`, the tests' CLIs) runs under it too. When the machine's Node is supported, SCRIPT runs in it.
//
// Kept to syntax and APIs that every Node since 14 has: it must run on the Node it replaces.
import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath, pathToFileURL} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
const floor = /^>=\s*(\d+)\.(\d+)/.exec(engines);
if (!floor) throw new Error(`package.json engines.node is ${engines}; expected ">=MAJOR.MINOR.PATCH"`);
const [floorMajor, floorMinor] = [Number(floor[1]), Number(floor[2])];
const [major, minor] = process.versions.node.split('.').map(Number);
const supported = major > floorMajor || (major === floorMajor && minor >= floorMinor);

const [script, ...args] = process.argv.slice(2);
if (!script) {
	process.stderr.write('usage: node scripts/supported-node.mjs SCRIPT [ARG…]\n');
	process.exit(2);
}

if (supported) {
	process.argv = [process.argv[0], path.resolve(script), ...args];
	await import(pathToFileURL(path.resolve(script)).href);
} else {
	process.stderr.write(
		`rigtop: this machine's Node is ${process.versions.node}; rigtop needs ${floorMajor}.${floorMinor} or newer, ` +
			`so ${script} runs under Node ${floorMajor} from the npm registry (npx -y -p node@${floorMajor})\n`,
	);
	const child = spawn('npx', ['-y', '-p', `node@${floorMajor}`, 'node', script, ...args], {stdio: 'inherit'});
	// Ctrl+C reaches the child from the terminal itself; a signal sent to this process is passed on.
	process.on('SIGINT', () => undefined);
	for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
	child.on('error', (error) => {
		process.stderr.write(`rigtop: could not start npx to fetch Node ${floorMajor}: ${error.message}\n`);
		process.exit(1);
	});
	child.on('exit', (code, signal) => {
		process.exit(code === null ? (signal === 'SIGINT' ? 130 : 1) : code);
	});
}
