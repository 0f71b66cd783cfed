import {createBell} from '../../alerts/bell.js';
import {AlertCenter, type AlertSink} from '../../alerts/center.js';
import {AlertCommand} from '../../alerts/command-runner.js';
import type {Notifier} from '../../notify/notifier.js';
import {centerTroubles, startNotifications, type NotificationsOptions} from '../../notify/start/notifications.js';
import type {WatchedMiner} from '../../session/session.js';

export type AlertingOptions = {
	/** --bell: where the BEL goes (the terminal), or null for no bell. */
	readonly bell: ((text: string) => void) | null;
	/** --on-alert argv, or null. */
	readonly onAlert: readonly string[] | null;
	/** Per-command deadline; default 10 s. */
	readonly commandTimeoutMs?: number;
	/** Notifications (--notify…): the channels, the policy's settings, the store; null or absent for none. */
	readonly notify?: Omit<NotificationsOptions, 'troubles'> | null;
};

export type Alerting = {
	readonly center: AlertCenter;
	/** The notifier, when notifications are on. */
	readonly notifier: Notifier | null;
	/** Stops watching, stops any alert command still running, and closes the notifier (within its deadline). */
	close(): Promise<void>;
};

/**
 * Alerts for a live session: the center watches every miner (the fleet rows show its alerts);
 * --bell and --on-alert are sinks on it, and the notifier listens to its troubles. A failing alert
 * command is written to the events log of the miner the alert was about.
 */
export function startAlerting(miners: readonly WatchedMiner[], options: AlertingOptions): Alerting {
	const sinks: AlertSink[] = [];
	if (options.bell) sinks.push(createBell({write: options.bell}));
	let command: AlertCommand | null = null;
	if (options.onAlert) {
		command = new AlertCommand({
			argv: options.onAlert,
			...(options.commandTimeoutMs === undefined ? {} : {timeoutMs: options.commandTimeoutMs}),
			onProblem(alert, message) {
				miners[alert.minerIndex]?.monitor.addEvent('action', 'error', message);
			},
		});
		const runner = command;
		sinks.push((alert) => {
			runner.run(alert);
		});
	}

	const center = new AlertCenter(
		miners.map((miner) => miner.monitor),
		{sinks},
	);
	// The notifier listens before the center starts, so no trouble of the first poll is missed.
	const notifier = options.notify ? startNotifications({...options.notify, troubles: centerTroubles(center)}) : null;
	center.start();
	return {
		center,
		notifier,
		async close() {
			center.stop();
			await Promise.all([command?.close(), notifier?.close()]);
		},
	};
}
