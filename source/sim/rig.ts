/**
 * The simulated mining rig: CPU threads whose hash counters move with jitter, XMRig's hashrate windows
 * over them, a pool connection, and shares arriving at random. It runs on simulated seconds handed in by
 * the caller (advance); nothing here reads a clock or sets a timer. State moves on a fixed 1-second grid,
 * so the same seed and the same actions at the same simulated times give the same numbers.
 */
import {createHash} from 'node:crypto';
import {defaultAlgo, type ConfigSettings, type PoolSettings} from './config-doc.js';
import type {SimDialect} from './dialect.js';
import {SampleRing} from './hashrate-ring.js';
import type {Random} from './random.js';

/** XMRig's windows: 10 s, 60 s, 15 min. */
export const WINDOWS = [10, 60, 900] as const;

export type RawWindows = readonly [number | null, number | null, number | null];

/** Spans longer than this between two looks at the rig are crossed in one aggregate jump. */
const FAST_FORWARD_ABOVE = 1200;
/** ...leaving this many seconds to step through one by one, so every window refills. */
const FAST_FORWARD_KEEP = 1000;
/** Mean simulated time between spontaneous pool disconnects (rare: a calm demo). */
const MEAN_TIME_BETWEEN_DROPS = 24 * 3600;
/** Mean time between new jobs (Monero blocks are ~2 min apart). */
const MEAN_TIME_BETWEEN_JOBS = 120;
const RETRY_PAUSE = 5;
const REJECT_PROBABILITY = 0.003;
/** Seconds of average share time the simulated pool's difficulty aims at. */
const TARGET_SHARE_TIME = 30;
const BEST_COUNT = 10;
/** A RandomX dataset plus cache in 2 MiB pages. */
const DATASET_PAGES = 1168;
const SCRATCHPAD_BYTES = 2_097_152;
const MEMORY_TOTAL = 17_179_869_184;

type ThreadState = {
	readonly affinity: number;
	readonly intensity: number;
	readonly base: number;
	drift: number;
	count: number;
	readonly ring: SampleRing;
};

type EventKind = 'connect' | 'threads-start' | 'drop';
type RigEvent = {readonly at: number; readonly kind: EventKind};

export type RigOptions = {
	readonly dialect: SimDialect;
	readonly random: Random;
	readonly settings: ConfigSettings;
	/** Simulated seconds now. */
	readonly now: number;
	/** Start as a rig that has been up for days. */
	readonly warm: boolean;
	/**
	 * How long a warm rig has been up (default 3 days). Fixed per miner, never random: a simulator stopped and
	 * started again on the same port comes back with this uptime, below the one it last answered, so a restart
	 * never looks continuous.
	 */
	readonly warmUptimeSeconds?: number;
};

export const DEFAULT_WARM_UPTIME_SECONDS = 3 * 86400;

const ALGO_BASE_RATES: Readonly<Record<string, number>> = {
	'rx/0': 1250,
	'rx/wow': 1500,
	'rx/arq': 9000,
	'rx/graft': 1200,
	'rx/sfx': 1250,
	'rx/yada': 1200,
	'cn/r': 220,
	'cn-lite': 650,
	'cn-heavy': 110,
	'cn-pico': 4200,
	argon2: 3600,
	ghostrider: 180,
};

function baseRateFor(algo: string): number {
	return ALGO_BASE_RATES[algo] ?? ALGO_BASE_RATES[algo.split('/')[0] ?? ''] ?? (algo.startsWith('cn') ? 220 : 1000);
}

function hashOf(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}

export class Rig {
	readonly dialect: SimDialect;
	private readonly random: Random;
	settings: ConfigSettings;

	/** Simulated seconds as of the last advance(). */
	now: number;
	/** Grid time the state has been stepped to (≤ now). */
	private t: number;
	private events: RigEvent[] = [];

	processStart: number;
	paused = false;
	/** JSON-RPC `stop`: threads stopped until the next job. */
	private stopped = false;

	private threads: ThreadState[] = [];
	threadsRunning = false;
	/** Whether the RandomX dataset has been allocated (first job seen). */
	datasetReady = false;
	private highestRate: number | null = null;

