// The real dashboard (source/ui App) rendered by Ink into an in-memory terminal, fed with states
// whose values change on every update. bench/render.bench.mjs and bench/soak.bench.mjs bundle
// this file with the shipped bundle's esbuild settings (production React, the versioned patches)
// and run it in a process of its own:
//
//   node --expose-gc .bench-out/dashboard-driver.mjs render URL COLUMNS ROWS UPDATES
//   node --expose-gc .bench-out/dashboard-driver.mjs soak URL COLUMNS ROWS WARMUP UPDATES
//
// It prints one JSON line with what it measured. The first state is a real poll of the miner at
// URL (the simulator); every later one changes every number the panes show.
import {EventEmitter} from 'node:events';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {PassThrough} from 'node:stream';
import {render} from 'ink';
import {App} from '../source/ui/app.js';
import {MinerClient} from '../source/miner/client.js';
import {MinerReader} from '../source/miner/reader.js';
import type {MinerSnapshot, RateWindows} from '../source/miner/model.js';
import {pollOnce} from '../source/monitor/monitor.js';
import type {MinerEvent, MonitorState} from '../source/monitor/types.js';
import type {Store} from '../source/monitor/store.js';

class Terminal extends EventEmitter {
	readonly isTTY = true;
	bytes = 0;
	writes = 0;
	constructor(
		readonly columns: number,
		readonly rows: number,
	) {
		super();
	}

	write(chunk: string | Uint8Array): boolean {
		this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
		this.writes += 1;
		return true;
	}
}

function keyboard(): NodeJS.ReadStream {
	const stdin = new PassThrough() as unknown as NodeJS.ReadStream & {isTTY: boolean};
	stdin.isTTY = true;
	stdin.setRawMode = () => stdin;
	stdin.ref = () => stdin;
	stdin.unref = () => stdin;
	return stdin;
}

class ChangingStore implements Store<MonitorState> {
	#state: MonitorState;
	readonly #base: MonitorState;
	readonly #listeners = new Set<() => void>();
	#events: MinerEvent[];
	#history: (number | null)[];

	constructor(base: MonitorState) {
		this.#base = base;
		this.#state = base;
		this.#events = [...base.events];
		this.#history = [...base.recentRates];
	}

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	getState(): MonitorState {
		return this.#state;
	}

