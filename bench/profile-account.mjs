// Where each millisecond of rigtop's steady loop goes (issue 25): a CPU profile of the built CLI watching one simulated
// miner, summed by category. Not a benchmark (nothing is judged or written to bench/results.json); its account is the
// table in docs/performance.md.
//
//   node bench/profile-account.mjs record [--seconds 90] [--from 30] [--to SECONDS] [--interval 1] [--dir DIR] [--fleet N]
//       builds a copy of the CLI with source maps (same settings as dist/, scratch folder), starts the simulator
//       (--sim-warm, token, not restricted) and runs `node --cpu-prof --cpu-prof-dir DIR cli.js URL -i 1` in an
//       80×24 pty (util-linux `script`) for --seconds, presses q, and prints the account of the window from --from
//       seconds after start to --to (default: the end, where q and the history's close run). With --fleet N: N
//       simulated miners (bench/sim-fleet.ts, a process of their own) watched through a --rigs file in 120×40. The
//       Node that runs this script is the one profiled.
//   node bench/profile-account.mjs account FILE.cpuprofile [--from 30] [--to 90]
//       the account of an existing profile (bundled code is named through the .map files beside it, when there).
//
// Each sample's self time goes to one category: the leaf-most bundled frame names the package or rigtop module (via the
// source map); node internals above it (closer to the leaf) make it the terminal write when Ink was writing, the
// HTTP exchange when they are node:http/net; JSON.parse is parsing wherever it is called from; samples with no bundled
// frame at all are the HTTP exchange (socket events), timers (node:internal/timers with nothing of ours under them),
// or node's own; (garbage collector), (program) and (idle) are V8's.
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {cliBuild} from '../scripts/build.mjs';
import {inPty, scratchDir, sleep, startMiner, startSimFleet, waitUntil} from './lib.mjs';

/** The categories, in the order the table shows them. */
export const CATEGORIES = [
	'HTTP exchange (node:http, net, the client)',
	'JSON parsing',
	'normalization',
	'monitor and events',
	'history write (recorder, node:sqlite)',
	'rigtop components (render functions, format)',
	'React (react-reconciler, scheduler, Ink host config)',
	'Ink layout (yoga, styles)',
	'Ink output (output, log-update, string-width, wrap, ansi)',
	'Ink other (render loop, throttle, input)',
	'terminal write (stdout)',
	'timers firing with nothing to do',
	'other JS (node internals, start-up leftovers)',
	'GC',
	'program (native, outside JS)',
	'idle',
];
const [HTTP, JSONP, NORM, MONITOR, HISTORY, COMPONENTS, REACT, LAYOUT, OUTPUT, INK, WRITE, TIMERS, OTHER, GC, PROGRAM, IDLE] = CATEGORIES;

