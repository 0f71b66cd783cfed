/**
 * The simulated xmrig-proxy's state: miners connected through it, grouped into workers, shares they
 * submit, its upstream pool connections, and the proxy's counters, kept the way the real proxy keeps them
 * (src/proxy/Stats.cpp, StatsData.h, TickingCounter.h, workers/Workers.cpp, Worker.cpp of xmrig-proxy):
 *
 * - Rates come from counters of accepted share difficulty summed over 4-second ticks. A window of S seconds
 *   sums the last S/4 ticks and divides by S·1000 (kH/s) whether or not the proxy has run that long, so a
 *   window longer than the uptime under-reports. The sixth summary number is the same over the whole uptime.
 * - A worker is created the first time a miner with its name logs in and is never removed (only reset when
 *   the grouping mode changes): a miner leaving decrements its connections.
 * - hashes count accepted difficulty; a pool rejection is `rejected`, a share the proxy refused is `invalid`.
 * - avg_time is uptime / accepted shares (seconds); latency is the median share round trip (ms).
 *
 * Like the miner's Rig, nothing here reads a clock: it moves on a fixed 4-second grid of simulated uptime
 * handed in by the caller, so the same seed and the same actions at the same times give the same numbers.
 */
import type {Random} from './random.js';

/** The proxy's tick: Stats and Workers advance their counters every 4 seconds. */
export const TICK_SECONDS = 4;
/** The windows of the summary and of each worker row: 1 min, 10 min, 1 h, 12 h, 24 h. */
export const PROXY_WINDOWS = [60, 600, 3600, 12 * 3600, 24 * 3600] as const;
const RING_TICKS = (24 * 3600) / TICK_SECONDS;
const BEST_COUNT = 10;
/** Upstream connections in nicehash mode: one per 256 miners. */
const MINERS_PER_UPSTREAM = 256;
const LATENCY_BINS = 1000;
const FAST_FORWARD_SLACK = 900;
const WARM_LIFE_TICKS = (3 * 3600) / TICK_SECONDS;

/** How a worker is named from its miners (the config's `workers`): the proxy's Workers::Mode. */
export type WorkersMode = 'none' | 'rig_id' | 'user' | 'password' | 'agent' | 'ip';

export type ProxyMinerSpec = {
	/** The worker name under the default rig_id grouping (the miner's rig-id). */
	readonly name: string;
	readonly user?: string;
	/** The miner's pool password (a secret rigtop must never show). Default sim-pool-pass-<miner id>. */
	readonly password?: string;
	readonly agent?: string;
	readonly ip?: string;
	/** The miner's true hashrate in H/s. */
	readonly hashrate?: number;
};

/** Mean simulated seconds between life events (per connected worker where it says so). */
export type LifeRates = {
	readonly quietEvery: number;
	readonly leaveEvery: number;
	readonly joinEvery: number;
	readonly upstreamErrorEvery: number;
};

const DEFAULT_LIFE: LifeRates = {quietEvery: 4 * 3600, leaveEvery: 8 * 3600, joinEvery: 6 * 3600, upstreamErrorEvery: 6 * 3600};

class TickRing {
	private readonly data = new Float64Array(RING_TICKS);
	private head = 0;
	private size = 0;
	/** Everything ever ticked, including what fell out of the ring. */
	total = 0;
	pending = 0;

	tick(): void {
		this.data[this.head] = this.pending;
		this.total += this.pending;
		this.pending = 0;
		this.head = (this.head + 1) % RING_TICKS;
		if (this.size < RING_TICKS) this.size++;
	}

	/** TickingCounter::calc: the last seconds/4 ticks over the whole window, in kH/s. */
	calc(seconds: number, tickCount: number): number {
		const ticks = Math.floor(seconds / TICK_SECONDS);
		if (ticks === 0) return 0;
		let count = 0;
		if (ticks >= tickCount) count = this.total;
		else {
			const n = Math.min(ticks, this.size);
			for (let i = 1; i <= n; i++) count += this.data[(this.head - i + RING_TICKS) % RING_TICKS]!;
		}
		return count === 0 ? 0 : count / (ticks * TICK_SECONDS * 1000);
	}
}