	/** "host:port" of the last pool connected; '' before the first connection. */
	poolAddress = '';
	connected = false;
	connectedAt = 0;
	ip: string | null = null;
	tls: string | null = null;
	tlsFingerprint: string | null = null;
	failures = 0;
	diff = 0;
	algo: string | null = null;
	private manualDrop = false;
	private pingBase = 50;
	private latencies: number[] = [];
	private acceptedOnConnection = 0;

	accepted = 0;
	rejected = 0;
	hashesTotal = 0;
	best: number[] = Array.from({length: BEST_COUNT}, () => 0);
	private forcedRejects = 0;

	private load: [number, number, number] = [0.08, 0.05, 0.01];
	private memoryNoise = 0;

	constructor(options: RigOptions) {
		this.dialect = options.dialect;
		this.random = options.random;
		this.settings = options.settings;
		this.now = options.now;
		if (options.warm) {
			this.processStart = options.now - (options.warmUptimeSeconds ?? DEFAULT_WARM_UPTIME_SECONDS);
			this.t = Math.floor(this.processStart);
			this.schedule(this.processStart + 1, 'connect');
			this.schedule(options.now - 19 * 3600 - this.random.int(0, 1800), 'drop');
			this.now = this.t;
			this.advance(options.now);
		} else {
			this.processStart = options.now;
			this.t = Math.floor(options.now);
			this.schedule(options.now + 1, 'connect');
		}
	}

	// ---- time -------------------------------------------------------------------------------------

	/** Moves the rig forward to `now` simulated seconds (never backwards). */
	advance(now: number): void {
		if (now <= this.now) return;
		this.now = now;
		while (this.t + 1 <= now) {
			if (now - this.t > FAST_FORWARD_ABOVE) this.fastForward(Math.floor(now - FAST_FORWARD_KEEP));
			else this.step();
		}
	}

	get uptime(): number {
		return Math.max(0, Math.floor(this.now - this.processStart));
	}

	private schedule(at: number, kind: EventKind): void {
		this.events.push({at, kind});
		this.events.sort((a, b) => a.at - b.at);
	}

	private cancel(kind: EventKind): void {
		this.events = this.events.filter((event) => event.kind !== kind);
	}

	private runDueEvents(until: number): void {
		while (this.events.length > 0 && this.events[0]!.at <= until) {
			const event = this.events.shift()!;
			const at = Math.max(event.at, this.t);
			if (event.kind === 'connect') this.connect(at);
			else if (event.kind === 'threads-start') this.startThreads(at);
			else if (this.connected && !this.manualDrop) {
				this.disconnect();
				this.schedule(at + RETRY_PAUSE, 'connect');
			}
		}
	}

	private get hashing(): boolean {
		return this.threadsRunning && this.connected && !this.paused && !this.stopped;
	}

	private step(): void {
		this.t += 1;
		const t = this.t;
		this.runDueEvents(t);
		const hashing = this.hashing;
		let total = 0;
		for (const thread of this.threads) {
			thread.drift = thread.drift * 0.97 + this.random.normal() * 0.004;
			if (hashing) {
				const rate = Math.max(0, thread.base * (1 + thread.drift + this.random.normal() * 0.006));
				thread.count += rate;
				total += rate;
			}
			if (this.threadsRunning) thread.ring.push(t, thread.count);
		}
		if (hashing && this.diff > 0) {
			const shares = this.random.poisson(total / this.diff);
			for (let i = 0; i < shares; i++) this.submitShare();
		}
		if (this.connected && !this.manualDrop && this.random.next() < 1 / MEAN_TIME_BETWEEN_DROPS) {
			this.disconnect();
			this.schedule(t + RETRY_PAUSE, 'connect');
		}
		if (this.connected && this.random.next() < 1 / MEAN_TIME_BETWEEN_JOBS) this.onJob(t);
		if (this.threadsRunning) {
			const ten = this.totalRate(WINDOWS[0], t);
			if (ten !== null && ten > 0 && (this.highestRate === null || ten > this.highestRate)) this.highestRate = ten;
		}
		const target = this.loadTarget(hashing);
		const decay = [Math.exp(-1 / 60), Math.exp(-1 / 300), Math.exp(-1 / 900)] as const;
		for (let i = 0; i < 3; i++) this.load[i] = this.load[i]! * decay[i]! + target * (1 - decay[i]!);
		this.memoryNoise = this.memoryNoise * 0.99 + this.random.normal() * 2_000_000;
	}

