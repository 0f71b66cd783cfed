import process from 'node:process';
import {isMainThread, parentPort, Worker, workerData} from 'node:worker_threads';
import {createSession, type SessionTarget} from '../cli/session.js';
import {UsageError} from '../miner/target.js';
import type {EventKind} from '../monitor/types.js';
import {prepareServing, serveMiners, type PreparedServing, type ServeSettings} from './serve.js';

/**
 * `rigtop exporter`: polls the miners on its own interval and serves /metrics until SIGINT or SIGTERM. It writes one
 * line to stderr when it starts and one per change of a miner's link (down, back up, an error that needs the user, a
 * restart), each naming the miner, never a token.
 *
 * The polling and the server run in a worker thread whose heap is bounded (Node's Worker `resourceLimits`), sized from
 * the number of miners. Left to V8's defaults on a machine with gigabytes of memory, the old generation grows to about
 * four times what is live before it is collected: at 1000 miners (about 55 MB live) the process reached 330-420 MB
 * RSS; with the bound, V8 collects sooner and RSS stays under 200 MB (docs/prometheus/README.md, Performance). The
 * main thread only checks the flags, hands the targets over and relays the worker's log lines.
 */

export type ExporterSettings = ServeSettings & {readonly intervalMs: number};

/** Events worth a log line in a long-running service; share-by-share events are Prometheus's to count. */
const LOGGED: ReadonlySet<EventKind> = new Set(['down', 'up', 'error', 'restarted']);

/** What the worker is handed. Tokens travel in memory between the two threads only. */
type WorkerInput = {
	readonly kind: 'rigtop-exporter';
	readonly targets: readonly SessionTarget[];
	readonly intervalMs: number;
	readonly prepared: PreparedServing;
	readonly version: string;
};

type FromWorker =
	| {readonly type: 'log'; readonly line: string}
	| {readonly type: 'serving'; readonly url: string}
	| {readonly type: 'failed'; readonly message: string};

type ToWorker = {readonly type: 'stop'};

/**
 * The worker's old-generation bound: room for about 4 times what 1000 miners keep live (about 55 KB each, measured),
 * and never under 96 MB. V8 collects when the heap nears it, so a fleet that needs more is slower, not killed, until
 * it truly needs more than the bound; then rigtop says so and exits 1.
 */
export function heapLimitMb(miners: number): number {
	return Math.max(64, Math.ceil(32 + miners * 0.12));
}

/** The young generation: small, so that each scavenge stays short and little of a poll's garbage is promoted. */
const YOUNG_GENERATION_MB = 8;

export async function runExporter(
	targets: readonly SessionTarget[],
	settings: ExporterSettings,
	log: (line: string) => void,
	signals: NodeJS.EventEmitter = process,
): Promise<number> {
	if (targets.length === 0) throw new UsageError('no miner to watch');
	const prepared = await prepareServing(settings, log);
	const input: WorkerInput = {kind: 'rigtop-exporter', targets, intervalMs: settings.intervalMs, prepared, version: settings.version};
	const limitMb = heapLimitMb(targets.length);
	const worker = new Worker(new URL(import.meta.url), {
		workerData: input,
		resourceLimits: {maxOldGenerationSizeMb: limitMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB},
		stdout: false,
		stderr: false,
	});

	return new Promise<number>((resolve, reject) => {
		let stopping = false;
		const stop = () => {
			if (stopping) return;
			stopping = true;
			worker.postMessage({type: 'stop'} satisfies ToWorker);
		};

		const done = () => {
			signals.off('SIGINT', stop);
			signals.off('SIGTERM', stop);
		};

		signals.on('SIGINT', stop);
		signals.on('SIGTERM', stop);
		let failure: string | null = null;
		worker.on('message', (message: FromWorker) => {
			switch (message.type) {
				case 'log':
					log(message.line);
					break;
				case 'serving':
					log(
						`serving ${message.url}: ${targets.length} miner${targets.length === 1 ? '' : 's'}, polled every ${settings.intervalMs / 1000} s`,
					);
					break;
				case 'failed':
					failure = message.message;
					break;
			}
		});
		worker.on('error', (error: Error & {code?: string}) => {
			failure =
				error.code === 'ERR_WORKER_OUT_OF_MEMORY'
					? `the exporter needed more than its ${limitMb} MB heap for ${targets.length} miners and stopped; please report this`
					: error.message;
		});
		worker.on('exit', (code) => {
			done();
			if (failure !== null) {
				reject(new Error(failure));
				return;
			}

			if (code === 0 && stopping) log('exporter stopped');
			resolve(code === 0 && stopping ? 0 : 1);
		});
	});
}

/** The worker: the session, the collector and the server, until told to stop. */
async function workerMain(input: WorkerInput, port: NonNullable<typeof parentPort>): Promise<void> {
	const send = (message: FromWorker) => port.postMessage(message);
	const session = createSession(input.targets, input.intervalMs);
	let served;
	try {
		served = await serveMiners(session, input.prepared, input.version);
	} catch (error) {
		await session.close();
		send({type: 'failed', message: error instanceof Error ? error.message : String(error)});
		process.exit(1);
	}

	const lastSeq = session.miners.map(() => 0);
	for (const [index, miner] of session.miners.entries()) {
		miner.monitor.subscribe(() => {
			for (const event of miner.monitor.getState().events) {
				if (event.seq <= lastSeq[index]!) continue;
				lastSeq[index] = event.seq;
				if (LOGGED.has(event.kind)) send({type: 'log', line: `${served.labels[index]}: ${event.message}`});
			}
		});
	}

	session.start();
	send({type: 'serving', url: served.url});
	port.on('message', (message: ToWorker) => {
		if (message.type !== 'stop') return;
		void (async () => {
			await served.close();
			await session.close();
			// Ends this thread only; whatever a miner connection still holds goes with it.
			process.exit(0);
		})();
	});
}

if (!isMainThread && parentPort && (workerData as Partial<WorkerInput> | null)?.kind === 'rigtop-exporter') {
	void workerMain(workerData as WorkerInput, parentPort);
}
