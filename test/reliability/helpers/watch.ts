import {MinerClient} from '../../../source/miner/client.js';
import {portIsOpen} from '../../../source/miner/probe.js';
import {MinerReader} from '../../../source/miner/reader.js';
import {Monitor} from '../../../source/monitor/monitor.js';
import type {MonitorState} from '../../../source/monitor/types.js';
import type {FaultServer} from '../../helpers/fault-server.js';

/**
 * The real stack the dashboard runs on (MinerClient → MinerReader → Monitor, with the session's port probe), pointed
 * at a fault server, at test speed: a short interval and short client timeouts. The backoff is the production one,
 * so "recovers within one interval of the fault ending" is measured as a user would see it.
 */

export const INTERVAL_MS = 300;
/** The client's overall deadline: a hang ends after this. */
export const DEADLINE_MS = 600;
export const HEADERS_TIMEOUT_MS = 500;
/** Room for scheduling, connecting and parsing on a loaded machine. */
export const SLACK_MS = 450;
/** A unique token: it must never appear in any message. */
export const TOKEN = 'tok-reliab-3f9c1e77ab';

export type Committed = {readonly state: MonitorState; readonly at: number};

export type Watch = {
	readonly monitor: Monitor;
	readonly client: MinerClient;
	/** Every committed state with the time it was committed. */
	readonly log: Committed[];
	/** Resolves with the first state committed from now on (or already, when `fromNow` is false) that matches. */
	until(match: (state: MonitorState) => boolean, timeoutMs?: number): Promise<Committed>;
	stop(): Promise<void>;
};

export function watch(server: FaultServer, options: {token?: string | null; intervalMs?: number; deadlineMs?: number} = {}): Watch {
	const intervalMs = options.intervalMs ?? INTERVAL_MS;
	const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
	const client = new MinerClient(
		{url: server.url, token: options.token === undefined ? TOKEN : options.token},
		{deadlineMs, headersTimeoutMs: Math.min(HEADERS_TIMEOUT_MS, deadlineMs), bodyTimeoutMs: Math.min(HEADERS_TIMEOUT_MS, deadlineMs)},
	);
	const reader = new MinerReader(client);
	// The production settings: full polls back off (to 30 s) while unreachable, a port probe every interval.
	const monitor = new Monitor({
		read: async (signal) => reader.read(signal),
		url: server.url,
		intervalMs,
		probe: async (signal) => portIsOpen(server.url, Math.min(intervalMs, 3000), signal),
	});
	const log: Committed[] = [];
	type Waiter = {match: (state: MonitorState) => boolean; resolve: (entry: Committed) => void};
	const waiters = new Set<Waiter>();
	monitor.subscribe(() => {
		const entry = {state: monitor.getState(), at: Date.now()};
		log.push(entry);
		for (const waiter of waiters) {
			if (waiter.match(entry.state)) {
				waiters.delete(waiter);
				waiter.resolve(entry);
			}
		}
	});
	monitor.start();
	return {
		monitor,
		client,
		log,
		async until(match, timeoutMs = 8000) {
			return new Promise<Committed>((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters.delete(waiter);
					const last = monitor.getState();
					reject(
						new Error(
							`no matching state within ${timeoutMs} ms; last: ${last.status} ${last.error?.kind ?? ''} ${last.error?.message ?? ''}`,
						),
					);
				}, timeoutMs);
				const waiter: Waiter = {
					match,
					resolve(entry) {
						clearTimeout(timer);
						resolve(entry);
					},
				};
				waiters.add(waiter);
			});
		},
		async stop() {
			monitor.stop();
			await client.close();
		},
	};
}