	private loadTarget(hashing: boolean): number {
		return (hashing ? this.threads.length * 0.98 : 0) + 0.12 + this.random.next() * 0.25;
	}

	/** Crosses a long span in one jump (events inside it still happen at their times). */
	private fastForward(target: number): void {
		while (this.t < target) {
			const next = this.events[0];
			const until = next && next.at <= target ? Math.max(Math.ceil(next.at), this.t) : target;
			this.jump(until - this.t);
			this.runDueEvents(this.t);
		}
	}

	private jump(span: number): void {
		if (span <= 0) return;
		const start = this.t;
		const end = start + span;
		const hashing = this.hashing;
		let total = 0;
		for (const thread of this.threads) {
			if (hashing) {
				thread.count += thread.base * span;
				total += thread.base;
			}
			thread.ring.clear();
		}
		if (hashing && this.diff > 0) {
			const shares = this.random.poisson((total * span) / this.diff);
			const forced = Math.min(this.forcedRejects, shares);
			this.forcedRejects -= forced;
			const rejected = Math.min(shares - forced, this.random.poisson((shares - forced) * REJECT_PROBABILITY)) + forced;
			const accepted = shares - rejected;
			this.accepted += accepted;
			this.rejected += rejected;
			this.hashesTotal += accepted * this.diff;
			this.acceptedOnConnection += accepted;
			this.mergeBest(this.topShares(accepted));
			if (accepted > 0) {
				for (let i = 0; i < 16; i++) this.latencies.push(this.latencySample());
				this.latencies = this.latencies.slice(-128);
			}
			if (this.highestRate === null || total > this.highestRate) this.highestRate = total * 1.01;
		}
		if (this.connected && !this.manualDrop) {
			const drops = this.random.poisson(span / MEAN_TIME_BETWEEN_DROPS);
			const lastDrop = start + this.random.next() * span;
			if (drops > 0 && lastDrop + RETRY_PAUSE < end) {
				this.failures += drops;
				const fraction = (end - (lastDrop + RETRY_PAUSE)) / span;
				this.connectedAt = lastDrop + RETRY_PAUSE;
				this.acceptedOnConnection = Math.round(this.acceptedOnConnection * fraction);
				this.diff = this.chooseDiff();
			}
		}
		this.t = end;
		if (this.threadsRunning) for (const thread of this.threads) thread.ring.push(end, thread.count);
		const target = this.loadTarget(hashing);
		this.load = [target, target, target];
	}

	// ---- threads ----------------------------------------------------------------------------------

	private currentAlgo(): string {
		return this.settings.pool?.algo ?? defaultAlgo(this.dialect);
	}

	private startThreads(at: number): void {
		if (this.threadsRunning || !this.connected || !this.settings.cpu.enabled) return;
		const algo = this.algo ?? this.currentAlgo();
		const perThread = baseRateFor(algo) * (this.settings.cpu.hugePages ? 1 : 0.72);
		this.threads = this.settings.cpu.threads.map((entry, index) => {
			const spread = 0.93 + (hashOf(`${index}:${entry.affinity}`)[0]! / 255) * 0.12;
			const ring = new SampleRing();
			ring.push(at, 0);
			return {affinity: entry.affinity, intensity: entry.intensity, base: perThread * spread, drift: 0, count: 0, ring};
		});
		this.threadsRunning = this.threads.length > 0;
		this.datasetReady = true;
		this.stopped = false;
	}

	private stopThreads(): void {
		this.threads = [];
		this.threadsRunning = false;
		this.cancel('threads-start');
	}

	/** Threads stop and start again: every window is null again until it refills. */
	restartThreads(): void {
		this.stopThreads();
		if (this.connected) this.startThreads(this.now);
	}

	private onJob(t: number): void {
		if (this.random.next() < 0.08) this.diff = this.chooseDiff();
		if ((this.stopped || !this.threadsRunning) && this.connected && this.settings.cpu.enabled) {
			this.stopped = false;
			this.startThreads(t);
		}
	}

	/** Per-thread [10 s, 60 s, 15 min] rates in H/s (raw, unrounded) as of now. */
	threadWindows(): RawWindows[] {
		return this.threads.map((thread) => WINDOWS.map((w) => thread.ring.rate(w, this.now)) as unknown as RawWindows);
	}

