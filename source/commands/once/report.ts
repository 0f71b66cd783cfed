import type {MinerError} from '../../miner/errors.js';
import {minerProduct} from '../../miner/abilities.js';
import type {MinerSnapshot, ProxyInfo, ProxyRateWindows, ProxyWindowLabel, ThreadInfo} from '../../miner/model.js';
import {nameWithWorker} from '../../monitor/name.js';
import type {SensorReading, TempSensor} from '../../sensors/types.js';
import {padText, textWidth} from '../../text/cells.js';
import {
	anyProxyWindowFilling,
	FILLING_LEGEND,
	formatLastShare,
	formatProxyRejectPercent,
	formatProxyShares,
	formatProxyUpstreams,
	formatProxyWindow,
	formatProxyWindows,
} from '../../miner/format-proxy.js';
import {
	DASH,
	formatBytes,
	formatCelsius,
	formatClockSpeed,
	formatCount,
	formatDuration,
	formatHashesPerWatt,
	formatHashrate,
	formatInteger,
	formatLoad,
	formatPercent,
	formatPing,
	formatRateIn,
	formatWatts,
	pickRateUnit,
	rateDecimals,
} from '../../text/format.js';

export type OnceResult = {
	readonly url: string;
	/** The rig's name (monitor/name.ts, rigName): the rigs file's, else host:port; the text puts the worker id beside it. */
	readonly name: string;
	readonly snapshot: MinerSnapshot | null;
	readonly error: MinerError | null;
};

/** The width the text keeps to (a terminal's default; a part longer than that alone goes on a line of its own). */
const WIDTH = 80;
/** Where a labelled line's values start: "  pool      ". */
const VALUE_COLUMN = 12;

/**
 * A label and its parts on as many lines as keep to WIDTH: the parts separated by `gap`, a part that
 * does not fit going on to the next line, indented by `indent`. No part is cut or lost.
 */
function pack(head: string, parts: readonly string[], indent: number, gap = '  '): string[] {
	const lines: string[] = [];
	let line = head;
	let empty = true;
	for (const part of parts.filter(Boolean)) {
		const next = empty ? `${line}${part}` : `${line}${gap}${part}`;
		if (!empty && next.length > WIDTH) {
			lines.push(line);
			line = ' '.repeat(indent) + part;
		} else line = next;
		empty = false;
	}

	lines.push(line);
	return lines;
}

/** "  pool      a  b  c", continued under the values. */
function labelled(label: string, parts: readonly string[]): string[] {
	return pack(`  ${label.padEnd(VALUE_COLUMN - 2)}`, parts, VALUE_COLUMN);
}

/** A sentence under a label, its words wrapped under the values. */
function sentence(label: string, text: string): string[] {
	return pack(`  ${label.padEnd(VALUE_COLUMN - 2)}`, text.split(' '), VALUE_COLUMN, ' ');
}

/** One snapshot per miner as readable plain text (no colour, no terminal control) within 80 columns, for --once. */
export function formatOnceText(results: readonly OnceResult[], now: number): string {
	return results.map((result) => formatOne(result, now)).join('\n');
}

