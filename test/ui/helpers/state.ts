/**
 * MonitorState fixtures for UI tests: a warm 6.x rig (values shaped like a real 6.26 `/2/summary`
 * + `/2/backends`, see notes/xmrig-api.md §3.4 and §5), plus a tiny store that behaves like the
 * Monitor (same state object until something changes, listeners told after each change).
 */
import {MinerError} from '../../../source/miner/errors.js';
import type {MinerSnapshot, ThreadInfo} from '../../../source/miner/model.js';
import type {MinerEvent, MonitorState} from '../../../source/monitor/types.js';
import type {MonitorStore} from '../../../source/ui/store.js';

/** 2026-03-14 12:00:00 local time: a fixed "now" for every test. */
export const NOW = new Date(2026, 2, 14, 12, 0, 0).getTime();

export function makeThreads(count: number, base = 300): ThreadInfo[] {
	return Array.from({length: count}, (_, index) => ({
		backend: 'cpu',
		index,
		hashrate: [base + index / 10, base + index / 10 - 0.4, null] as const,
		intensity: 1,
		affinity: index,
		device: null,
		health: null,
	}));
}

type SnapshotOverrides = Partial<Omit<MinerSnapshot, 'hashrate' | 'results' | 'connection' | 'cpu'>> & {
	readonly hashrate?: Partial<MinerSnapshot['hashrate']>;
	readonly results?: Partial<MinerSnapshot['results']>;
	readonly connection?: Partial<MinerSnapshot['connection']>;
	readonly cpu?: Partial<MinerSnapshot['cpu']>;
};

export function makeSnapshot(overrides: SnapshotOverrides = {}): MinerSnapshot {
	const {hashrate, results, connection, cpu, ...rest} = overrides;
	return {
		dialect: 'v2',
		id: 'a1b2c3d4e5f60718',
		workerId: 'rig-01',
		version: '6.26.0',
		kind: 'miner',
		userAgent: 'XMRig/6.26.0 (Linux x86_64) libuv/1.51.0 gcc/13.2.0',
		algo: 'rx/0',
		uptime: 3 * 86_400 + 4 * 3600 + 12 * 60,
		paused: false,
		restricted: false,
		donateLevel: 1,
		threads: makeThreads(16),
		backends: [],
		perThreadRead: true,
		features: ['api', 'asm', 'http', 'hwloc', 'tls'],
		hugepages: {kind: 'pages', allocated: 1168, total: 1168},
		resources: {
			rss: 2_481_012_736,
			memoryFree: 8_123_456_512,
			memoryTotal: 16_717_189_120,
			loadAverage: [7.91, 7.88, 7.5],
			hardwareConcurrency: 16,
		},
		...rest,
		hashrate: {total: [4823.4, 4801.2, null], highest: 5012.7, ...hashrate},
		results: {
			good: 1204,
			total: 1207,
			rejected: 3,
			avgTime: 31,
			hashesTotal: 289_000_000,
			best: 4_100_000,
			diffCurrent: 120_000,
			...results,
		},
		connection: {
			pool: 'pool.example.org:443',
			ip: '203.0.113.7',
			uptime: 2 * 86_400 + 11 * 3600,
			ping: 38,
			failures: 0,
			tls: 'TLSv1.3',
			tlsFingerprint: null,
			diff: 120_000,
			connected: true,
			...connection,
		},
		cpu: {
			brand: 'AMD Ryzen 9 5950X 16-Core Processor',
			cores: 16,
			threads: 32,
			packages: 1,
			aes: true,
			avx2: true,
			x64: true,
			arch: 'x86_64',
			msr: 'ryzen_19h',
			assembly: 'ryzen',
			...cpu,
		},
	};
}

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
		history: Array.from({length: 60}, (_, index) => 4700 + ((index * 37) % 200)),
		sessionAverage: 4781.5,
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

export type TestStore = MonitorStore & {
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