	get threadInfo(): readonly {readonly affinity: number; readonly intensity: number}[] {
		return this.threadsRunning ? this.threads : [];
	}

	private totalRate(window: number, at: number): number | null {
		let sum = 0;
		for (const thread of this.threads) {
			const rate = thread.ring.rate(window, at);
			if (rate === null) return null;
			sum += rate;
		}
		return sum;
	}

	/** Highest 10-second total seen since the process started, or null. */
	get highest(): number | null {
		return this.highestRate;
	}

	// ---- pool -------------------------------------------------------------------------------------

	private connect(at: number): void {
		const pool = this.settings.pool;
		if (!pool || this.connected || this.manualDrop) return;
		this.cancel('connect');
		this.connected = true;
		this.connectedAt = at;
		this.poolAddress = pool.address;
		this.ip = ipFor(pool.host);
		const tls = pool.tls || pool.port === 443;
		this.tls = tls ? 'TLSv1.3' : null;
		this.tlsFingerprint = tls ? hashOf(`tls:${pool.host}`).toString('hex') : null;
		this.pingBase = 25 + (hashOf(`ping:${pool.host}`)[0]! % 60);
		this.algo = this.currentAlgo();
		this.diff = this.chooseDiff();
		this.latencies = [];
		this.acceptedOnConnection = 0;
		if (!this.threadsRunning && this.settings.cpu.enabled && !this.events.some((event) => event.kind === 'threads-start')) {
			// RandomX needs its dataset before the first hash; the 2.x CryptoNight threads start at once.
			const delay = this.dialect === '6' || this.dialect === '5' ? (this.datasetReady ? 0 : 1) : 0;
			if (delay === 0) this.startThreads(at);
			else this.schedule(at + delay, 'threads-start');
		}
	}

	private disconnect(countFailure = true): void {
		if (!this.connected) return;
		this.connected = false;
		this.ip = null;
		this.tls = null;
		this.tlsFingerprint = null;
		this.diff = 0;
		this.latencies = [];
		this.acceptedOnConnection = 0;
		if (countFailure) this.failures++;
	}

	private chooseDiff(): number {
		const threads = Math.max(1, this.settings.cpu.threads.length);
		const total = baseRateFor(this.currentAlgo()) * threads;
		const diff = total * TARGET_SHARE_TIME * (0.85 + this.random.next() * 0.3);
		return Math.max(1000, Math.round(diff / 1000) * 1000);
	}

	private latencySample(): number {
		return Math.max(1, Math.round(this.pingBase + Math.abs(this.random.normal()) * 9));
	}

	private submitShare(): void {
		if (this.forcedRejects > 0) {
			this.forcedRejects--;
			this.rejected++;
			return;
		}
		if (this.random.next() < REJECT_PROBABILITY) {
			this.rejected++;
			return;
		}
		this.accepted++;
		this.acceptedOnConnection++;
		this.latencies.push(this.latencySample());
		if (this.latencies.length > 255) this.latencies.shift();
		this.hashesTotal += this.diff;
		this.mergeBest([Math.min(Number.MAX_SAFE_INTEGER, Math.floor(this.diff / this.random.positive()))]);
	}

	/** The best `count` actual difficulties among `count` accepted shares (order statistics of 1/U). */
	private topShares(count: number): number[] {
		const out: number[] = [];
		let u = 0;
		for (let k = 0; k < Math.min(count, BEST_COUNT); k++) {
			u += (1 - u) * (1 - this.random.positive() ** (1 / (count - k)));
			out.push(Math.min(Number.MAX_SAFE_INTEGER, Math.floor(this.diff / Math.max(u, Number.EPSILON))));
		}
		return out;
	}

	private mergeBest(values: readonly number[]): void {
		if (values.length === 0) return;
		this.best = [...this.best, ...values].sort((a, b) => b - a).slice(0, BEST_COUNT);
	}

	/** Connection age in seconds (0 while disconnected). */
	get connectionUptime(): number {
		return this.connected ? Math.max(0, this.now - this.connectedAt) : 0;
	}

	/** Median share round trip in ms; 0 until the first share on this connection. */
	get ping(): number {
		if (!this.connected || this.latencies.length === 0) return 0;
		const sorted = [...this.latencies].sort((a, b) => a - b);
		return sorted[Math.floor(sorted.length / 2)]!;
	}

