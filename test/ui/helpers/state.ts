/**
 * MonitorState fixtures for UI tests (around the one snapshot builder, test/helpers/snapshot.ts), plus
 * a tiny store that behaves like the Monitor (same state object until something changes, listeners told
 * after each change).
 */
import {MinerError} from '../../../source/miner/errors.js';
import type {MinerEvent, MonitorState} from '../../../source/monitor/types.js';
import type {Store} from '../../../source/monitor/store.js';
import {makeSnapshot} from '../../helpers/snapshot.js';

export {makeSnapshot, makeThreads} from '../../helpers/snapshot.js';

/** 2026-03-14 12:00:00 local time: a fixed "now" for every test. */
export const NOW = new Date(2026, 2, 14, 12, 0, 0).getTime();

export function makeEvent(seq: number, minutesAgo: number, message: string, severity: MinerEvent['severity'] = 'info'): MinerEvent {
	return {seq, at: NOW - minutesAgo * 60_000, kind: severity === 'info' ? 'started' : 'rejected', severity, message};
}

export function makeState(overrides: Partial<MonitorState> = {}): MonitorState {
	return {
		name: 'rig-01',
		url: 'http://127.0.0.1:18088',
		status: 'live',
		snapshot: makeSnapshot(),
		lastSuccessAt: NOW - 2000,
		lastAttemptAt: NOW - 2000,
		failingSince: null,
		consecutiveFailures: 0,
		error: null,
		recentRates: Array.from({length: 60}, (_, index) => 4700 + ((index * 37) % 200)),
		sessionAverage: 4781.5,
		lastShare: null,
		events: [makeEvent(1, 178, 'started'), makeEvent(2, 20, 'pool reconnected'), makeEvent(3, 0, 'share rejected: low difficulty', 'warn')],
		nextPollAt: NOW + 1000,
		polls: 100,
		...overrides,
	};
}

export function refused(): MinerError {
	return new MinerError('unreachable', 'connection refused');
}

export function wrongToken(): MinerError {
	return new MinerError('forbidden', 'wrong token (403)', {status: 403});
}

export type TestStore = Store<MonitorState> & {
	set(patch: Partial<MonitorState>): void;
	readonly listeners: number;
};

export function createStore(initial: MonitorState): TestStore {
	let state = initial;
	const listeners = new Set<() => void>();
	return {
		subscribe(listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		getState() {
			return state;
		},
		set(patch) {
			state = {...state, ...patch, polls: state.polls + 1};
			for (const listener of listeners) listener();
		},
		get listeners() {
			return listeners.size;
		},
	};
}