function formatOne({url, name: rig, snapshot, error}: OnceResult, now: number): string {
	// The rig's name, its worker id beside it once read: "127.0.0.1:18081 (rig-01)".
	const name = nameWithWorker(rig, snapshot?.workerId);
	if (!snapshot) {
		return `${[...pack('', [name, url], 2), ...sentence('error', error ? error.oneLine() : 'no answer')].join('\n')}\n`;
	}

	if (snapshot.proxy) {
		const lines = proxyLines(name, url, snapshot, snapshot.proxy, now);
		if (error) lines.push(...sentence('warning', error.oneLine()));
		return `${lines.join('\n')}\n`;
	}

	const s = snapshot;
	const state = s.paused ? 'paused' : s.connection.connected ? 'mining' : 'no pool';
	const lines = pack('', [name, `XMRig ${s.version ?? '?'}`, s.algo ?? DASH, `up ${formatDuration(s.uptime)}`, state, url], 2);
	const [r10, r60, r15] = s.hashrate.total;
	lines.push(
		...labelled('hashrate', [
			`10s ${formatHashrate(r10)}`,
			`60s ${formatHashrate(r60)}`,
			`15m ${formatHashrate(r15)}`,
			`max ${formatHashrate(s.hashrate.highest)}`,
		]),
	);

	const c = s.connection;
	const poolParts = [
		c.pool ?? DASH,
		c.ip ? `(${c.ip})` : '',
		c.tls ? `TLS ${c.tls}` : '',
		c.connected ? `ping ${formatPing(c.ping)}` : 'not connected',
		`diff ${formatCount(c.diff)}`,
		`up ${formatDuration(c.uptime)}`,
		`failures ${formatInteger(c.failures)}`,
	];
	lines.push(...labelled('pool', poolParts));

	const r = s.results;
	const rejected = `${formatInteger(r.rejected)} rejected (${formatPercent(r.rejected, r.total)})`;
	const average = r.avgTime === null ? DASH : formatDuration(r.avgTime);
	lines.push(
		...labelled('shares', [
			`${formatInteger(r.good)}/${formatInteger(r.total)} good`,
			rejected,
			`avg ${average}`,
			`best ${formatCount(r.best)}`,
		]),
	);

	const cpu = s.cpu;
	const cores = cpu.cores === null && cpu.threads === null ? '' : `${cpu.cores ?? '?'}C/${cpu.threads ?? '?'}T`;
	const hugepages =
		s.hugepages === null
			? DASH
			: s.hugepages.kind === 'flag'
				? s.hugepages.enabled
					? 'on'
					: 'off'
				: `${formatInteger(s.hugepages.allocated)}/${formatInteger(s.hugepages.total)} (${formatPercent(s.hugepages.allocated, s.hugepages.total)})`;
	const systemParts = [cpu.brand ?? 'unknown CPU', cores, `hugepages ${hugepages}`];
	if (s.resources) systemParts.push(`mem ${formatBytes(s.resources.rss)}`, `load ${formatLoad(s.resources.loadAverage)}`);
	lines.push(...labelled('system', systemParts));
	if (s.sensors) lines.push(...sensorLines(s.sensors));

	if (s.threads.length > 0) lines.push(...threadLines(s.threads));
	for (const backend of s.backends) {
		if (backend.type !== 'cpu' && backend.enabled)
			lines.push(...labelled(backend.type, [`${backend.threadCount} threads`, backend.detail ?? '']));
	}

	if (error) lines.push(...sentence('warning', error.oneLine()));
	return `${lines.join('\n')}\n`;
}

/** A sensor as --once says it: "Tctl 71°C (max 95°C)". */
function tempText(temp: TempSensor): string {
	const limit = temp.max === null ? (temp.crit === null ? '' : ` (crit ${formatCelsius(temp.crit)})`) : ` (max ${formatCelsius(temp.max)})`;
	return `${temp.label} ${formatCelsius(temp.celsius)}${limit}`;
}

/** What rigtop read on this machine beside the miner (source/sensors/): temperatures, clock, power, H/W. */
function sensorLines(reading: SensorReading): string[] {
	const lines: string[] = [];
	const temps: string[] = [];
	for (const pkg of new Set(reading.temps.map((temp) => temp.package))) {
		const own = reading.temps.filter((temp) => temp.package === pkg);
		// coretemp's one sensor per core is many on a big CPU: its range says enough here.
		const cores = own.filter((temp) => !temp.headline && temp.source === 'coretemp');
		temps.push(...own.filter((temp) => !cores.includes(temp)).map((temp) => tempText(temp)));
		if (cores.length > 0) {
			const values = cores.map((temp) => temp.celsius);
			temps.push(`cores ${formatCelsius(Math.min(...values))}–${formatCelsius(Math.max(...values))}`);
		}
	}

	if (temps.length > 0) lines.push(...labelled('temp', temps));
	const {clock, throttle} = reading;
	if (clock) {
		const of = clock.maxMHz === null ? '' : ` of ${formatClockSpeed(clock.maxMHz)}`;
		const cpus = `${clock.cpus.length} CPU${clock.cpus.length === 1 ? '' : 's'}`;
		const over = clock.cpusFrom === 'online' ? cpus : `the miner's ${cpus}`;
		const throttled = throttle === null ? '' : throttle.rising ? 'throttling now' : `throttled ${formatInteger(throttle.count)}×`;
		lines.push(...labelled('clock', [`${formatClockSpeed(clock.averageMHz)}${of}`, `over ${over}`, throttled]));
	}

	const power = reading.power;
	if (power.state === 'ok') {
		const packages = power.packages.length > 1 ? power.packages.map((pkg) => `${pkg.name} ${formatWatts(pkg.watts)}`) : [];
		lines.push(...labelled('power', [formatWatts(power.watts), ...packages, formatHashesPerWatt(reading.hashesPerWatt)]));
	} else if (power.state !== 'none') lines.push(...sentence('power', power.message.replace(/^power: /, '')));
	return lines;
}

function threadLines(threads: readonly ThreadInfo[]): string[] {
	const unit = pickRateUnit(threads.flatMap((thread) => thread.hashrate));
	const decimals = rateDecimals(unit);
	const lines = [`  threads   ${threads.length}  (${unit})        10s        60s        15m  affinity`];
	for (const thread of threads) {
		const rates = thread.hashrate.map((rate) => formatRateIn(rate, unit, {decimals}).padStart(10)).join(' ');
		const label = `${thread.backend}#${thread.index}`;
		lines.push(`    ${label.padEnd(14)} ${rates}  ${thread.affinity === null ? DASH : String(thread.affinity)}`);
	}

	return lines;
}

