import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {MinerClient} from '../miner/client.js';
import {MinerError} from '../miner/errors.js';
import {portIsOpen} from '../miner/probe.js';
import {MinerReader} from '../miner/reader.js';
import {createLimiter, type Limiter} from '../monitor/limiter.js';
import {Monitor} from '../monitor/monitor.js';
import type {HistoryRecorder} from '../history/recorder.js';
import {NoticeLog} from '../monitor/notices.js';
import type {ProxySimulator, Simulator} from '../sim/simulator.js';
import type {SimSysfs} from '../sim/sysfs-tree.js';
import type {MinerSnapshot} from '../miner/model.js';
import {isLocalUrl} from '../sensors/local.js';
import {SensorSampler} from '../sensors/sampler.js';

export type SessionTarget = {
	readonly url: string;
	readonly token: string | null;
	readonly name?: string | undefined;
	/** 'proxy': an xmrig-proxy, as discovery or the --rigs file says before it answers (its answer wins). */
	readonly kind?: 'miner' | 'proxy' | undefined;
	/** What discovery found about this miner in particular (its process, its config, its token in clear): its events. */
	readonly notes?: readonly string[] | undefined;
	/** Whose token this is when the user gave none and a running miner's was borrowed (discovery/borrowed-token.ts). */
	readonly tokenFrom?: string | undefined;
	/** Why no token is sent although one was there (a process not the user's: discovery/lending.ts); a 401's hint then. */
	readonly tokenRefused?: string | undefined;
};

/**
 * A 401 from a miner rigtop chose not to send a token to: the fix is not "pass --token-file" (it was passed) but why
 * it was not sent, and how to send it anyway (the address and the token, both named).
 */
export function withRefusedToken(error: unknown, refused: string | undefined, url: string): unknown {
	if (refused === undefined || !(error instanceof MinerError) || error.kind !== 'unauthorized') return error;
	return new MinerError(error.kind, error.message, {
		status: error.status,
		detail: error.detail,
		transient: error.transient,
		cause: error,
		hint: `${refused}; to send it anyway, give the address with it: rigtop ${url.replace(/^https?:\/\//, '')} --token-file FILE`,
	});
}

/** One watched miner: its client (for config and pause/resume), reader and monitor. */
export type WatchedMiner = {
	readonly target: SessionTarget;
	readonly client: MinerClient;
	readonly reader: MinerReader;
	readonly monitor: Monitor;
	/** This machine's sensors, read beside each poll: only for a miner on this machine (source/sensors/), else null. */
	readonly sensors: SensorSampler | null;
};

export type Session = {
	readonly miners: readonly WatchedMiner[];
	/** The simulated miner when running --demo. */
	readonly simulator: Simulator | ProxySimulator | null;
	/** What rigtop has to say about no miner in particular (start-up warnings, history's notices): the session's events. */
	readonly notices: NoticeLog;
	/** The history recorder (source/history/), when history is on and its store could be opened. */
	readonly recorder?: HistoryRecorder | null;
	/**
	 * Where this session keeps what it writes (config backups): undefined is the user's own
	 * ($XDG_STATE_HOME/rigtop). The demo keeps its state in a temporary folder of its own, removed on close:
	 * its miner is new at every run, on a new port, and must not fill the user's backups.
	 */
	readonly stateDir: string | undefined;
	start(): void;
	/** Resolves when every miner has finished its first poll (answered or failed), or after `maxMs`. */
	firstPolls(maxMs: number): Promise<void>;
	/**
	 * Which miner's dashboard is open (null: none, the fleet view). With several miners, only that one reads its
	 * per-thread document; the others read their summary alone (all the fleet rows and the alerts use), but an xmrig-proxy reads its
	 * /1/workers at every poll (its workers' history and alerts need each one). A newly
	 * opened miner is polled at once, so its threads show without waiting for the next poll.
	 */
	setOpen(index: number | null): void;
	/**
	 * From now on every miner reads its per-thread document at every poll, whichever dashboard is open (the metrics
	 * endpoint serves every miner's threads, so they must not come and go with the screen).
	 */
	readEveryThread(): void;
	close(): Promise<void>;
};

