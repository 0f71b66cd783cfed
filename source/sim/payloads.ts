/**
 * The JSON documents the simulated miner answers with, per dialect and version, in the exact key order
 * the real miner emits (see the captures of 6.26 and 2.16 and the 2.14 source). Values come from the Rig.
 */
import {atLeast, type DialectInfo} from './dialect.js';
import {JsonDouble, type JsonObject, type JsonValue} from './json-writer.js';
import type {RawWindows, Rig} from './rig.js';

export type CpuModel = {readonly brand: string; readonly cores: number; readonly threads: number};

export type PayloadContext = {
	readonly info: DialectInfo;
	readonly rig: Rig;
	readonly id: string;
	readonly workerId: string;
	readonly restricted: boolean;
	readonly cpu: CpuModel;
};

const FEATURES = ['api', 'asm', 'http', 'hwloc', 'tls', 'opencl'];
const ALGORITHMS = [
	'cn/1',
	'cn/2',
	'cn/r',
	'cn/fast',
	'cn/half',
	'cn/xao',
	'cn/rto',
	'cn/rwz',
	'cn/zls',
	'cn/double',
	'cn/ccx',
	'cn-lite/1',
	'cn-heavy/0',
	'cn-heavy/tube',
	'cn-heavy/xhv',
	'cn-pico',
	'cn-pico/tlo',
	'cn/upx2',
	'rx/0',
	'rx/2',
	'rx/wow',
	'rx/arq',
	'rx/graft',
	'rx/sfx',
	'rx/yada',
	'argon2/chukwa',
	'argon2/chukwav2',
	'argon2/ninja',
	'ghostrider',
];
const CPU_FLAGS = ['aes', 'vaes', 'avx', 'avx2', 'bmi2', 'osxsave', 'pdpe1gb', 'sse2', 'ssse3', 'sse4.1', 'popcnt', 'cat_l3'];

export function userAgent(info: DialectInfo): string {
	const libs =
		info.dialect === '6'
			? 'libuv/1.51.0 gcc/13.2.0'
			: info.dialect === '5'
				? 'libuv/1.38.0 gcc/9.3.0'
				: info.dialect === '2'
					? 'libuv/1.44.2 gcc/12.2.0'
					: 'libuv/1.24.1 gcc/8.2.0';
	return `XMRig/${info.version} (Linux x86_64) ${libs}`;
}

/** Hashrates are rounded down to 2 decimals; an unknown one is null; a zero is 0.0 on 6.22.2+ and null before. */
function rate(info: DialectInfo, value: number | null): JsonValue {
	if (value === null || !Number.isFinite(value)) return null;
	const floored = Math.max(0, Math.floor(value * 100) / 100);
	if (info.zeroWindowIsZero) return new JsonDouble(floored);
	return value > 0 ? new JsonDouble(floored) : null; // before 6.22.2 a zero was "not normal": null
}

function windows(info: DialectInfo, values: RawWindows): JsonValue[] {
	return values.map((value) => rate(info, value));
}

/** The summary's total: 6.x/5.x null when any thread lacks the window; 2.x sums whatever threads know. */
function totals(info: DialectInfo, perThread: readonly RawWindows[]): JsonValue[] {
	if (perThread.length === 0) return info.zeroWindowIsZero ? [new JsonDouble(0), new JsonDouble(0), new JsonDouble(0)] : [null, null, null];
	return [0, 1, 2].map((i) => {
		let sum = 0;
		for (const thread of perThread) {
			const value = thread[i];
			if (value === null || value === undefined) {
				if (info.modern) return null;
				continue;
			}
			sum += value;
		}
		return rate(info, sum);
	});
}

function cpuObject(ctx: PayloadContext): JsonObject {
	const {version} = ctx.info;
	const x86Details = atLeast(version, '6.5.2');
	return {
		brand: ctx.cpu.brand,
		family: x86Details ? 25 : undefined,
		model: x86Details ? 33 : undefined,
		stepping: x86Details ? 0 : undefined,
		proc_info: x86Details ? 10489616 : undefined,
		aes: true,
		avx2: true,
		x64: true,
		'64_bit': atLeast(version, '6.25.0') ? true : undefined,
		l2: ctx.cpu.cores * 524288,
		l3: 33554432,
		cores: ctx.cpu.cores,
		threads: ctx.cpu.threads,
		packages: 1,
		nodes: 1,
		backend: 'hwloc/2.12.0',
		msr: atLeast(version, '5.11.2') ? 'ryzen_19h' : undefined,
		assembly: 'ryzen',
		arch: atLeast(version, '6.5.0') ? 'x86_64' : undefined,
		flags: atLeast(version, '5.11.2') ? CPU_FLAGS : undefined,
	};
}

