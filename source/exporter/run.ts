import process from 'node:process';
import type {Session} from '../cli/session.js';
import type {EventKind} from '../monitor/types.js';
import {serveSessionMetrics, type ServeSettings} from './serve.js';

/**
 * `rigtop exporter`: polls the session's miners on its own interval and serves /metrics until SIGINT or SIGTERM. It
 * writes one line to stderr when it starts and one per change of a miner's link (down, back up, an error that needs
 * the user, a restart), each naming the miner, never the token.
 */

export type ExporterSettings = ServeSettings & {readonly intervalMs: number};

/** Events worth a log line in a long-running service; share-by-share events are Prometheus's to count. */
const LOGGED: ReadonlySet<EventKind> = new Set(['down', 'up', 'error', 'restarted']);

export async function runExporter(
	session: Session,
	settings: ExporterSettings,
	log: (line: string) => void,
	signals: NodeJS.EventEmitter = process,
): Promise<number> {
	const served = await serveSessionMetrics(session, settings, log);
	const lastSeq = session.miners.map(() => 0);
	const unsubscribes = session.miners.map((miner, index) =>
		miner.monitor.subscribe(() => {
			for (const event of miner.monitor.getState().events) {
				if (event.seq <= lastSeq[index]!) continue;
				lastSeq[index] = event.seq;
				if (LOGGED.has(event.kind)) log(`${served.labels[index]}: ${event.message}`);
			}
		}),
	);
	session.start();
	const count = session.miners.length;
	log(
		`exporter serving ${served.url} for ${count} miner${count === 1 ? '' : 's'}, polled every ${settings.intervalMs / 1000} s (SIGINT or SIGTERM stops it)`,
	);
	await new Promise<void>((resolve) => {
		const stop = () => {
			signals.off('SIGINT', stop);
			signals.off('SIGTERM', stop);
			resolve();
		};

		signals.on('SIGINT', stop);
		signals.on('SIGTERM', stop);
	});
	for (const unsubscribe of unsubscribes) unsubscribe();
	await served.close();
	log('exporter stopped');
	return 0;
}
