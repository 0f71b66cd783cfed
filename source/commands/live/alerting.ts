import {createBell} from '../../alerts/bell.js';
import {AlertCenter, type AlertSink} from '../../alerts/center.js';
import {AlertCommand} from '../../alerts/command-runner.js';
import type {WatchedMiner} from '../../session/session.js';

export type AlertingOptions = {
	/** --bell: where the BEL goes (the terminal), or null for no bell. */
	readonly bell: ((text: string) => void) | null;
	/** --on-alert argv, or null. */
	readonly onAlert: readonly string[] | null;
	/** Per-command deadline; default 10 s. */
	readonly commandTimeoutMs?: number;
};

export type Alerting = {
	readonly center: AlertCenter;
	/** Stops watching and stops any alert command still running. */
	close(): Promise<void>;
};

/**
 * Alerts for a live session: the center watches every miner (the fleet rows show its alerts);
 * --bell and --on-alert are sinks on it. A failing alert command is written to the events log
 * of the miner the alert was about.
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
	center.start();
	return {
		center,
		async close() {
			center.stop();
			await command?.close();
		},
	};
}