	/** The state after update `i`: every figure on screen moves (distinct strings for Ink's caches). */
	step(i: number): void {
		const base = this.#base;
		const snapshot = base.snapshot as MinerSnapshot;
		const wobble = (value: number | null, salt: number): number | null =>
			value === null ? null : value * (1 + Math.sin(i * 0.37 + salt) * 0.05) + (i % 97) * 0.013;
		const windows = (rates: RateWindows, salt: number): RateWindows => [
			wobble(rates[0], salt),
			wobble(rates[1], salt + 1),
			wobble(rates[2], salt + 2),
		];
		const total = windows(snapshot.hashrate.total, 0);
		this.#history.push(total[0]);
		if (this.#history.length > Math.max(60, base.recentRates.length)) this.#history.shift();
		if (i % 50 === 0) {
			this.#events.push({
				seq: 10_000 + i,
				at: Date.now(),
				kind: 'rejected',
				severity: 'warn',
				message: `share rejected (${i % 7} of ${snapshot.results.total + i})`,
			});
			if (this.#events.length > 50) this.#events.shift();
		}

		const good = snapshot.results.good + Math.floor(i / 3);
		this.#state = {
			...base,
			lastSuccessAt: Date.now(),
			lastAttemptAt: Date.now(),
			polls: base.polls + i,
			recentRates: [...this.#history],
			sessionAverage: wobble(base.sessionAverage, 9),
			events: [...this.#events],
			snapshot: {
				...snapshot,
				uptime: (snapshot.uptime ?? 0) + i,
				hashrate: {total, highest: wobble(snapshot.hashrate.highest, 5)},
				results: {
					...snapshot.results,
					good,
					total: good + snapshot.results.rejected + Math.floor(i / 500),
					best: (snapshot.results.best ?? 1000) + i * 17,
				},
				connection: {
					...snapshot.connection,
					ping: 40 + (i % 37),
					uptime: (snapshot.connection.uptime ?? 0) + i,
					diff: (snapshot.connection.diff ?? 100_000) + (i % 1013) * 101,
				},
				threads: snapshot.threads.map((thread, index) => ({...thread, hashrate: windows(thread.hashrate, index * 3)})),
				resources: snapshot.resources
					? {...snapshot.resources, rss: (snapshot.resources.rss ?? 0) + (i % 4096) * 4096, loadAverage: [7 + (i % 300) / 100, 8, 8.05]}
					: null,
			},
		};
		for (const listener of this.#listeners) listener();
	}
}

async function realState(url: string): Promise<MonitorState> {
	const client = new MinerClient({url, token: null});
	const reader = new MinerReader(client);
	const state = await pollOnce(async (signal) => reader.read(signal), url);
	await client.close();
	if (!state.snapshot) throw new Error(`no snapshot from ${url}: ${state.error?.message ?? state.status}`);
	return state;
}

function memory() {
	globalThis.gc?.();
	globalThis.gc?.();
	const usage = process.memoryUsage();
	return {heapUsed: usage.heapUsed, rss: usage.rss};
}

async function main(): Promise<void> {
	const [mode, url, columnsText, rowsText, ...counts] = process.argv.slice(2);
	if ((mode !== 'render' && mode !== 'soak') || !url) throw new Error('usage: dashboard-driver render|soak URL COLUMNS ROWS COUNTS…');
	const store = new ChangingStore(await realState(url));
	const terminal = new Terminal(Number(columnsText), Number(rowsText));
	const renderTimes: number[] = [];
	let renders = 0;
	let rendered: (() => void) | null = null;
	const instance = render(<App miners={[{store}]} onQuit={() => undefined} />, {
		stdout: terminal as unknown as NodeJS.WriteStream,
		stdin: keyboard(),
		stderr: terminal as unknown as NodeJS.WriteStream,
		// The CLI's settings (interactive, as rigtop decides for itself whatever CI says), but no frame-rate cap:
		// every update is drawn.
		interactive: true,
		incrementalRendering: true,
		maxFps: Number(process.env['DRIVER_MAXFPS'] ?? 1000),
		patchConsole: false,
		exitOnCtrlC: false,
		onRender({renderTime}) {
			renders += 1;
			if (mode === 'render') renderTimes.push(renderTime);
			rendered?.();
		},
	});

	const updateTimes: number[] = [];
	let i = 0;
	/** Makes `count` updates, each waited for until Ink has drawn it. */
	const drive = async (count: number) => {
		const target = renders + count;
		while (renders < target) {
			i += 1;
			const drawn = new Promise<void>((resolve) => {
				rendered = resolve;
			});
			const started = performance.now();
			store.step(i);
			await drawn;
			// Only the render mode keeps them: in the soak, 200,000 of them would be growth of the driver's own.
			if (mode === 'render') updateTimes.push(performance.now() - started);
		}
	};

	// Let the first frame and the effects settle.
	await new Promise((resolve) => setTimeout(resolve, 200));
	if (mode === 'render') {
		await drive(200);
		renderTimes.length = 0;
		updateTimes.length = 0;
		const bytesBefore = terminal.bytes;
		await drive(Number(counts[0] ?? 2000));
		process.stdout.write(
			`${JSON.stringify({renderTimes, updateTimes, bytesPerUpdate: (terminal.bytes - bytesBefore) / updateTimes.length})}\n`,
		);
	} else {
		const warmup = Number(counts[0] ?? 20_000);
		const total = Number(counts[1] ?? 200_000);
		const started = performance.now();
		await drive(warmup);
		const afterWarmup = memory();
		const samples: {renders: number; heapUsed: number; rss: number}[] = [];
		const step = Math.max(1, Math.floor(total / 20));
		for (let done = 0; done < total; done += step) {
			await drive(Math.min(step, total - done));
			samples.push({renders, ...memory()});
		}

		const end = memory();
		process.stdout.write(
			`${JSON.stringify({warmup, measured: total, renders, seconds: (performance.now() - started) / 1000, afterWarmup, end, samples, bytes: terminal.bytes})}\n`,
		);
	}

	instance.unmount();
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`dashboard-driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	},
);