export type SimProxyMiner = {
	readonly id: number;
	readonly ip: string;
	tx: number;
	rx: number;
	readonly diff: number;
	readonly user: string;
	readonly password: string;
	readonly rigId: string;
	readonly agent: string;
	readonly worker: SimProxyWorker;
};

export type SimProxyWorker = {
	readonly name: string;
	ip: string;
	connections: number;
	accepted: number;
	rejected: number;
	invalid: number;
	hashes: number;
	/** Milliseconds since the epoch of the last accepted share, 0 before any. */
	lastHash: number;
	readonly ring: TickRing;
	/** Uptime until which it stays connected but sends nothing. */
	quietUntil: number;
	/** Uptime at which a worker that left comes back (Infinity: not by itself). */
	rejoinAt: number;
	readonly spec: ProxyMinerSpec;
};

export type ProxyModelOptions = {
	readonly random: Random;
	readonly miners: readonly ProxyMinerSpec[];
	/** Proxy uptime at simulated second 0 (days for a warm start). */
	readonly startUptime: number;
	/** Wall-clock milliseconds at simulated second 0 (for `last hash time`). */
	readonly epochMs: number;
	/** Every Nth share is rejected by the pool (0: none). */
	readonly rejectEvery: number;
	/** Share difficulty the upstream hands out. */
	readonly diff: number;
	/** Spontaneous joins, leaves, quiet spells and upstream errors. */
	readonly lifeEvents: boolean;
	readonly life?: Partial<LifeRates>;
	readonly mode: WorkersMode;
};

const AGENT = 'XMRig/6.26.0 (Linux x86_64) libuv/1.51.0 gcc/13.2.0';
const INVALID_PROBABILITY = 0.002;

export class ProxyModel {
	readonly workers: SimProxyWorker[] = [];
	readonly miners: SimProxyMiner[] = [];
	accepted = 0;
	rejected = 0;
	invalid = 0;
	expired = 0;
	hashes = 0;
	maxMiners = 0;
	/** Ticks since the proxy started. */
	tickCount = 0;
	readonly best: number[] = Array.from({length: BEST_COUNT}, () => 0);
	private readonly stats = new TickRing();
	private readonly latency = new Float64Array(LATENCY_BINS);
	private latencyCount = 0;
	private readonly random: Random;
	private readonly options: ProxyModelOptions;
	private readonly life: LifeRates;
	private nextMinerId = 1;
	private shareCount = 0;
	private forcedRejects = 0;
	/** Uptime until which every upstream is in error (Infinity: until restored). */
	private upstreamErrorUntil = 0;
	private readonly workersByName = new Map<string, SimProxyWorker>();
	private joined = 0;
	mode: WorkersMode;

	constructor(options: ProxyModelOptions) {
		this.options = options;
		this.random = options.random;
		this.mode = options.mode;
		this.life = {...DEFAULT_LIFE, ...options.life};
		for (const spec of options.miners) this.connect(spec);
		if (options.startUptime > 0) this.warmUp(options.startUptime);
	}

	/** Proxy uptime (seconds) at the last tick processed. */
	get tickedUptime(): number {
		return this.tickCount * TICK_SECONDS;
	}

	/** Runs every tick up to the given proxy uptime. */
	advanceTo(uptime: number): void {
		const target = Math.floor(uptime / TICK_SECONDS);
		// A long jump (a test stepping days, a laptop waking up): the distant part in one step, the last day tick by tick.
		if (target - this.tickCount > RING_TICKS + FAST_FORWARD_SLACK) this.skip(target - this.tickCount - RING_TICKS);
		while (this.tickCount < target) this.tick(true);
	}

	// ---- what the API reads -------------------------------------------------------------------------

	/** Summary `hashrate.total`: the five windows, then the whole uptime (at the last tick), kH/s. */
	hashrate(): number[] {
		const uptime = this.tickedUptime;
		return [...PROXY_WINDOWS.map((w) => this.stats.calc(w, this.tickCount)), this.stats.calc(uptime, this.tickCount)];
	}