/** Polls that hold a slot at once across a session; a poll still running after a second gives its slot back (limiter.ts). */
export const MAX_CONCURRENT_POLLS = 16;

/**
 * A miner's client, reader and monitor; with a limiter, its polls share the limiter's slots. `perThread` says, at each
 * poll, whether to read the per-thread document too (default: always).
 */
export function watchMiner(
	target: SessionTarget,
	intervalMs: number,
	limiter?: Limiter,
	perThread: () => boolean = () => true,
	options: MonitorSettings = {},
): WatchedMiner {
	const client = new MinerClient({url: target.url, token: target.token});
	const reader = new MinerReader(client);
	const sensors =
		options.sensors === false || target.kind === 'proxy' || !isLocalUrl(target.url)
			? null
			: new SensorSampler({root: options.sysfsRoot, port: Number(new URL(target.url).port || 80)});
	const read = async (signal: AbortSignal) => {
		void sensors?.warm();
		try {
			return withSensors(sensors, await reader.read(signal, {perThread: perThread()}));
		} catch (error) {
			throw withRefusedToken(error, target.tokenRefused, target.url);
		}
	};
	const monitor = new Monitor({
		read: limiter ? async (signal) => limiter.run(async () => read(signal), signal) : read,
		url: target.url,
		...(target.name === undefined ? {} : {name: target.name}),
		intervalMs,
		...(options.pausedAlertMs === undefined ? {} : {pausedAlertMs: options.pausedAlertMs}),
		...(options.tempAlertC === undefined ? {} : {tempAlertC: options.tempAlertC}),
		probe: async (signal) => portIsOpen(target.url, Math.min(intervalMs, 3000), signal),
	});
	return {target, client, reader, monitor, sensors};
}

/** The snapshot with this machine's sensor reading beside it; as it was for a proxy or a miner elsewhere (no sampler). */
export async function withSensors(sensors: SensorSampler | null, snapshot: MinerSnapshot): Promise<MinerSnapshot> {
	if (sensors === null || snapshot.proxy !== null) return snapshot;
	return {...snapshot, sensors: await sensors.read(snapshot)};
}

/**
 * Starts the simulated miner for --demo: a warm 6.x rig on a free loopback port, with a fresh random
 * token and restricted off, so every feature (config view, pause, resume) can be tried on it.
 */
export async function startDemoMiner(): Promise<{simulator: Simulator; target: SessionTarget; stateDir: string; sysfs: SimSysfs}> {
	// Loaded only for --demo: a normal run never pays for the simulator's code, and `--once` not for node:crypto (about
	// 1–6 ms of a start on Node 22, docs/performance.md).
	const [{randomBytes}, {startSimulator}, {startSimSysfs}] = await Promise.all([
		import('node:crypto'),
		import('../sim/simulator.js'),
		import('../sim/sysfs-tree.js'),
	]);
	const token = randomBytes(16).toString('hex');
	const simulator = await startSimulator({dialect: '6', warm: true, token, restricted: false, workerId: 'demo-rig', threads: 8});
	const stateDir = await mkdtemp(path.join(tmpdir(), 'rigtop-demo-'));
	// Its sensors: a simulated sysfs of its own (k10temp, cpufreq, powercap), read instead of this machine's.
	const sysfs = await startSimSysfs(path.join(stateDir, 'sysfs'), {cpus: 8});
	return {simulator, target: {url: simulator.url, token, name: 'demo-rig'}, stateDir, sysfs};
}

/**
 * The simulated xmrig-proxy for `--demo proxy`: a warm one with a dozen miners behind them coming and going (life
 * events on), for the proxy screen. The caller stops the simulator and removes stateDir.
 */
