import {execFile, spawn, type ChildProcess} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';

/**
 * The real Prometheus and promtool (Debian's `prometheus` package, which .ci/run installs), for the exporter's tests.
 * A missing binary fails the test that needs it with the way to get it: these tests never skip.
 */

const DIRS = ['/usr/bin', '/usr/local/bin', '/bin'];

function which(name: string): string | null {
	for (const dir of [...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean), ...DIRS]) {
		const candidate = path.join(dir, name);
		if (existsSync(candidate)) return candidate;
	}

	return null;
}

/** The path of a Prometheus binary; throws, saying how to install it, when it is missing. */
export function prometheusBinary(name: 'prometheus' | 'promtool'): string {
	const found = which(name);
	if (found === null) {
		throw new Error(
			`${name} is not installed: the exporter's tests run the real Prometheus. Install Debian's package: apt-get install --no-install-recommends prometheus (.ci/run does)`,
		);
	}

	return found;
}

export type RunResult = {readonly code: number; readonly stdout: string; readonly stderr: string};

/** Runs promtool with arguments (and text on its stdin). */
export async function promtool(args: readonly string[], stdin?: string): Promise<RunResult> {
	const binary = prometheusBinary('promtool');
	return new Promise((resolve) => {
		const child = execFile(binary, args, {timeout: 60_000, maxBuffer: 64 * 1024 * 1024}, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
			resolve({code, stdout, stderr});
		});
		child.stdin?.end(stdin ?? '');
	});
}

/** `promtool check metrics` on an exposition: its exit code and what it said (lint problems included). */
export async function checkMetrics(text: string): Promise<RunResult> {
	return promtool(['check', 'metrics'], text);
}

export type ParsedSample = {readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number};

function unescape(value: string): string {
	return value.replaceAll(/\\(["\\n])/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/** The sample lines of an exposition (either format), for assertions. Comment lines are skipped. */
export function parseSamples(text: string): ParsedSample[] {
	const samples: ParsedSample[] = [];
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('#')) continue;
		const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
		if (!match) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
		const labels: Record<string, string> = {};
		const labelText = match[2] ?? '';
		const pair = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
		let found: RegExpExecArray | null;
		let consumed = 0;
		while ((found = pair.exec(labelText)) !== null) {
			labels[found[1]!] = unescape(found[2]!);
			consumed = pair.lastIndex;
		}

		if (consumed !== labelText.length) throw new Error(`bad labels in ${JSON.stringify(line)}`);
		samples.push({name: match[1]!, labels, value: Number(match[3])});
	}

	return samples;
}

/** The samples of one metric whose labels include `where`. */
export function select(samples: readonly ParsedSample[], name: string, where: Readonly<Record<string, string>> = {}): ParsedSample[] {
	return samples.filter((sample) => sample.name === name && Object.entries(where).every(([key, value]) => sample.labels[key] === value));
}

/** A free loopback port (Prometheus takes a port, not 0: the port is found, released and handed over). */
export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const {port} = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export type RunningPrometheus = {
	readonly url: string;
	readonly dir: string;
	/** Prometheus's own log so far. */
	log(): string;
	/** GET /api/v1/<path> with query parameters; throws on an HTTP or API error. */
	api<T = unknown>(apiPath: string, parameters?: Readonly<Record<string, string>>): Promise<T>;
	stop(): Promise<void>;
};

/**
 * Starts a real Prometheus on a free loopback port with `config` (YAML text; files beside it in `files`) and a
 * temporary data directory, both removed by stop().
 */
export async function startPrometheus(config: string, files: Readonly<Record<string, string>> = {}): Promise<RunningPrometheus> {
	const binary = prometheusBinary('prometheus');
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-prometheus-'));
	writeFileSync(path.join(dir, 'prometheus.yml'), config);
	for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	let output = '';
	const child: ChildProcess = spawn(
		binary,
		[
			`--config.file=${path.join(dir, 'prometheus.yml')}`,
			`--storage.tsdb.path=${path.join(dir, 'data')}`,
			`--web.listen-address=127.0.0.1:${port}`,
			'--web.enable-lifecycle',
			'--log.level=warn',
		],
		{stdio: ['ignore', 'pipe', 'pipe'], cwd: dir},
	);
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(timer);
		}

		rmSync(dir, {recursive: true, force: true});
	};

	const deadline = Date.now() + 20_000;
	for (;;) {
		if (child.exitCode !== null) {
			await stop();
			throw new Error(`prometheus exited (${child.exitCode}) at start:\n${output}`);
		}

		const ready = await fetch(`${url}/-/ready`).then(
			(response) => response.ok,
			() => false,
		);
		if (ready) break;
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`prometheus was not ready within 20 s:\n${output}`);
		}

		await new Promise((resolve) => setTimeout(resolve, 100));
	}

	return {
		url,
		dir,
		log: () => output,
		async api<T>(apiPath: string, parameters: Readonly<Record<string, string>> = {}): Promise<T> {
			const query = new URLSearchParams(parameters).toString();
			const response = await fetch(`${url}/api/v1/${apiPath}${query === '' ? '' : `?${query}`}`);
			const body = (await response.json()) as {status: string; data: T; error?: string; errorType?: string};
			if (body.status !== 'success') throw new Error(`${apiPath} ${query}: ${body.errorType ?? ''} ${body.error ?? response.status}`);
			return body.data;
		},
		stop,
	};
}

/** Polls `test` every 250 ms until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function eventually<T>(test: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await test();
			if (value !== undefined) return value;
		} catch (error) {
			last = error;
		}

		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);

/**
 * The metric names a PromQL expression reads: its identifiers once strings, label matchers, ranges and the label lists
 * of `by`, `on`, `group_left`… are removed, less function names (an identifier before `(`), keywords and numbers.
 */
export function promqlMetricNames(expr: string): string[] {
	const stripped = expr
		.replaceAll(/"(?:[^"\\]|\\.)*"/g, '""')
		.replaceAll(/\{[^}]*\}/g, ' ')
		.replaceAll(/\[[^\]]*\]/g, ' ')
		.replaceAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
	const names: string[] = [];
	for (const match of stripped.matchAll(/(?<![\w.$])[a-zA-Z_:][\w:]*(?![\w(])(?!\s*\()/g)) {
		if (!PROMQL_WORDS.has(match[0])) names.push(match[0]);
	}

	return [...new Set(names)];
}