/** The category of an original source path (from the source map), or null when it says nothing. */
function sourceCategory(source) {
	const s = source.replaceAll('\\', '/');
	const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(s);
	if (pkg) {
		const [, name, file] = pkg;
		if (name === 'react-reconciler' || name === 'react' || name === 'scheduler') return REACT;
		if (name === 'yoga-layout') return LAYOUT;
		if (name === 'ink') {
			if (/reconciler\.js$/.test(file)) return REACT;
			if (/(dom|styles|get-max-width)\.[jt]sx?$/.test(file)) return LAYOUT;
			if (
				/(output|render-node-to-output|render-border|render-background|log-update|line-update|wrap-text|squash-text-nodes|measure-text|colorize|ansi-tokenizer|renderer|write-synchronized|sanitize-ansi)\.[jt]sx?$/.test(
					file,
				)
			)
				return OUTPUT;
			return INK;
		}
		if (
			/^(string-width|wrap-ansi|slice-ansi|strip-ansi|ansi-regex|ansi-styles|chalk|cli-truncate|widest-line|get-east-asian-width|emoji-regex|is-fullwidth-code-point|ansi-escapes|cli-boxes|@alcalzone\/ansi-tokenize)$/.test(
				name,
			)
		)
			return OUTPUT;
		if (name === 'es-toolkit' || name === 'signal-exit' || name === 'patch-console' || name === 'cli-cursor') return INK;
		return null;
	}

	if (/source\/miner\/normalize|source\/miner\/(json-fields|shapes|model|dialect|abilities)/.test(s)) return NORM;
	if (/source\/miner\/json-text/.test(s)) return JSONP;
	if (/source\/miner\//.test(s)) return HTTP;
	if (/source\/(monitor|alerts|session)\/|source\/store\.ts/.test(s)) return MONITOR;
	if (/source\/history\//.test(s)) return HISTORY;
	if (/source\/ui\/hooks\/use-now/.test(s)) return TIMERS;
	if (/source\/(ui|format\.ts|duration\.ts)/.test(s)) return COMPONENTS;
	return null;
}

// --- source maps (VLQ mappings, decoded here: no dependency) ---
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VLQ = new Map([...BASE64].map((char, index) => [char, index]));

/** For a .map file: lookup(line0, column0) → the original source of the nearest mapping at or before it. */
function loadMap(file) {
	const map = JSON.parse(readFileSync(file, 'utf8'));
	const lines = [];
	let source = 0;
	for (const text of map.mappings.split(';')) {
		const segments = [];
		let column = 0;
		for (const segment of text.split(',')) {
			if (segment === '') continue;
			const values = [];
			let value = 0;
			let shift = 0;
			for (const char of segment) {
				const digit = VLQ.get(char);
				value += (digit & 31) << shift;
				if (digit & 32) shift += 5;
				else {
					values.push(value & 1 ? -(value >>> 1) : value >>> 1);
					value = 0;
					shift = 0;
				}
			}

			column += values[0];
			if (values.length > 1) source += values[1];
			segments.push([column, values.length > 1 ? source : -1]);
		}

		lines.push(segments);
	}

	return (line, col) => {
		for (let l = line; l >= 0; l--) {
			const segments = lines[l] ?? [];
			for (let i = segments.length - 1; i >= 0; i--) {
				if ((l < line || segments[i][0] <= col) && segments[i][1] >= 0) return map.sources[segments[i][1]];
			}
		}

		return '';
	};
}

/** Sums a profile's self time by category over [fromS, toS] seconds after its start. */
export function account(profileFile, {from = 30, to = Number.POSITIVE_INFINITY} = {}) {
	const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const maps = new Map();
	const sourceOf = (frame) => {
		const url = frame.url;
		if (!url.startsWith('file:')) return null;
		const file = fileURLToPath(url);
		const mapFile = `${file}.map`;
		if (!maps.has(mapFile)) maps.set(mapFile, existsSync(mapFile) ? loadMap(mapFile) : null);
		const lookup = maps.get(mapFile);
		return lookup ? lookup(frame.lineNumber, frame.columnNumber) : file;
	};

	const categoryCache = new Map();
	const categoryOfNode = (id) => {
		if (categoryCache.has(id)) return categoryCache.get(id);
		const stack = [];
		for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at).callFrame);
		const leaf = stack[0];
		let category;
		if (leaf.functionName === '(garbage collector)') category = GC;
		else if (leaf.functionName === '(idle)') category = IDLE;
		else if (leaf.functionName === '(program)' || leaf.functionName === '(root)') category = PROGRAM;
		else if (leaf.url === '' && leaf.functionName === 'parse' && stack.some((f) => f.url.startsWith('file:'))) category = JSONP;
		else {
			const k = stack.findIndex((frame) => frame.url.startsWith('file:'));
			const internals = k === -1 ? stack : stack.slice(0, k);
			const nodeUrls = internals.map((frame) => frame.url).join(' ');
			if (k === -1) {
				if (/node:(_http|net|internal\/(http|streams|stream_base|net|dns))|node:internal\/deps\/undici/.test(nodeUrls)) category = HTTP;
				else if (/node:internal\/timers/.test(nodeUrls)) category = TIMERS;
				else category = OTHER;
			} else {
				let owner = null;
				for (let i = k; i < stack.length && owner === null; i++) {
					if (stack[i].url.startsWith('file:')) owner = sourceCategory(sourceOf(stack[i]) ?? '');
				}

				owner ??= OTHER;
				const writing =
					/node:(tty|net|internal\/(streams|stream_base|tty))/.test(nodeUrls) ||
					internals.some((f) => /^(writeUtf8String|writev|writeGeneric|writeOrBuffer)$/.test(f.functionName));
				if (writing && [OUTPUT, INK, REACT, COMPONENTS, LAYOUT].includes(owner)) category = WRITE;
				else if (/node:(_http|net|internal\/http)/.test(nodeUrls) && owner !== HISTORY) category = HTTP;
				else category = owner;
			}
		}

		categoryCache.set(id, category);
		return category;
	};

	const sums = new Map(CATEGORIES.map((category) => [category, 0]));
	let t = profile.startTime;
	const start = profile.startTime;
	const fromUs = start + from * 1e6;
	const toUs = start + to * 1e6;
	let first = null;
	let last = null;
	for (let i = 0; i < profile.samples.length; i++) {
		const delta = profile.timeDeltas[i] ?? 0;
		t += delta;
		if (t < fromUs || t > toUs) continue;
		first ??= t - delta;
		last = t;
		const category = categoryOfNode(profile.samples[i]);
		// A sample's time is the gap to the next one (the time the sampled stack ran).
		const next = profile.timeDeltas[i + 1] ?? 0;
		sums.set(category, sums.get(category) + next / 1000);
	}

	const seconds = first === null ? 0 : (last - first) / 1e6;
	return {seconds, sums};
}

