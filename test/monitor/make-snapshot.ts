import type {MinerSnapshot} from '../../source/miner/model.js';

/**
 * A full, realistic 6.26 `/2/summary` + `/2/backends` snapshot (an 8-core rig that has run for a
 * while: windows full, pool up, 1 of 88 shares rejected), with overrides merged one level deep
 * into hashrate, results, connection and cpu: makeSnapshot({connection: {connected: false}}) keeps the other
 * connection fields.
 */
type Merged = 'hashrate' | 'results' | 'connection' | 'cpu';
export type SnapshotOverrides = {[K in Merged]?: Partial<MinerSnapshot[K]>} & {
	[K in Exclude<keyof MinerSnapshot, Merged>]?: MinerSnapshot[K];
};
const merged = new Set<string>(['hashrate', 'results', 'connection', 'cpu']);

const base: MinerSnapshot = {
	dialect: 'v2',
	id: 'a1b2c3d4e5f60718',
	workerId: 'rig-01',
	version: '6.26.0',
	kind: 'miner',
	userAgent: 'XMRig/6.26.0 (Linux x86_64) libuv/1.51.0 gcc/13.2.0',
	algo: 'rx/0',
	uptime: 5423,
	paused: false,
	restricted: true,
	donateLevel: 1,
	hashrate: {total: [4823.45, 4810.02, 4790.5], highest: 5012.77},
	results: {good: 87, total: 88, rejected: 1, avgTime: 61, hashesTotal: 20_891_234, best: 9_120_331, diffCurrent: 240_123},
	connection: {
		pool: 'pool.example.org:443',
		ip: '203.0.113.7',
		uptime: 5380,
		ping: 58,
		failures: 0,
		tls: 'TLSv1.3',
		tlsFingerprint: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
		diff: 240_123,
		connected: true,
	},
	cpu: {
		brand: 'AMD Ryzen 7 5800X 8-Core Processor',
		cores: 8,
		threads: 16,
		packages: 1,
		aes: true,
		avx2: true,
		x64: true,
		arch: 'x86_64',
		msr: 'ryzen_19h',
		assembly: 'ryzen',
	},
	hugepages: {kind: 'pages', allocated: 1168, total: 1168},
	resources: {
		rss: 2_481_012_736,
		memoryFree: 8_123_456_512,
		memoryTotal: 16_717_189_120,
		loadAverage: [7.91, 7.88, 7.5],
		hardwareConcurrency: 16,
	},
	threads: [0, 1, 2, 3].map((index) => ({
		backend: 'cpu',
		index,
		hashrate: [1205.8, 1202.5, 1197.6] as const,
		intensity: 1,
		affinity: index * 2,
		device: null,
		health: null,
	})),
	backends: [
		{
			type: 'cpu',
			enabled: true,
			algo: 'rx/0',
			profile: 'rx',
			hashrate: [4823.45, 4810.02, 4790.5],
			threadCount: 4,
			hugepages: {kind: 'pages', allocated: 1168, total: 1168},
			memory: 8_388_608,
			detail: null,
		},
		{
			type: 'opencl',
			enabled: false,
			algo: null,
			profile: null,
			hashrate: null,
			threadCount: 0,
			hugepages: null,
			memory: null,
			detail: null,
		},
	],
	perThreadRead: true,
	features: ['api', 'asm', 'http', 'hwloc', 'tls', 'opencl', 'cuda'],
};

export function makeSnapshot(overrides: SnapshotOverrides = {}): MinerSnapshot {
	const out: Record<string, unknown> = {...base};
	for (const [key, value] of Object.entries(overrides)) {
		const current = (base as Record<string, unknown>)[key];
		out[key] = merged.has(key) ? {...(current as object), ...(value as object)} : value;
	}

	return out as MinerSnapshot;
}

/** A snapshot whose three windows are `rates` (and whose 10 s is the first). */
export function withRates(rates: readonly [number | null, number | null, number | null], overrides: SnapshotOverrides = {}): MinerSnapshot {
	return makeSnapshot({...overrides, hashrate: {total: rates, highest: 5012.77}});
}
