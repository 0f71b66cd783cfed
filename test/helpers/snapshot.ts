/**
 * The one MinerSnapshot builder for tests: a warm 6.x rig, values shaped like a real 6.26
 * `/2/summary` + `/2/backends` (test/fixtures/xmrig/v6.26): 16 threads, the 10 s and 60 s windows
 * full and the 15 m one still filling, pool up over TLS, 3 of 1207 shares rejected.
 * Overrides of hashrate, results, connection and cpu are merged one level deep:
 * makeSnapshot({connection: {connected: false}}) keeps the other connection fields.
 */
import type {MinerSnapshot, ThreadInfo} from '../../source/miner/model.js';

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

export type SnapshotOverrides = Partial<Omit<MinerSnapshot, 'hashrate' | 'results' | 'connection' | 'cpu'>> & {
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
		proxy: null,
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

/** A snapshot whose three windows are `rates` (and whose 10 s is the first). */
export function withRates(rates: readonly [number | null, number | null, number | null], overrides: SnapshotOverrides = {}): MinerSnapshot {
	return makeSnapshot({...overrides, hashrate: {total: rates, highest: 5012.7}});
}
