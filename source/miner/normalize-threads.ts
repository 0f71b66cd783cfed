import {
	arr,
	asAffinity,
	asNumber,
	asRateWindows,
	bool,
	field,
	isObject,
	num,
	obj,
	text,
	unknownWindows,
	type JsonObject,
} from './json-fields.js';
import type {BackendInfo, GpuHealth, HugePages, RateWindows, ThreadInfo} from './model.js';
import {asHugePagesPair} from './normalize-summary.js';

/**
 * Per-thread and per-backend data, from whichever source the dialect has:
 * - `/2/backends` (2.99 – 6.x): cpu, opencl and cuda elements with their threads, GPU devices and health;
 * - `/1/threads` (2.6 – 2.16, GPU forks): CPU threads (`low_power_mode`, `affine_to_cpu`), nvidia or amd GPU threads;
 * - the summary's `hashrate.threads` (2.4 – 2.5), rates only.
 * The 2.x nvidia fork reports GPU health in the summary's `health[]`, one entry per GPU thread.
 */

export type PerThread = {
	readonly threads: readonly ThreadInfo[];
	readonly backends: readonly BackendInfo[];
	/** Huge pages as pages allocated of pages wanted, where this source has them. */
	readonly hugepages: HugePages | null;
};

/** 6.x OpenCL `{temperature, power, clock, mem_clock, rpm}`, CUDA `{…, fan_speed: []}`, nvidia fork `{temp, fan, …}`. */
export function readHealth(value: unknown): GpuHealth | null {
	if (!isObject(value)) {
		return null;
	}

	const fans = arr(value, 'fan_speed');
	return {
		temperature: num(value, 'temperature') ?? num(value, 'temp'),
		power: num(value, 'power'),
		clock: num(value, 'clock'),
		memClock: num(value, 'mem_clock') ?? num(value, 'memory_clock'),
		fan: (fans ? asNumber(fans[0]) : null) ?? num(value, 'fan') ?? num(value, 'rpm'),
	};
}

function backendDetail(type: string, backend: JsonObject): string | null {
	if (type === 'opencl') {
		return text(obj(backend, 'platform'), 'name');
	}

	if (type === 'cuda') {
		const versions = obj(backend, 'versions');
		const runtime = text(versions, 'cuda-runtime');
		const driver = text(versions, 'cuda-driver');
		if (runtime === null) {
			return null;
		}

		return driver === null ? `CUDA ${runtime}` : `CUDA ${runtime} (driver ${driver})`;
	}

	return null;
}

function backendThread(type: string, thread: unknown, index: number): ThreadInfo {
	return {
		backend: type,
		index,
		hashrate: asRateWindows(field(thread, 'hashrate')) ?? unknownWindows,
		// CUDA threads have no intensity (their `threads` × `blocks` is a launch size, not an intensity).
		intensity: type === 'cuda' ? null : num(thread, 'intensity'),
		affinity: asAffinity(field(thread, 'affinity')),
		device: type === 'cpu' ? null : (text(thread, 'board') ?? text(thread, 'name')),
		health: type === 'cpu' ? null : readHealth(field(thread, 'health')),
	};
}

/** From `/2/backends` (a JSON array; elements that are not backend objects are skipped). */
export function fromBackends(payload: readonly unknown[]): PerThread {
	const threads: ThreadInfo[] = [];
	const backends: BackendInfo[] = [];
	let hugepages: HugePages | null = null;
	for (const item of payload) {
		const type = text(item, 'type');
		if (!isObject(item) || type === null) {
			continue;
		}

		const list = arr(item, 'threads') ?? [];
		for (const [index, thread] of list.entries()) {
			threads.push(backendThread(type, thread, index));
		}

		const pages = asHugePagesPair(field(item, 'hugepages'));
		if (type === 'cpu' && hugepages === null) {
			hugepages = pages;
		}

		backends.push({
			type,
			enabled: bool(item, 'enabled') ?? false,
			algo: text(item, 'algo'),
			profile: text(item, 'profile'),
			hashrate: asRateWindows(field(item, 'hashrate')),
			threadCount: list.length,
			hugepages: pages,
			memory: num(item, 'memory'),
			detail: backendDetail(type, item),
		});
	}

	return {threads, backends, hugepages};
}

/** The backend a 2.x miner runs: its `kind` for the GPU forks, else the CPU. */
export function legacyBackendType(kind: string | null): string {
	return kind === 'nvidia' || kind === 'amd' ? kind : 'cpu';
}

function legacyDevice(health: readonly unknown[], index: number): {device: string | null; health: GpuHealth | null} {
	const entry = health[index];
	return {device: text(entry, 'name'), health: readHealth(entry)};
}

export type LegacyContext = {
	readonly kind: string | null;
	readonly algo: string | null;
	readonly total: RateWindows;
	/** The summary's `hashrate.threads`, [] when absent. */
	readonly summaryThreads: readonly unknown[];
	/** The nvidia fork's summary `health[]`, [] elsewhere. */
	readonly health: readonly unknown[];
	/** The summary's own hugepages (a flag in 2.x). */
	readonly summaryHugePages: HugePages | null;
};

function legacyBackend(
	type: string,
	context: LegacyContext,
	threadCount: number,
	hugepages: HugePages | null,
	memory: number | null,
): BackendInfo {
	return {
		type,
		enabled: true,
		algo: context.algo,
		profile: null,
		hashrate: context.total,
		threadCount,
		hugepages,
		memory,
		detail: null,
	};
}

/** From `/1/threads`: `{hugepages, memory, threads: [{type, low_power_mode, affine_to_cpu, hashrate}]}` and the forks'. */
export function fromV1Threads(payload: JsonObject, context: LegacyContext): PerThread {
	const type = legacyBackendType(context.kind);
	const list = arr(payload, 'threads') ?? [];
	const threads: ThreadInfo[] = [];
	for (const [index, thread] of list.entries()) {
		if (!isObject(thread)) {
			continue;
		}

		const gpu = legacyDevice(context.health, index);
		threads.push({
			backend: type,
			index,
			hashrate: asRateWindows(field(thread, 'hashrate')) ?? asRateWindows(context.summaryThreads[index]) ?? unknownWindows,
			// CPU: `low_power_mode` is the hashes per round ("ways"); the amd fork has `intensity`; nvidia has neither.
			intensity: num(thread, 'low_power_mode') ?? num(thread, 'intensity'),
			affinity: asAffinity(field(thread, 'affine_to_cpu')),
			device: gpu.device,
			health: gpu.health,
		});
	}

	const hugepages = asHugePagesPair(field(payload, 'hugepages'));
	return {
		threads,
		backends: [legacyBackend(type, context, threads.length, hugepages ?? context.summaryHugePages, num(payload, 'memory'))],
		hugepages,
	};
}

/** From the summary alone (2.4 – 2.5, where every GET path answers the summary): `hashrate.threads` rates. */
export function fromSummaryThreads(context: LegacyContext): PerThread {
	const type = legacyBackendType(context.kind);
	const threads: ThreadInfo[] = [];
	for (const [index, rates] of context.summaryThreads.entries()) {
		const gpu = legacyDevice(context.health, index);
		threads.push({
			backend: type,
			index,
			hashrate: asRateWindows(rates) ?? unknownWindows,
			intensity: null,
			affinity: null,
			device: gpu.device,
			health: gpu.health,
		});
	}

	return {
		threads,
		backends: [legacyBackend(type, context, threads.length, context.summaryHugePages, null)],
		hugepages: null,
	};
}
