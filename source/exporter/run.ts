import process from 'node:process';
import {isMainThread, parentPort, Worker, workerData} from 'node:worker_threads';
import type {SessionTarget, WatchedMiner} from '../session/session.js';
import {UsageError} from '../session/errors.js';
import {kindRow, kindsWhere, type EventKind} from '../monitor/event-kinds.js';
import type {LogFields, Logger, LogLevel} from './log.js';
import {DEFAULT_WORKER_METRICS_LIMIT, type WorkerMetrics} from './worker-metrics.js';
import {prepareServing, serveMiners, type PreparedServing, type ServedMetrics, type ServeSettings} from './serve.js';
import type {ExporterNotify} from './notify.js';

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

export type ExporterSettings = ServeSettings & {
	readonly intervalMs: number;
	/**
	 * Whether each poll reads the per-thread document (/2/backends, /1/threads) for the per-thread and per-backend
	 * series; --no-thread-metrics: no. Default true.
	 */
	readonly threads?: boolean;
	/** A proxy's per-worker series (--no-worker-metrics, --worker-metrics-limit); default on, up to the default limit. */
	readonly workers?: WorkerMetrics;
	/**
	 * SIGHUP: finds the miners again (re-reads the rigs file); throws with one line when it cannot, and the miners
	 * served stay as they were. Without it, SIGHUP keeps the same miners (and still re-reads the serving settings).
	 */
	readonly reloadTargets?: () => Promise<readonly SessionTarget[]>;
	/** Notifications, from the worker where the monitors are (its alert center, its notifier); absent for none. */
	readonly notify?: ExporterNotify;
};

/** Events worth a log line in a long-running service, at their level (their rows' `logged`, monitor/event-kinds.ts). */
const LOGGED: ReadonlyMap<EventKind, LogLevel> = new Map(
	kindsWhere((row) => row.logged !== undefined).map((kind) => [kind, kindRow(kind)?.logged ?? 'info']),
);

/** What the worker is handed. Tokens travel in memory between the two threads only. */
type WorkerInput = {
	readonly kind: 'rigtop-exporter';
	readonly targets: readonly SessionTarget[];
	readonly intervalMs: number;
	readonly threads: boolean;
	readonly workers: WorkerMetrics;
	readonly prepared: PreparedServing;
	readonly version: string;
	readonly notify: ExporterNotify | null;
};

type FromWorker =
	| {readonly type: 'log'; readonly level: LogLevel; readonly message: string; readonly fields?: LogFields}
	| {readonly type: 'serving'; readonly urls: readonly string[]}
	| {readonly type: 'failed'; readonly message: string};

type ToWorker =
	| {readonly type: 'stop'}
	/** SIGHUP: the miners now listed and the serving settings as read again. */
	| {readonly type: 'reload'; readonly targets: readonly SessionTarget[]; readonly prepared: PreparedServing};

/**
 * The worker's old-generation bound: 32 MB and 120 kB per miner (152 MB for 1000), about three times what the worker
 * keeps live (measured at 1000 miners: 52 MB after each full collection, most of it per miner: its monitor, its undici
 * pool, its series). Under 256 MB V8 grows the heap by about 1.3× of what is live between full collections (4× on a
 * machine with gigabytes of memory), and it lets the heap grow further before the first one the higher the bound is
 * (measured: 214 MB let RSS reach 204 MB in the first 10 s, 152 MB 165 MB). A fleet that somehow needs more than the
 * bound makes the worker fail, and rigtop says so and exits 1 (a service manager restarts it).
 */
export function heapLimitMb(miners: number): number {
	return Math.max(64, Math.ceil(32 + miners * 0.12));
}

/** The young generation: small, since the new space counts in RSS all the time; a poll's garbage dies in it anyway. */
const YOUNG_GENERATION_MB = 8;

export async function runExporter(
	targets: readonly SessionTarget[],
	settings: ExporterSettings,
	log: Logger,
	signals: NodeJS.EventEmitter = process,
): Promise<number> {
	if (targets.length === 0) throw new UsageError('no miner to watch');
	const warn = (line: string) => log.warn(line);
	const prepared = await prepareServing(settings, warn);
	const input: WorkerInput = {
		kind: 'rigtop-exporter',
		targets,
		intervalMs: settings.intervalMs,
		threads: settings.threads ?? true,
		workers: settings.workers ?? {enabled: true, limit: DEFAULT_WORKER_METRICS_LIMIT},
		prepared,
		version: settings.version,
		notify: settings.notify ?? null,
	};
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

		// SIGHUP: everything is read again before anything changes; a problem leaves the exporter as it was.
		let current = targets;
		let reloading = false;
		let again = false;
		const reload = () => {
			if (stopping) return;
			if (reloading) {
				again = true;
				return;
			}

			reloading = true;
			void (async () => {
				try {
					const [next, prepared] = await Promise.all([settings.reloadTargets?.() ?? current, prepareServing(settings, warn)]);
					if (next.length === 0) throw new UsageError('no miner to watch');
					current = next;
					if (!stopping) worker.postMessage({type: 'reload', targets: next, prepared} satisfies ToWorker);
				} catch (error) {
					log.error(
						`reload failed, still serving the ${current.length} miner${current.length === 1 ? '' : 's'} as before: ${error instanceof Error ? error.message : String(error)}`,
					);
				} finally {
					reloading = false;
					if (again) {
						again = false;
						reload();
					}
				}
			})();
		};

		const done = () => {
			signals.off('SIGINT', stop);
			signals.off('SIGTERM', stop);
			signals.off('SIGHUP', reload);
		};

		signals.on('SIGINT', stop);
		signals.on('SIGTERM', stop);
		signals.on('SIGHUP', reload);
		let failure: string | null = null;
		worker.on('message', (message: FromWorker) => {
			switch (message.type) {
				case 'log':
					log[message.level](message.message, message.fields);
					break;
				case 'serving':
					log.info(
						`serving ${message.urls.join(' and ')}: ${targets.length} miner${targets.length === 1 ? '' : 's'}, polled every ${settings.intervalMs / 1000} s`,
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

			if (code === 0 && stopping) log.info('exporter stopped');
			resolve(code === 0 && stopping ? 0 : 1);
		});
	});
}