/** GET /1/summary, /api.json (apiVersion 1) and /2/summary (apiVersion 2). */
export function summary(ctx: PayloadContext, apiVersion: 1 | 2): JsonObject {
	if (!ctx.info.modern) return ctx.info.dialect === '2.14' ? summary214(ctx) : summary216(ctx);
	const {rig, info} = ctx;
	const v1 = apiVersion === 1;
	const msFields = atLeast(info.version, '6.2.3');
	const res = rig.resources;
	const perThread = rig.threadWindows();
	const hp = rig.hugePages;
	const avgTimeMs = rig.avgTimeMs;
	const uptimeMs = Math.floor(rig.connectionUptime * 1000);
	return {
		id: ctx.id,
		worker_id: ctx.workerId,
		uptime: rig.uptime,
		restricted: ctx.restricted,
		resources: {
			memory: {free: res.free, total: res.total, resident_set_memory: res.rss},
			load_average: res.load.map((l) => new JsonDouble(Math.floor(l * 100) / 100)),
			hardware_concurrency: ctx.cpu.threads,
		},
		features: FEATURES,
		results: {
			diff_current: rig.diff,
			shares_good: rig.accepted,
			shares_total: rig.accepted + rig.rejected,
			avg_time: Math.floor(avgTimeMs / 1000),
			avg_time_ms: msFields ? avgTimeMs : undefined,
			hashes_total: rig.hashesTotal,
			best: rig.best,
			error_log: v1 ? [] : undefined,
		},
		algo: rig.algo,
		connection: {
			pool: rig.poolAddress,
			ip: rig.ip,
			uptime: Math.floor(uptimeMs / 1000),
			uptime_ms: msFields ? uptimeMs : undefined,
			ping: rig.ping,
			failures: rig.failures,
			tls: rig.tls,
			'tls-fingerprint': rig.tlsFingerprint,
			algo: rig.algo,
			diff: rig.diff,
			accepted: rig.accepted,
			rejected: rig.rejected,
			avg_time: Math.floor(avgTimeMs / 1000),
			avg_time_ms: msFields ? avgTimeMs : undefined,
			hashes_total: rig.hashesTotal,
			error_log: v1 ? [] : undefined,
		},
		version: info.version,
		kind: 'miner',
		ua: userAgent(info),
		cpu: cpuObject(ctx),
		donate_level: rig.settings.donateLevel,
		paused: rig.paused,
		algorithms: ALGORITHMS,
		hashrate: {
			total: totals(info, perThread),
			highest: rate(info, rig.highest),
			threads: v1 ? perThread.map((w) => windows(info, w)) : undefined,
		},
		hugepages: v1 ? hp.allocated === hp.total : [hp.allocated, hp.total],
	};
}

/** 2.x lists its configured threads whether or not they hash yet. */
function legacyThreadWindows(rig: Rig): RawWindows[] {
	const running = rig.threadWindows();
	return rig.settings.cpu.threads.map((_, i) => running[i] ?? [null, null, null]);
}

/** The `results` of a 2.x summary (2.14 and 2.16 alike). */
function legacyResults(rig: Rig): JsonObject {
	return {
		diff_current: rig.diff,
		shares_good: rig.accepted,
		shares_total: rig.accepted + rig.rejected,
		avg_time: Math.floor(rig.avgTimeMs / 1000),
		hashes_total: rig.hashesTotal,
		best: rig.best,
		error_log: [],
	};
}