/** An xmrig-proxy: its own state, results and rate windows, then one line per worker. */
function proxyLines(name: string, url: string, s: MinerSnapshot, proxy: ProxyInfo, now: number): string[] {
	const state = s.connection.connected ? 'connected' : 'no upstream';
	const lines = pack('', [name, minerProduct(s), proxy.mode ?? DASH, `up ${formatDuration(s.uptime)}`, state, url], 2);
	const upstreams = proxy.upstreams === null ? `${s.connection.connected ? 'some' : 'none'} active` : formatProxyUpstreams(proxy.upstreams);
	lines.push(...labelled('upstreams', [upstreams]));
	const miners = proxy.miners === null ? DASH : `${formatInteger(proxy.miners.now)} now  ${formatInteger(proxy.miners.max)} max`;
	lines.push(...labelled('miners', [miners, `workers ${formatInteger(proxy.workerCount)}`]));
	const r = proxy.results;
	lines.push(
		...labelled('results', [
			`${formatInteger(r.accepted)} accepted`,
			`${formatInteger(r.rejected)} rejected (${formatProxyRejectPercent(r)})`,
			`${formatInteger(r.invalid)} invalid`,
			`${formatInteger(r.expired)} expired`,
			`avg ${r.avgTime === null ? DASH : formatDuration(r.avgTime)}`,
			`latency ${formatPing(r.latency)}`,
			`best ${formatCount(r.best[0] ?? null)}`,
		]),
	);
	lines.push(...labelled('hashrate', [...formatProxyWindows(proxy.hashrate, s.uptime), `since start ${formatHashrate(proxy.sinceStart)}`]));
	const workers = proxy.workers ?? [];
	const filling =
		anyProxyWindowFilling(proxy.hashrate, s.uptime) || workers.some((worker) => anyProxyWindowFilling(worker.hashrate, s.uptime));
	if (filling) lines.push(`${' '.repeat(VALUE_COLUMN)}${FILLING_LEGEND}`);
	if (proxy.workers === null) {
		lines.push(...labelled('workers', [s.perThreadRead ? 'not listed by the proxy (workers off)' : 'not read']));
		return lines;
	}

	const by = proxy.workersMode === null ? '' : `  by ${proxy.workersMode}`;
	if (workers.length === 0) {
		lines.push(`  workers   0${by}  none connected`);
		return lines;
	}

	lines.push(`  workers   ${formatInteger(workers.length)}${by}`);
	const nameWidth = Math.min(24, Math.max(4, ...workers.map((worker) => textWidth(worker.name))));
	const ipWidth = Math.max(2, ...workers.map((worker) => (worker.ip ?? DASH).length));
	const shares = workers.map((worker) => formatProxyShares(worker));
	const sharesWidth = Math.max('acc/rej/inv'.length, ...shares.map((text) => text.length));
	lines.push(
		`    ${'name'.padEnd(nameWidth)}  ${'ip'.padEnd(ipWidth)}  ${'1m'.padStart(10)}  ${'10m'.padStart(10)}  ${'acc/rej/inv'.padEnd(sharesWidth)}  last share`,
	);
	for (const [index, worker] of workers.entries()) {
		const rates = [0, 1].map((window) => formatProxyWindow(worker.hashrate[window] ?? null, window, s.uptime).padStart(10)).join('  ');
		lines.push(
			`    ${padText(worker.name, nameWidth)}  ${(worker.ip ?? DASH).padEnd(ipWidth)}  ${rates}  ${(shares[index] ?? '').padEnd(sharesWidth)}  ${formatLastShare(worker.lastShareAt, now)}`,
		);
	}

	return lines;
}

/** Rate windows by their names, in H/s: {"1m": 950, "10m": 90, …}. */
function windowsJson(windows: ProxyRateWindows): Record<ProxyWindowLabel, number | null> {
	const [m1, m10, h1, h12, h24] = windows;
	return {'1m': m1, '10m': m10, '1h': h1, '12h': h12, '24h': h24};
}

/** The `proxy` object of `--once --json`: the proxy's numbers (H/s), windows named by label. No password is held here. */
export function proxyJson(snapshot: MinerSnapshot): object | null {
	const proxy = snapshot.proxy;
	if (proxy === null) return null;
	return {
		mode: proxy.mode,
		miners: proxy.miners,
		workerCount: proxy.workerCount,
		upstreams: proxy.upstreams,
		results: proxy.results,
		hashrate: windowsJson(proxy.hashrate),
		sinceStart: proxy.sinceStart,
		workersMode: proxy.workersMode,
		workers: proxy.workers?.map((worker) => ({...worker, hashrate: windowsJson(worker.hashrate)})) ?? null,
	};
}
