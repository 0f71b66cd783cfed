/**
 * `rigtop exporter --notify…`: notifications from the exporter's worker thread, where its monitors are. An alert center
 * over the fleet's monitors hands its troubles to the notifier (notify/start/notifications.ts); the outbox keeps its notices in the
 * history store unless --no-history. Every line it has to say (a notice sent or failed, a channel given up on, the
 * store unwritable) is an exporter log line.
 */
import {AlertCenter} from '../alerts/center.js';
import {defaultStoreFile} from '../history/attach.js';
import {HistoryStore} from '../history/store.js';
import {deliveryLine} from '../notify/notifier.js';
import {centerTroubles, notifyParts, startNotifications, type NotifyInputs, type NotifySettings} from '../notify/start/notifications.js';
import type {WatchedMiner} from '../session/session.js';
import type {LogFields, LogLevel} from './log.js';

/** `rigtop exporter --notify…`: where the channels come from (made into channels in the worker) and the policy's settings. */
export type ExporterNotify = {
	readonly inputs: NotifyInputs;
	readonly settings: NotifySettings;
	/** Whether the outbox may keep its notices in the history store (--no-history: in memory only). */
	readonly store: boolean;
};

export type ExporterNotifying = {close(): Promise<void>};

export function startExporterNotify(
	miners: readonly WatchedMiner[],
	notify: ExporterNotify | null,
	log: (level: LogLevel, message: string, fields?: LogFields) => void,
): ExporterNotifying | null {
	if (notify === null) return null;
	let parts: ReturnType<typeof notifyParts>;
	try {
		// Read again here (the channels hold functions, which no message between threads carries); checked at start.
		parts = notifyParts(notify.inputs);
	} catch (error) {
		log('error', `notifications off: ${error instanceof Error ? error.message : String(error)}`);
		return null;
	}

	const store = notify.store ? HistoryStore.open({file: defaultStoreFile(), notify: (line) => log('warn', line)}) : null;
	const center = new AlertCenter(miners.map((miner) => miner.monitor));
	const notifier = startNotifications({
		...parts,
		settings: notify.settings,
		troubles: centerTroubles(center),
		store: store?.enabled === true ? store : null,
		say: (severity, line) => log(severity, line),
		onDelivery(report) {
			const line = deliveryLine(report);
			log(line.level, line.message, line.fields);
		},
	});
	center.start();
	return {
		async close() {
			center.stop();
			await notifier.close();
			store?.close();
		},
	};
}
