/**
 * `rigtop watch [URL…|--rigs FILE]`: the miners watched without a terminal, for notifications (issue 38): the session,
 * its history, the alert center and the notifier, with a logfmt (or JSON) line on stderr for each event of a miner and
 * each notice sent or failed, as the exporter writes its log. No Ink, no React. SIGTERM or SIGINT stops it: what is due
 * goes out within the notifier's deadline, the rest stays in the store's outbox for the next start.
 */
import process from 'node:process';
import {exporterLogger, type LogLevel, type Logger} from '../../exporter/log.js';
import {kindRow} from '../../monitor/event-kinds.js';
import {deliveryLine} from '../../notify/notifier.js';
import {buildSession} from '../../session/build.js';
import {UsageError} from '../../session/errors.js';
import type {Session} from '../../session/session.js';
import type {Command, RunPlan} from '../command.js';
import {startAlerting} from '../live/alerting.js';
import {loadNotifyChannels, type LoadedNotify} from '../notify/setup.js';

/** The watch command's plan: the session's, and its log's format and level as typed. */
export type WatchPlan = RunPlan & {
	readonly logFormat: string | undefined;
	readonly logLevel: string | undefined;
};

export const run: Command<WatchPlan> = async (plan, context) => {
	const log = exporterLogger(plan.logFormat, plan.logLevel);
	for (const notice of plan.notices) log.warn(notice);
	const warn = (line: string) => log.warn(line);
	const notify = plan.notify === null ? null : await loadNotifyChannels(plan.notify, warn);
	if (notify === null) warn('no channel to notify (--notify-file, RIGTOP_NOTIFY or --notify): watching and recording only');
	// Its plan's mode is 'live' (cli/options.ts): history records the monitors as the live view's does.
	const session = await buildSession(plan, warn);
	try {
		return await watchSession(session, plan, notify, log, context.version);
	} finally {
		await session.close();
	}
};

/** Events at their log level: the exporter's (the row's `logged`), else by severity at debug for news. */
function levelOf(kind: string, severity: 'info' | 'warn' | 'error'): LogLevel {
	const logged = kindRow(kind)?.logged;
	if (logged !== undefined) return logged;
	return severity === 'info' ? 'info' : severity;
}

/** Watches until SIGTERM or SIGINT; resolves to the exit code. The caller closes the session. */
export async function watchSession(
	session: Session,
	plan: RunPlan,
	notify: LoadedNotify | null,
	log: Logger,
	version: string,
	signals: NodeJS.EventEmitter = process,
): Promise<number> {
	if (session.miners.length === 0) throw new UsageError('no miner to watch');
	const unsubscribes: Array<() => void> = [];
	// Every miner's events, one line each under its name.
	for (const miner of session.miners) {
		let lastSeq = miner.monitor.getState().events.at(-1)?.seq ?? 0;
		unsubscribes.push(
			miner.monitor.subscribe(() => {
				const state = miner.monitor.getState();
				for (const event of state.events) {
					if (event.seq <= lastSeq) continue;
					lastSeq = event.seq;
					log[levelOf(event.kind, event.severity)](event.message, {
						rig: state.name,
						event: event.kind,
						...(event.worker === undefined ? {} : {worker: event.worker}),
					});
				}
			}),
		);
	}

	// The session's own notices (history's, the notifier's): under no rig.
	let noticeSeq = 0;
	const logNotices = () => {
		for (const notice of session.notices.getState()) {
			if (notice.seq <= noticeSeq) continue;
			noticeSeq = notice.seq;
			log[notice.severity](notice.message);
		}
	};

	logNotices();
	unsubscribes.push(session.notices.subscribe(logNotices));
	const alerting = startAlerting(session.miners, {
		bell: null,
		onAlert: plan.onAlert,
		notify:
			notify === null
				? null
				: {
						...notify,
						store: session.recorder?.store ?? null,
						say: (severity, line) => session.notices.add(severity, line),
						onDelivery(report) {
							const line = deliveryLine(report);
							log[line.level](line.message, line.fields);
						},
					},
	});
	session.start();
	const channels = notify?.channels.length ?? 0;
	log.info(`watching ${session.miners.length} miner${session.miners.length === 1 ? '' : 's'}, polled every ${plan.intervalMs / 1000} s`, {
		version,
		channels,
		heartbeat: notify?.heartbeat !== null && notify?.heartbeat !== undefined,
		history: session.recorder !== null && session.recorder !== undefined,
	});
	try {
		await new Promise<void>((resolve) => {
			const stop = () => {
				signals.off('SIGINT', stop);
				signals.off('SIGTERM', stop);
				resolve();
			};

			signals.on('SIGINT', stop);
			signals.on('SIGTERM', stop);
		});
	} finally {
		await alerting.close();
		for (const unsubscribe of unsubscribes) unsubscribe();
	}

	log.info('watch stopped');
	return 0;
}