	workerRates(worker: SimProxyWorker): number[] {
		return PROXY_WINDOWS.map((w) => worker.ring.calc(w, this.tickCount));
	}

	get minersNow(): number {
		return this.miners.length;
	}

	upstreams(): {active: number; sleep: number; error: number; total: number} {
		const total = Math.max(1, Math.ceil(this.maxMiners / MINERS_PER_UPSTREAM));
		if (this.upstreamError) return {active: 0, sleep: 0, error: total, total};
		if (this.miners.length === 0) return {active: 0, sleep: total, error: 0, total};
		const active = Math.max(1, Math.ceil(this.miners.length / MINERS_PER_UPSTREAM));
		return {active, sleep: total - active, error: 0, total};
	}

	get upstreamError(): boolean {
		return this.tickedUptime < this.upstreamErrorUntil;
	}

	/** StatsData::avgTime: uptime over accepted shares, whole seconds. */
	avgTime(uptime: number): number {
		return this.latencyCount === 0 ? 0 : Math.floor(uptime / this.latencyCount);
	}

	/** StatsData::avgLatency: the median round trip in ms. */
	medianLatency(): number {
		if (this.latencyCount === 0) return 0;
		const middle = Math.floor(this.latencyCount / 2);
		let seen = 0;
		for (let ms = 0; ms < LATENCY_BINS; ms++) {
			seen += this.latency[ms]!;
			if (seen > middle) return ms;
		}
		return LATENCY_BINS - 1;
	}

	workerNamed(name: string): SimProxyWorker | undefined {
		return this.workersByName.get(name);
	}

	// ---- actions ------------------------------------------------------------------------------------

	/** A miner logs in: joins (or creates) its worker. */
	connect(spec: ProxyMinerSpec): SimProxyMiner {
		const id = this.nextMinerId++;
		const worker = this.workerFor(spec, id, spec.ip ?? '127.0.0.1');
		worker.connections++;
		worker.rejoinAt = Infinity;
		const miner: SimProxyMiner = {
			id,
			ip: spec.ip ?? '127.0.0.1',
			tx: 0,
			rx: 0,
			diff: this.options.diff,
			user: spec.user ?? 'sim-wallet',
			password: spec.password ?? `sim-pool-pass-${id}`,
			rigId: spec.name,
			agent: spec.agent ?? AGENT,
			worker,
		};
		this.miners.push(miner);
		this.maxMiners = Math.max(this.maxMiners, this.miners.length);
		return miner;
	}

	private workerFor(spec: ProxyMinerSpec, id: number, ip: string): SimProxyWorker {
		const key = this.workerKey(spec, id);
		// Per-worker statistics off (`"workers": false`): the miner counts toward nothing listed.
		let worker = this.mode === 'none' ? undefined : this.workersByName.get(key);
		if (!worker) {
			worker = {
				name: key,
				ip: spec.ip ?? '127.0.0.1',
				connections: 0,
				accepted: 0,
				rejected: 0,
				invalid: 0,
				hashes: 0,
				lastHash: 0,
				ring: new TickRing(),
				quietUntil: 0,
				rejoinAt: Infinity,
				spec,
			};
			if (this.mode !== 'none') {
				this.workersByName.set(key, worker);
				this.workers.push(worker);
			}
		}
		worker.ip = ip;
		return worker;
	}

	/** Every miner of the worker disconnects; the row stays with 0 connections. */
	disconnect(worker: SimProxyWorker, rejoinAt = Infinity): void {
		for (let i = this.miners.length - 1; i >= 0; i--) {
			if (this.miners[i]!.worker === worker) this.miners.splice(i, 1);
		}
		worker.connections = 0;
		worker.rejoinAt = rejoinAt;
	}

	/** Workers::onConfigChanged: another grouping starts every worker afresh from the miners connected now. */
	setMode(mode: WorkersMode): void {
		if (mode === this.mode) return;
		this.mode = mode;
		const connected = this.miners.splice(0);
		this.workers.length = 0;
		this.workersByName.clear();
		for (const miner of connected) {
			const worker = this.workerFor(miner.worker.spec, miner.id, miner.ip);
			worker.connections++;
			this.miners.push({...miner, worker});
		}
	}