/** The account as a markdown table's rows: category, ms a second. */
export function formatAccount({seconds, sums}) {
	const busy = [...sums].filter(([category]) => category !== IDLE).reduce((total, [, ms]) => total + ms, 0);
	const lines = [
		`window ${seconds.toFixed(1)} s; busy (everything but idle) ${(busy / seconds).toFixed(2)} ms a second`,
		'',
		'| category | ms a second |',
		'| --- | --- |',
	];
	for (const [category, ms] of sums) lines.push(`| ${category} | ${(ms / seconds).toFixed(2)} |`);
	return lines.join('\n');
}

function option(args, name, fallback) {
	const index = args.indexOf(`--${name}`);
	return index === -1 ? fallback : args[index + 1];
}

async function record(args) {
	const seconds = Number(option(args, 'seconds', 90));
	const from = Number(option(args, 'from', 30));
	const to = Number(option(args, 'to', Number.POSITIVE_INFINITY));
	const interval = option(args, 'interval', '1');
	const fleet = Number(option(args, 'fleet', 0));
	const dir = option(args, 'dir', scratchDir(`profile-${process.versions.node}`));
	const buildDir = scratchDir('profile-build');
	await build({...cliBuild, outdir: buildDir, sourcemap: true});
	const token = 'profile-token-0123';
	let miner;
	let watched;
	if (fleet > 0) {
		miner = await startSimFleet(fleet);
		const rigsFile = path.join(scratchDir('profile-rigs'), 'rigs.json');
		writeFileSync(rigsFile, JSON.stringify(miner.urls.map((url, i) => ({name: `rig-${String(i + 1).padStart(3, '0')}`, url}))));
		watched = ['--rigs', rigsFile];
	} else {
		miner = await startMiner({token});
		watched = [miner.url, '--token-file', miner.tokenFile];
	}

	const env = {...process.env, XDG_STATE_HOME: scratchDir('profile-state'), XDG_CACHE_HOME: scratchDir('profile-cache')};
	let seen = '';
	const pty = inPty(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, path.join(buildDir, 'cli.js'), ...watched, '-i', interval], {
		env,
		...(fleet > 0 ? {cols: 120, rows: 40} : {}),
		onOutput(chunk) {
			seen = (seen + chunk).slice(-20_000);
		},
	});
	try {
		await waitUntil(
			() => (fleet > 0 ? seen.includes(`${fleet} live`) : seen.includes('bench-rig')),
			30_000,
			'the first frame with the miner',
		);
		await sleep(seconds * 1000);
		pty.child.stdin.write('q');
		await Promise.race([pty.exited, sleep(10_000)]);
	} finally {
		await pty.stop();
		await miner.stop();
	}

	const profiles = readdirSync(dir)
		.filter((name) => name.endsWith('.cpuprofile'))
		.sort();
	const file = path.join(dir, profiles.at(-1));
	console.log(`Node ${process.version}, ${file}`);
	console.log(formatAccount(account(file, {from, to})));
}

const [mode, ...rest] = process.argv.slice(2);
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	if (mode === 'record') await record(rest);
	else if (mode === 'account' && rest[0]) {
		console.log(
			formatAccount(account(rest[0], {from: Number(option(rest, 'from', 30)), to: Number(option(rest, 'to', Number.POSITIVE_INFINITY))})),
		);
	} else {
		console.error(
			'usage: node bench/profile-account.mjs record [--seconds 90] [--from 30] [--to SECONDS] [--interval 1] [--dir DIR] [--fleet N]\n       node bench/profile-account.mjs account FILE.cpuprofile [--from 30] [--to 90]',
		);
		process.exitCode = 2;
	}
}