export async function startDemoProxy(): Promise<{simulator: ProxySimulator; target: SessionTarget; stateDir: string}> {
	const [{randomBytes}, {startSimulator}] = await Promise.all([import('node:crypto'), import('../sim/simulator.js')]);
	const token = randomBytes(16).toString('hex');
	const simulator = await startSimulator({kind: 'proxy', warm: true, token, restricted: false, workerId: 'demo-proxy', workers: 12});
	const stateDir = await mkdtemp(path.join(tmpdir(), 'rigtop-demo-'));
	return {simulator, target: {url: simulator.url, token, name: 'demo-proxy'}, stateDir};
}

/** What every monitor of a session is told besides its interval. */
export type MonitorSettings = {
	/** After how long a paused miner is an alert (--paused-alert); default 10 minutes, 0 never. */
	readonly pausedAlertMs?: number;
	/** °C at or over which a CPU temperature is an alert (--temp-alert); null or absent: each sensor's own max. */
	readonly tempAlertC?: number | null;
	/** Where the sensors are read for a miner on this machine (default RIGTOP_SYSFS, else /sys; the demo's own tree). */
	readonly sysfsRoot?: string | undefined;
	/** false: read no sensors (default: read them for a miner on this machine). */
	readonly sensors?: boolean;
};

export function createSession(
	targets: readonly SessionTarget[],
	intervalMs: number,
	demo: {
		readonly simulator: Simulator | ProxySimulator;
		readonly stateDir: string;
		/** The demo's simulated sysfs (sim/sysfs-tree.ts): its miner's sensors are read there, and it stops on close. */
		readonly sysfs?: {readonly root: string; stop(): void} | undefined;
	} | null = null,
	settings: MonitorSettings = {},
): Session {
	// The demo's miner is read beside the simulated sysfs tree it writes (sim/sysfs-tree.ts), not this machine's.
	const monitorSettings: MonitorSettings = demo?.sysfs === undefined ? settings : {...settings, sysfsRoot: demo.sysfs.root};
	const simulator = demo?.simulator ?? null;
	// Each monitor keeps its own schedule and backoff; the limiter only bounds how many read at once.
	const limiter = targets.length > 1 ? createLimiter(MAX_CONCURRENT_POLLS) : undefined;
	// Every miner reads its per-thread document until a screen says which dashboard is open (--once reads all).
	let open: number | null | 'all' = 'all';
	let everyThread = false;
	// A proxy's workers (its per-thread document) are read at every poll, open or not: their history and alerts (gone,
	// quiet) need each poll. The exporter decides its own (--no-worker-metrics: exporter/fleet.ts).
	const miners = targets.map((target, index) => {
		const watched: WatchedMiner = watchMiner(
			target,
			intervalMs,
			limiter,
			() => targets.length === 1 || everyThread || open === 'all' || open === index || watched.reader.dialect?.name === 'proxy',
			monitorSettings,
		);
		return watched;
	});
	return {
		miners,
		simulator,
		notices: new NoticeLog(),
		stateDir: demo?.stateDir,
		start() {
			for (const miner of miners) miner.monitor.start();
		},
		async firstPolls(maxMs) {
			const pending = miners.filter((miner) => miner.monitor.getState().polls === 0);
			if (pending.length === 0) return;
			await new Promise<void>((resolve) => {
				const unsubscribes: Array<() => void> = [];
				const done = () => {
					clearTimeout(timer);
					for (const unsubscribe of unsubscribes) unsubscribe();
					resolve();
				};

				const timer = setTimeout(done, maxMs);
				const check = () => {
					if (pending.every((miner) => miner.monitor.getState().polls > 0)) done();
				};

				for (const miner of pending) unsubscribes.push(miner.monitor.subscribe(check));
			});
		},
		setOpen(index) {
			if (targets.length === 1 || index === open) return;
			open = index;
			if (index !== null) miners[index]?.monitor.pollNow();
		},
		readEveryThread() {
			everyThread = true;
		},
		async close() {
			for (const miner of miners) miner.monitor.stop();
			await Promise.allSettled(miners.map(async (miner) => miner.client.close()));
			demo?.sysfs?.stop();
			if (simulator) await simulator.stop();
			if (demo) await rm(demo.stateDir, {recursive: true, force: true});
		},
	};
}