/** The worker: the miners, the collector and the server, until told to stop. */
async function workerMain(input: WorkerInput, port: NonNullable<typeof parentPort>): Promise<void> {
	const send = (message: FromWorker) => port.postMessage(message);
	// Loaded here, in the worker only: the main thread never loads the HTTP client, the monitors or the simulator.
	const {createFleet} = await import('./fleet.js');
	const fleet = createFleet(input.targets, input.intervalMs, {threads: input.threads, workers: input.workers.enabled});
	let served: ServedMetrics;
	try {
		served = await serveMiners(fleet, input.prepared, input.version, {
			workers: input.workers,
			notice: (message) => send({type: 'log', level: 'warn', message}),
		});
	} catch (error) {
		await fleet.close();
		send({type: 'failed', message: error instanceof Error ? error.message : String(error)});
		process.exit(1);
	}

	// One log line per change of a miner's link, under its `miner` label.
	const following = new Map<WatchedMiner['monitor'], () => void>();
	const follow = (miner: WatchedMiner) => {
		let lastSeq = 0;
		following.set(
			miner.monitor,
			miner.monitor.subscribe(() => {
				for (const event of miner.monitor.getState().events) {
					if (event.seq <= lastSeq) continue;
					lastSeq = event.seq;
					const level = LOGGED.get(event.kind);
					if (level === undefined) continue;
					const index = fleet.miners.findIndex((one) => one.monitor === miner.monitor);
					send({type: 'log', level, message: `${served.labels[index] ?? miner.target.url}: ${event.message}`});
				}
			}),
		);
	};

	for (const miner of fleet.miners) follow(miner);
	// Notifications run here, beside the monitors: an alert center over the fleet, its troubles to the notifier.
	const {startExporterNotify} = input.notify === null ? {startExporterNotify: null} : await import('./notify.js');
	let notifying =
		startExporterNotify?.(fleet.miners, input.notify, (level, message, fields) =>
			send({type: 'log', level, message, ...(fields ? {fields} : {})}),
		) ?? null;
	fleet.start();
	send({type: 'serving', urls: served.urls});
	port.on('message', (message: ToWorker) => {
		if (message.type === 'reload') {
			const {added, removed} = fleet.reconcile(message.targets);
			for (const miner of removed) {
				following.get(miner.monitor)?.();
				following.delete(miner.monitor);
			}

			for (const miner of added) follow(miner);
			served.setMiners(fleet.miners);
			// The alert center watches a fixed list of monitors: a new one for the miners now served (what is pending
			// stays in the outbox).
			if (notifying !== null && startExporterNotify !== null && (added.length > 0 || removed.length > 0)) {
				const previous = notifying;
				notifying = null;
				void previous.close().then(() => {
					notifying = startExporterNotify(fleet.miners, input.notify, (level, text, fields) =>
						send({type: 'log', level, message: text, ...(fields ? {fields} : {})}),
					);
				});
			}
			void (async () => {
				try {
					await served.reload?.(message.prepared);
				} catch (error) {
					send({
						type: 'log',
						level: 'error',
						message: `reload of the serving settings failed: ${error instanceof Error ? error.message : String(error)}`,
					});
				}

				send({
					type: 'log',
					level: 'info',
					message: `reloaded: ${fleet.miners.length} miner${fleet.miners.length === 1 ? '' : 's'} (${added.length} added, ${removed.length} removed)`,
				});
			})();
			return;
		}

		void (async () => {
			await notifying?.close();
			await served.close();
			await fleet.close();
			// Ends this thread only; whatever a miner connection still holds goes with it.
			process.exit(0);
		})();
	});
}

if (!isMainThread && parentPort && (workerData as Partial<WorkerInput> | null)?.kind === 'rigtop-exporter') {
	void workerMain(workerData as WorkerInput, parentPort);
}
