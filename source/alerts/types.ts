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

/** Which rig (or a proxy's worker) a trouble is about: the same key in every rigtop watching it. */
export type RigRef = {
	/** The rig's display name (cleaned text: it may hold what a miner sent). */
	readonly rig: string;
	/** The miner's base URL (never credentials). */
	readonly url: string;
	/** A proxy's worker the trouble is about; absent for the rig itself. */
	readonly worker?: string;
};

/** A trouble of one rig opening or closing (or a one-shot piece of news, `open: null`). */
export type TroubleChange = RigRef & {
	/** Epoch ms when rigtop saw it. */
	readonly at: number;
	/** The trouble (event-kinds.ts `begins`: 'down', 'pool-lost', 'hashrate-drop', 'zero-hashrate', …) or the news kind. */
	readonly trouble: string;
	/** true: it opened; false: it closed (with or without an all-clear); null: one-shot news (no all-clear ever). */
	readonly open: boolean | null;
	readonly severity: Severity;
	/** The alert's one line ("down: connection refused"). */
	readonly message: string;
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
