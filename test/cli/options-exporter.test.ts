import {expect, test} from 'vitest';
import {planCommand, planRun, type CliFlags} from '../../source/cli/options.js';
import {UsageError} from '../../source/session/errors.js';

const base: CliFlags = {demo: false, once: false, json: false, where: false, color: true, readOnly: false};
const plan = (flags: Partial<CliFlags>, options: {exporter?: boolean; tty?: boolean; positional?: string[]} = {}) =>
	planRun({
		positional: options.positional ?? [],
		command: options.exporter ? 'exporter' : undefined,
		flags: {...base, ...flags},
		env: {},
		stdinIsTty: options.tty ?? true,
		stdoutIsTty: options.tty ?? true,
	});

test('rigtop exporter: its own mode, loopback :9189 by default, polled every 10 s, with or without a terminal', () => {
	for (const tty of [true, false]) {
		const result = plan({}, {exporter: true, tty, positional: ['127.0.0.1:18088']});
		expect(result.mode).toBe('exporter');
		expect(result.metrics).toEqual({listen: ['127.0.0.1:9189'], flag: '--listen', tokenFile: undefined, webConfigFile: undefined});
		expect(result.intervalMs).toBe(10_000);
		expect(result.urls).toEqual(['127.0.0.1:18088']);
		expect(result.notices).toEqual([]);
	}

	expect(plan({listen: [':9189'], metricsTokenFile: 'tok', interval: 5, rigs: 'rigs.json'}, {exporter: true})).toMatchObject({
		metrics: {listen: [':9189'], flag: '--listen', tokenFile: 'tok'},
		intervalMs: 5000,
		rigsFile: 'rigs.json',
	});
	expect(plan({demo: true}, {exporter: true}).demo).toBe(true);
	expect(plan({listen: [':9189', '127.0.0.1:9190'], webConfigFile: 'web.yml'}, {exporter: true}).metrics).toEqual({
		listen: [':9189', '127.0.0.1:9190'],
		flag: '--listen',
		tokenFile: undefined,
		webConfigFile: 'web.yml',
	});
});

test('the live view keeps its 2 s default and serves metrics only with --metrics', () => {
	expect(plan({}).intervalMs).toBe(2000);
	expect(plan({}).metrics).toBeNull();
	expect(plan({metrics: '127.0.0.1:9190', metricsTokenFile: 'tok'})).toMatchObject({
		mode: 'live',
		metrics: {listen: ['127.0.0.1:9190'], flag: '--metrics', tokenFile: 'tok'},
	});
});

test('flags that do not go together are bad usage, each saying what to use instead', () => {
	const cases: ReadonlyArray<[Partial<CliFlags>, boolean, RegExp]> = [
		[{metrics: ':9189'}, true, /--metrics is for the live view/],
		[{once: true}, true, /rigtop exporter serves until stopped/],
		[{where: true}, true, /rigtop exporter serves until stopped/],
		[{bell: true}, true, /alerts are Prometheus's/],
		[{onAlert: 'logger'}, true, /alerts are Prometheus's/],
		[{listen: [':9189']}, false, /--listen is for rigtop exporter/],
		[{metricsTokenFile: 'tok'}, false, /--metrics-token-file protects --metrics ADDR or rigtop exporter/],
		[{metrics: ':9189', once: true}, false, /for metrics without a screen, run rigtop exporter/],
		[{metrics: ' '}, false, /--metrics needs an address/],
		[{listen: ['']}, true, /--listen needs an address/],
		[{metricsTokenFile: ''}, true, /--metrics-token-file needs the path/],
		[{webConfigFile: ' '}, true, /--web\.config\.file needs the path/],
		[{webConfigFile: 'web.yml'}, false, /--web\.config\.file is for --metrics ADDR or rigtop exporter/],
		[{interval: 0.1}, true, /--interval/],
	];
	for (const [flags, exporter, message] of cases) {
		expect(() => plan(flags, {exporter})).toThrow(UsageError);
		expect(() => plan(flags, {exporter})).toThrow(message);
	}

	// The live view without a terminal prints one snapshot; with --metrics it would serve nothing for long.
	expect(() => plan({metrics: '127.0.0.1:9190'}, {tty: false})).toThrow(/needs a terminal; without one, run rigtop exporter --listen ADDR/);
});

test('a live-view flag rigtop exporter would ignore is bad usage, saying what does that job; the ones whose promise holds pass', () => {
	const cases: ReadonlyArray<[Partial<CliFlags>, string]> = [
		[
			{tempAlert: '85'},
			'--temp-alert has no effect on rigtop exporter: it serves no temperatures; node_exporter does (docs/prometheus/node-exporter.yml)',
		],
		[
			{pausedAlert: '0'},
			'--paused-alert has no effect on rigtop exporter: it raises no alerts; Prometheus does (XmrigPausedTooLong in docs/prometheus/alerts.yml)',
		],
		[{yes: true}, '--yes has no effect on rigtop exporter: it changes no config (--yes goes with rigtop config set)'],
		[{add: true}, '--add has no effect on rigtop exporter: it changes no config (--add goes with rigtop config set)'],
	];
	for (const [flags, message] of cases) {
		expect(() => plan(flags, {exporter: true, positional: ['127.0.0.1:18088']})).toThrow(new UsageError(message));
		// The live view takes them.
		expect(() => plan(flags, {positional: ['127.0.0.1:18088']})).not.toThrow();
	}

	// Even a value the live view would refuse: what is said is that the exporter has no use for it.
	expect(() => plan({tempAlert: 'hot'}, {exporter: true})).toThrow(/^--temp-alert has no effect on rigtop exporter/);
	expect(() => plan({tempAlert: 'hot'})).toThrow(/^--temp-alert takes degrees Celsius/);

	// It writes nothing to a miner, stores nothing and colours nothing: --read-only, --no-history, --no-color hold.
	expect(plan({readOnly: true, history: false, color: false, yes: false, add: false}, {exporter: true}).mode).toBe('exporter');
});

test("rigtop exporter's per-worker flags for xmrig-proxy: on with a limit of 1000 unless told; bad values are usage errors", () => {
	const command = (flags: Partial<CliFlags>, input = ['exporter', '127.0.0.1:3333']) =>
		planCommand({input, flags: {...base, ...flags}, env: {}, stdinIsTty: true, stdoutIsTty: true});
	const workers = (flags: Partial<CliFlags>) => {
		const request = command(flags);
		if (request.command !== 'exporter') throw new Error(`not the exporter: ${request.command}`);
		return request.plan.workers;
	};

	expect(workers({})).toEqual({enabled: true, limit: 1000});
	expect(workers({workerMetricsLimit: 50})).toEqual({enabled: true, limit: 50});
	expect(workers({workerMetrics: false})).toEqual({enabled: false, limit: 1000});
	for (const limit of [0, -3, 2.5])
		expect(() => command({workerMetricsLimit: limit})).toThrow(
			new UsageError(`--worker-metrics-limit takes a whole number of workers, at least 1 (--no-worker-metrics: none), not ${limit}`),
		);
	expect(() => command({workerMetrics: false, workerMetricsLimit: 5})).toThrow(/give it or --worker-metrics-limit, not both/);
	expect(() => command({workerMetrics: false}, ['127.0.0.1:3333'])).toThrow(
		new UsageError('--no-worker-metrics goes with rigtop exporter'),
	);
	expect(() => command({workerMetricsLimit: 5}, ['127.0.0.1:3333'])).toThrow(
		new UsageError('--worker-metrics-limit goes with rigtop exporter'),
	);
});