	/** Average milliseconds per accepted share on this connection (0 without any). */
	get avgTimeMs(): number {
		return this.acceptedOnConnection > 0 ? Math.floor((this.connectionUptime * 1000) / this.acceptedOnConnection) : 0;
	}

	// ---- resources ----------------------------------------------------------------------------------

	get hugePages(): {allocated: number; total: number} {
		const n = this.threadsRunning ? this.threads.length : 0;
		if (this.dialect === '2' || this.dialect === '2.14') {
			const total = this.settings.cpu.threads.length;
			return {allocated: this.settings.cpu.hugePages ? total : 0, total};
		}
		if (!this.datasetReady) return {allocated: 0, total: 0};
		const total = DATASET_PAGES + n;
		return {allocated: this.settings.cpu.hugePages ? total : 0, total};
	}

	get scratchpadMemory(): number {
		return this.threadsRunning ? this.threads.length * SCRATCHPAD_BYTES : 0;
	}

	get resources(): {rss: number; free: number; total: number; load: readonly [number, number, number]} {
		const rss = this.datasetReady ? 2_436_000_000 + this.threads.length * 2_400_000 : 12_742_656;
		const free = Math.max(0, Math.round(MEMORY_TOTAL - rss - 3_150_000_000 + this.memoryNoise));
		return {rss, free, total: MEMORY_TOTAL, load: this.load};
	}

	// ---- control ------------------------------------------------------------------------------------

	pause(): void {
		this.paused = true;
	}

	resume(): void {
		this.paused = false;
	}

	/** JSON-RPC `stop`: worker threads stop; they come back with the next job from the pool. */
	stopWorkers(): void {
		this.stopThreads();
		this.stopped = true;
	}

	dropPool(): void {
		this.manualDrop = true;
		this.cancel('connect');
		this.cancel('drop');
		this.disconnect();
	}

	restorePool(): void {
		this.manualDrop = false;
		this.cancel('connect');
		this.connect(this.now);
	}

	rejectShares(n: number): void {
		this.forcedRejects += Math.max(0, Math.floor(n));
	}

	/** The process restarted: everything but identity and config starts over. */
	restartProcess(settings: ConfigSettings): void {
		this.settings = settings;
		this.events = [];
		this.stopThreads();
		this.processStart = this.now;
		this.paused = false;
		this.stopped = false;
		this.datasetReady = false;
		this.highestRate = null;
		this.connected = false;
		this.manualDrop = false;
		this.poolAddress = '';
		this.ip = null;
		this.tls = null;
		this.tlsFingerprint = null;
		this.failures = 0;
		this.diff = 0;
		this.algo = null;
		this.latencies = [];
		this.acceptedOnConnection = 0;
		this.accepted = 0;
		this.rejected = 0;
		this.hashesTotal = 0;
		this.best = Array.from({length: BEST_COUNT}, () => 0);
		this.schedule(this.now + 1, 'connect');
	}

	/** A new config took effect: reconnect on pool changes, restart threads on CPU changes (6.x/5.x live). */
	applySettings(settings: ConfigSettings): void {
		const previous = this.settings;
		this.settings = settings;
		const live = this.dialect === '6' || this.dialect === '5';
		if (!live) {
			// 2.x read its threads once at start; keep them until a restart.
			this.settings = {...settings, cpu: previous.cpu};
		}
		if (!samePool(previous.pool, settings.pool)) {
			if (this.connected) this.disconnect(false);
			this.cancel('connect');
			if (settings.pool && !this.manualDrop) {
				this.connect(this.now);
			}
		}
		if (live && previous.cpu.launchKey !== settings.cpu.launchKey) {
			this.stopThreads();
			if (settings.cpu.enabled && this.connected) this.startThreads(this.now);
		}
	}
}

function samePool(a: PoolSettings | null, b: PoolSettings | null): boolean {
	if (a === null || b === null) return a === b;
	return a.address === b.address && a.tls === b.tls && a.algo === b.algo;
}

/** A stable made-up address for a pool host (TEST-NET-3), or the host itself when it is an IPv4 literal. */
export function ipFor(host: string): string {
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host;
	if (host === 'localhost') return '127.0.0.1';
	return `203.0.113.${(hashOf(`ip:${host}`)[0]! % 254) + 1}`;
}
