import type {AlertKind, Severity} from '../monitor/event-kinds.js';
import {jsonText} from '../text/json-out.js';

/**
 * What rigtop alerts on: trouble with a rig (rung with --bell, handed to --on-alert) and the matching all-clear, so a
 * script can close what it opened. Derived from the catalogue of event kinds (monitor/event-kinds.ts), where each
 * kind says whether and as what it alerts, and what it means; a proxy's worker's alerts name the worker (`worker`).
 */
export type {AlertKind} from '../monitor/event-kinds.js';

export type Alert = {
	/** Unique and increasing within one alert center. */
	readonly seq: number;
	/** Epoch ms. */
	readonly at: number;
	readonly kind: AlertKind;
	/** 'info' for the all-clear kinds, 'warn' or 'error' for trouble. */
	readonly severity: Severity;
	/** Position of the miner in the session (the fleet's row order). */
	readonly minerIndex: number;
	/** The rig's display name. */
	readonly rig: string;
	/** The miner's base URL (never holds credentials). */
	readonly url: string;
	/** One line, e.g. "down: connection refused". May hold text the miner sent (pool name, version). */
	readonly message: string;
	/** A proxy's worker the alert is about (its name); absent for the rig itself. */
	readonly worker?: string;
};

/** Whether an alert reports trouble (rings the bell) rather than an all-clear. */
export function isTrouble(alert: Pick<Alert, 'severity'>): boolean {
	return alert.severity !== 'info';
}

/** The alert as the JSON document given to --on-alert on its standard input. */
export function alertJson(alert: Alert): string {
	return jsonText({
		type: 'rigtop-alert',
		kind: alert.kind,
		severity: alert.severity,
		rig: alert.rig,
		url: alert.url,
		message: alert.message,
		...(alert.worker === undefined ? {} : {worker: alert.worker}),
		at: new Date(alert.at).toISOString(),
	});
}