function summary216(ctx: PayloadContext): JsonObject {
	const {rig, info} = ctx;
	const perThread = legacyThreadWindows(rig);
	return {
		id: ctx.id,
		worker_id: ctx.workerId,
		uptime: rig.uptime,
		version: info.version,
		kind: 'cpu',
		ua: userAgent(info),
		cpu: {brand: ctx.cpu.brand, aes: true, x64: true, sockets: 1},
		hugepages: rig.hugePages.allocated > 0,
		donate_level: rig.settings.donateLevel,
		hashrate: {total: totals(info, perThread), highest: rate(info, rig.highest), threads: perThread.map((w) => windows(info, w))},
		results: legacyResults(rig),
		algo: rig.algo ?? 'cn',
		connection: {
			pool: rig.poolAddress,
			ip: rig.ip,
			uptime: Math.floor(rig.connectionUptime),
			ping: rig.ping,
			failures: rig.failures,
			tls: rig.tls,
			'tls-fingerprint': rig.tlsFingerprint,
			error_log: [],
		},
	};
}

function summary214(ctx: PayloadContext): JsonObject {
	const {rig, info} = ctx;
	const perThread = legacyThreadWindows(rig);
	return {
		id: ctx.id,
		worker_id: ctx.workerId,
		version: info.version,
		kind: 'cpu',
		ua: userAgent(info),
		cpu: {brand: ctx.cpu.brand, aes: true, x64: true, sockets: 1},
		algo: 'cryptonight',
		hugepages: rig.hugePages.allocated > 0,
		donate_level: rig.settings.donateLevel,
		hashrate: {total: totals(info, perThread), highest: rate(info, rig.highest), threads: perThread.map((w) => windows(info, w))},
		results: legacyResults(rig),
		connection: {pool: rig.poolAddress, uptime: Math.floor(rig.connectionUptime), ping: rig.ping, failures: rig.failures, error_log: []},
	};
}

/** GET /2/backends: the CPU backend (with threads while they run) and a disabled OpenCL backend. */
export function backends(ctx: PayloadContext): JsonValue {
	const {rig, info} = ctx;
	const running = rig.threadsRunning;
	const perThread = rig.threadWindows();
	const hp = rig.hugePages;
	const algo = running ? rig.algo : null;
	const cpu: JsonObject = {
		type: 'cpu',
		enabled: rig.settings.cpu.enabled,
		algo,
		profile: algo === null ? null : (algo.split('/')[0] ?? algo),
		'hw-aes': true,
		priority: -1,
		msr: atLeast(info.version, '6.5.0') ? running : undefined,
		asm: 'ryzen',
		'argon2-impl': null,
		'astrobwt-max-size': atLeast(info.version, '5.8.2') && !atLeast(info.version, '6.18.0') ? 550 : undefined,
		hugepages: [hp.allocated, hp.total],
		memory: rig.scratchpadMemory,
		hashrate: running ? totals(info, perThread) : undefined,
		threads: running
			? rig.threadInfo.map((thread, i) => ({
					intensity: thread.intensity,
					affinity: thread.affinity,
					av: 1,
					hashrate: windows(info, perThread[i] ?? [null, null, null]),
				}))
			: undefined,
	};
	return [cpu, {type: 'opencl', enabled: false, algo: null, profile: null, platform: null}];
}

/** GET /1/threads (2.x): every configured CPU thread, with its windows. */
export function legacyThreads(ctx: PayloadContext): JsonObject {
	const {rig, info} = ctx;
	const hp = rig.hugePages;
	const perThread = legacyThreadWindows(rig);
	return {
		hugepages: [hp.allocated, hp.total],
		memory: rig.settings.cpu.threads.length * 2_097_152,
		threads: rig.settings.cpu.threads.map((thread, i) => ({
			type: 'cpu',
			av: 1,
			low_power_mode: thread.intensity,
			affine_to_cpu: thread.affinity,
			priority: -1,
			soft_aes: false,
			hashrate: windows(info, perThread[i] ?? [null, null, null]),
		})),
	};
}

/** GET /2/dmi (6.8.0+ builds with DMI support). */
export function dmi(): JsonObject {
	return {
		smbios: '3.3.0',
		system: {vendor: 'Micro-Star International Co., Ltd.', product: 'MS-7C56'},
		board: {vendor: 'Micro-Star International Co., Ltd.', product: 'B550-A PRO (MS-7C56)'},
		memory: [],
	};
}