	/** The worker stays connected but sends no share until the given uptime. */
	quiet(worker: SimProxyWorker, until: number): void {
		worker.quietUntil = until;
	}

	failUpstream(until = Infinity): void {
		this.upstreamErrorUntil = until;
	}

	restoreUpstream(): void {
		this.upstreamErrorUntil = 0;
	}

	/** The worker's first miner submits n shares now (at the given uptime): counted at once, in the rates at the next tick. */
	submitShares(worker: SimProxyWorker, n: number, at: number): void {
		const miner = this.miners.find((m) => m.worker === worker);
		if (!miner) throw new Error(`worker ${JSON.stringify(worker.name)} has no miner connected`);
		for (let i = 0; i < n; i++) this.share(miner, at, true, false);
	}

	rejectShares(n: number): void {
		this.forcedRejects += Math.max(0, Math.floor(n));
	}

	// ---- internals ----------------------------------------------------------------------------------

	private workerKey(spec: ProxyMinerSpec, id: number): string {
		switch (this.mode) {
			case 'rig_id':
				return spec.name;
			case 'user':
				return spec.user ?? 'sim-wallet';
			case 'password':
				return spec.password ?? `sim-pool-pass-${id}`;
			case 'agent':
				return spec.agent ?? AGENT;
			case 'ip':
				return spec.ip ?? '127.0.0.1';
			default:
				return 'unknown';
		}
	}

	private epochAt(uptime: number): number {
		return Math.floor(this.options.epochMs + (uptime - this.options.startUptime) * 1000);
	}

	/** A warm start: the last 24 hours tick by tick, everything before in one aggregate step. */
	private warmUp(startUptime: number): void {
		const target = Math.floor(startUptime / TICK_SECONDS);
		this.tickCount = 0;
		if (target > RING_TICKS) this.skip(target - RING_TICKS);
		// Life (joins, leaves, quiet spells) only over the last hours: a demo opens on a settled farm.
		while (this.tickCount < target) this.tick(this.tickCount >= target - WARM_LIFE_TICKS);
	}

	/**
	 * Crosses many ticks in one aggregate step: shares counted, not sampled one by one, and the rate rings not
	 * filled (the caller ticks a whole ring's worth after this, so every window is made of real ticks again).
	 */
	private skip(ticks: number): void {
		const from = this.tickedUptime;
		const seconds = ticks * TICK_SECONDS;
		const hashing = this.upstreamErrorUntil !== Infinity;
		for (const miner of this.miners) {
			if (!hashing || miner.worker.quietUntil === Infinity) continue;
			const rate = miner.worker.spec.hashrate ?? 1000;
			const shares = this.random.poisson((rate * seconds) / miner.diff);
			const sampled = Math.min(shares, 200);
			for (let i = 0; i < sampled; i++) this.share(miner, from + seconds * this.random.next(), false);
			this.bulkShares(miner, shares - sampled);
			miner.tx += shares * 180 + Math.floor(seconds / 40) * 320;
			miner.rx += shares * 150;
		}
		this.stats.total += this.stats.pending;
		this.stats.pending = 0;
		for (const worker of this.workers) {
			worker.ring.total += worker.ring.pending;
			worker.ring.pending = 0;
		}
		this.tickCount += ticks;
	}

	/** Many shares at once (a warm start's distant past): counted, not sampled one by one. */
	private bulkShares(miner: SimProxyMiner, count: number): void {
		const {worker, diff} = miner;
		const every = this.options.rejectEvery;
		const rejected = every > 0 ? Math.floor(count / every) : 0;
		const accepted = count - rejected;
		worker.rejected += rejected;
		this.rejected += rejected;
		worker.accepted += accepted;
		worker.hashes += accepted * diff;
		worker.ring.pending += accepted * diff;
		this.accepted += accepted;
		this.hashes += accepted * diff;
		this.stats.pending += accepted * diff;
		this.latency[40]! += accepted;
		this.latencyCount += accepted;
	}

