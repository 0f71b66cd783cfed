import type {MinerError} from '../miner/errors.js';
import type {MinerSnapshot, ThreadInfo} from '../miner/model.js';
import {
	DASH,
	formatBytes,
	formatCount,
	formatDuration,
	formatHashrate,
	formatInteger,
	formatLoad,
	formatPercent,
	formatPing,
	formatRateIn,
	pickRateUnit,
	rateDecimals,
} from '../format.js';

export type OnceResult = {
	readonly url: string;
	readonly name: string;
	readonly snapshot: MinerSnapshot | null;
	readonly error: MinerError | null;
};

/** One snapshot per miner as readable plain text (no colour, no terminal control), for --once. */
export function formatOnceText(results: readonly OnceResult[], _now: number): string {
	return results.map((result) => formatOne(result)).join('\n');
}

function formatOne({url, name, snapshot, error}: OnceResult): string {
	if (!snapshot) {
		return `${name}  ${url}\n  error     ${error ? error.oneLine() : 'no answer'}\n`;
	}

	const s = snapshot;
	const state = s.paused ? 'paused' : s.connection.connected ? 'mining' : 'no pool';
	const lines = [`${name}  XMRig ${s.version ?? '?'}  ${s.algo ?? DASH}  up ${formatDuration(s.uptime)}  ${state}  ${url}`];
	const [r10, r60, r15] = s.hashrate.total;
	lines.push(
		`  hashrate  10s ${formatHashrate(r10)}  60s ${formatHashrate(r60)}  15m ${formatHashrate(r15)}  max ${formatHashrate(s.hashrate.highest)}`,
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
	lines.push(`  pool      ${poolParts.filter(Boolean).join('  ')}`);

	const r = s.results;
	const rejected = `${formatInteger(r.rejected)} rejected (${formatPercent(r.rejected, r.total)})`;
	const average = r.avgTime === null ? DASH : formatDuration(r.avgTime);
	lines.push(
		`  shares    ${formatInteger(r.good)}/${formatInteger(r.total)} good  ${rejected}  avg ${average}  best ${formatCount(r.best)}`,
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
	lines.push(`  system    ${systemParts.filter(Boolean).join('  ')}`);

	if (s.threads.length > 0) lines.push(...threadLines(s.threads));
	for (const backend of s.backends) {
		if (backend.type !== 'cpu' && backend.enabled)
			lines.push(`  ${backend.type.padEnd(9)} ${backend.threadCount} threads  ${backend.detail ?? ''}`.trimEnd());
	}

	if (error) lines.push(`  warning   ${error.oneLine()}`);
	return `${lines.join('\n')}\n`;
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
