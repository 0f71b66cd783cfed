import process from 'node:process';
import {rm} from 'node:fs/promises';
import {UsageError} from '../../session/errors.js';
import {exporterLogger, type Logger} from '../../exporter/log.js';
import {resolveSessionTargets} from '../../session/build.js';
import type {WorkerMetrics} from '../../exporter/worker-metrics.js';
import type {Command, RunPlan} from '../command.js';
import {loadNotifyChannels} from '../notify/setup.js';

/** The exporter's plan: the session's, its log's format and level as typed, and whether to serve per-thread metrics. */
export type ExporterPlan = RunPlan & {
	readonly logFormat: string | undefined;
	readonly logLevel: string | undefined;
	/** false with --no-thread-metrics. */
	readonly threads: boolean;
	/** A proxy's per-worker series: --no-worker-metrics, --worker-metrics-limit. */
	readonly workers: WorkerMetrics;
};

export const run: Command<ExporterPlan> = async (plan, context) => {
	// The exporter's every line has a time and a level (exporter/log.ts); a --log.format it does not know is bad usage.
	const log = exporterLogger(plan.logFormat, plan.logLevel);
	for (const notice of plan.notices) log.warn(notice);
	return runExporterCommand(plan, context.version, log, {threads: plan.threads, workers: plan.workers});
};

/**
 * `rigtop exporter`: finds the miners as the live view does (URLs, --rigs, --config, discovery; --demo starts the
 * simulated miner here), then runs the exporter until it is stopped. Its session is made in the exporter's worker
 * thread, so none is made here.
 */
export async function runExporterCommand(
	plan: RunPlan,
	version: string,
	log: Logger,
	options: {threads: boolean; workers?: WorkerMetrics} = {threads: true},
): Promise<number> {
	const warn = (line: string) => log.warn(line);
	if (plan.metrics === null) throw new Error('rigtop exporter without an address to listen on');
	// A SIGHUP while the miners are being found does not end rigtop (runExporter handles it once it runs).
	const early = () => undefined;
	process.on('SIGHUP', early);
	let demo: Awaited<ReturnType<typeof resolveSessionTargets>>['demo'] = null;
	try {
		// Notifications (--notify…): the channels are checked here (a bad one is bad usage); the worker makes its own.
		const notify = plan.notify === null ? null : await loadNotifyChannels(plan.notify, warn);
		// run.js is also the worker's entry: loaded on its own, so that the worker does not load discovery's code.
		const [{runExporter}, resolved] = await Promise.all([import('../../exporter/run.js'), resolveSessionTargets(plan, warn)]);
		demo = resolved.demo;
		// SIGHUP finds the miners again as at the start (the rigs file, discovery); the demo keeps its one miner.
		const reloadTargets = demo ? undefined : async () => (await resolveSessionTargets(plan, warn)).targets;
		try {
			return await runExporter(
				resolved.targets,
				{
					...plan.metrics,
					version,
					intervalMs: plan.intervalMs,
					threads: options.threads,
					...(options.workers ? {workers: options.workers} : {}),
					...(reloadTargets ? {reloadTargets} : {}),
					...(notify === null ? {} : {notify: {inputs: notify.inputs, settings: notify.settings, store: plan.history}}),
				},
				log,
			);
		} catch (error) {
			if (error instanceof UsageError) throw error;
			// Once serving was asked for, a failure (the address taken, the heap outgrown) is a log line like any other.
			log.error(error instanceof Error ? error.message : String(error));
			return 1;
		}
	} finally {
		process.off('SIGHUP', early);
		demo?.sysfs?.stop();
		await demo?.simulator.stop();
		if (demo) await rm(demo.stateDir, {recursive: true, force: true});
	}
}
