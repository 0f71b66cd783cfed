import type {Severity} from '../monitor/types.js';
import {jsonText} from '../text/json-out.js';

/**
 * What rigtop alerts on: trouble with a rig (rung with --bell, handed to --on-alert) and the
 * matching all-clear, so a script can close what it opened.
 * - down / error: rigtop cannot read the miner (it stopped answering / it answers but refuses);
 * - up: it answers again after down or error;
 * - hashrate-drop / hashrate-recovered: the 10 s rate under a share of the miner's own 15 m average, or of
 *   its rate over the last hour as rigtop knows it, for several polls, and back;
 * - reject-burst: several shares rejected within a few minutes;
 * - pool-lost / pool-back: the miner lost its pool connection, and has one again;
 * - restarted: the miner process restarted (uptime went back, a new version);
 * - replaced: another miner (a new id: another machine or program) answers at the address;
 * - hugepages-lost / hugepages-restored: fewer huge pages allocated than before, or than the miner wants when first
 *   seen (once a session), and all of them again;
 * - paused / resumed: the miner has been paused (by anyone) for longer than the threshold (default
 *   10 minutes, --paused-alert), and mines again;
 * - upstream-error / upstream-recovered: an xmrig-proxy's upstreams (its pool connections) in error, and none again;
 * - worker-gone / worker-back, worker-quiet / worker-sharing: a proxy's worker dropped from its list or left with no
 *   connection, and back; connected but sending no share (workerQuiet), and sharing again. A worker's
 *   hashrate-drop / hashrate-recovered is judged against its own history. These name the worker (`worker`).
 * - temp-high / temp-normal: a CPU temperature of a rig on this machine at or over its sensor's max (or --temp-alert)
 *   for three polls, and every sensor back under it; throttle-started / throttle-stopped: the CPU's thermal throttle
 *   count rising, and still again; power-lost / power-restored: the package power reading lost, and read again.
 */
export type AlertKind =
	| 'down'
	| 'error'
	| 'up'
	| 'hashrate-drop'
	| 'hashrate-recovered'
	| 'reject-burst'
	| 'pool-lost'
	| 'pool-back'
	| 'restarted'
	| 'replaced'
	| 'hugepages-lost'
	| 'hugepages-restored'
	| 'paused'
	| 'resumed'
	| 'upstream-error'
	| 'upstream-recovered'
	| 'worker-gone'
	| 'worker-back'
	| 'worker-quiet'
	| 'worker-sharing'
	| 'temp-high'
	| 'temp-normal'
	| 'throttle-started'
	| 'throttle-stopped'
	| 'power-lost'
	| 'power-restored';

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