	private tick(lifeEvents: boolean): void {
		const start = this.tickedUptime;
		const end = start + TICK_SECONDS;
		if (this.options.lifeEvents && lifeEvents) this.lifeEvents(end);
		if (this.upstreamErrorUntil !== Infinity && this.upstreamErrorUntil !== 0 && end >= this.upstreamErrorUntil) {
			this.upstreamErrorUntil = 0;
			// Shares in flight when the upstream came back were for jobs it no longer knows.
			this.expired += this.random.poisson(0.5 * this.miners.length);
		}
		const hashing = !(start < this.upstreamErrorUntil);
		for (const miner of this.miners) {
			// A job now and then, a share answer for each share.
			if (hashing && this.random.next() < TICK_SECONDS / 40) miner.tx += 300 + this.random.int(0, 60);
			if (!hashing || miner.worker.quietUntil > start) continue;
			const rate = miner.worker.spec.hashrate ?? 1000;
			const shares = this.random.poisson((rate * TICK_SECONDS) / miner.diff);
			for (let i = 0; i < shares; i++) this.share(miner, start + this.random.next() * TICK_SECONDS, true);
		}
		this.tickCount++;
		this.stats.tick();
		for (const worker of this.workers) worker.ring.tick();
	}

	private share(miner: SimProxyMiner, at: number, live: boolean, mayBeInvalid = true): void {
		const {worker, diff} = miner;
		miner.rx += 140 + this.random.int(0, 20);
		if (live) miner.tx += 60;
		if (mayBeInvalid && this.random.next() < INVALID_PROBABILITY) {
			worker.invalid++;
			this.invalid++;
			return;
		}
		this.shareCount++;
		const every = this.options.rejectEvery;
		if (this.forcedRejects > 0 || (every > 0 && this.shareCount % every === 0)) {
			if (this.forcedRejects > 0) this.forcedRejects--;
			worker.rejected++;
			this.rejected++;
			return;
		}
		worker.accepted++;
		worker.hashes += diff;
		worker.ring.pending += diff;
		worker.lastHash = this.epochAt(at);
		this.accepted++;
		this.hashes += diff;
		this.stats.pending += diff;
		const actual = Math.floor(diff / this.random.positive());
		if (actual > this.best[BEST_COUNT - 1]!) {
			this.best[BEST_COUNT - 1] = actual;
			this.best.sort((a, b) => b - a);
		}
		const latency = Math.min(LATENCY_BINS - 1, Math.max(1, Math.round(30 + this.random.exponential(25))));
		this.latency[latency]!++;
		this.latencyCount++;
	}

	private chance(meanSeconds: number): boolean {
		return meanSeconds > 0 && Number.isFinite(meanSeconds) && this.random.next() < TICK_SECONDS / meanSeconds;
	}

	private lifeEvents(now: number): void {
		for (const worker of this.workers) {
			if (worker.connections === 0) {
				if (now >= worker.rejoinAt) this.connect(worker.spec);
				continue;
			}
			if (worker.quietUntil <= now && this.chance(this.life.quietEvery)) worker.quietUntil = now + this.random.int(180, 900);
			else if (this.chance(this.life.leaveEvery)) this.disconnect(worker, now + this.random.int(300, 3600));
		}
		if (this.chance(this.life.joinEvery)) {
			this.joined++;
			const model = this.options.miners[this.joined % Math.max(1, this.options.miners.length)];
			this.connect({
				name: `rig-new-${String(this.joined).padStart(2, '0')}`,
				ip: `10.0.0.${100 + (this.joined % 150)}`,
				hashrate: Math.round((model?.hashrate ?? 2000) * (0.6 + this.random.next() * 0.8)),
				...(model?.user === undefined ? {} : {user: model.user}),
			});
		}
		if (!this.upstreamError && this.chance(this.life.upstreamErrorEvery)) this.upstreamErrorUntil = now + this.random.int(30, 180);
	}
}
