/**
 * The proxy's own state, over its workers' table and under the title bar every screen has, as lines of toned parts
 * packed to the width: its upstreams (an upstream in error in the theme's error colour and in words), miners and workers, results with the
 * reject rate, and its rates over its five windows with its average since start, in H/s (a window longer than its uptime marked as
 * filling, as `--once` marks it). Pure: the view draws these lines, the layout counts them.
 */
import {DASH, formatCount, formatDuration, formatHashrate, formatInteger, formatPing} from '../../../text/format.js';
import {anyProxyWindowFilling, FILLING_LEGEND, formatProxyRejectPercent, formatProxyWindows} from '../../../miner/format-proxy.js';
import type {MinerSnapshot, ProxyInfo} from '../../../miner/model.js';
import type {ThemeToken} from '../../text/theme.js';
import {textWidth} from '../../../text/cells.js';

export type Part = {readonly text: string; readonly tone?: ThemeToken; readonly bold?: boolean};
export type SummaryLine = readonly Part[];

/** The labels' column: "upstreams " and the values after it. */
const LABEL_WIDTH = 10;

/** Atoms after a label, packed into lines of `width` (two spaces between atoms; a continuation indented under the values). */
function labelled(label: string, atoms: readonly Part[], width: number): SummaryLine[] {
	const lines: Part[][] = [];
	let line: Part[] = [{text: label.padEnd(LABEL_WIDTH), tone: 'muted'}];
	let used = LABEL_WIDTH;
	let first = true;
	for (const atom of atoms) {
		const needs = (first ? 0 : 2) + textWidth(atom.text);
		if (!first && used + needs > width) {
			lines.push(line);
			line = [{text: ' '.repeat(LABEL_WIDTH)}];
			used = LABEL_WIDTH;
			first = true;
		}

		if (!first) line.push({text: '  '});
		line.push(atom);
		used += (first ? 0 : 2) + textWidth(atom.text);
		first = false;
	}

	lines.push(line);
	return lines;
}

/** The upstreams in words: "1 active  0 sleep  1 error  of 2", the error count in the error colour and said ("in error"). */
function upstreamParts(proxy: ProxyInfo, snapshot: MinerSnapshot): Part[] {
	const up = proxy.upstreams;
	if (up === null) return [{text: `${snapshot.connection.connected ? 'some' : 'none'} active`}];
	const parts: Part[] = [{text: `${formatInteger(up.active)} active`}, {text: `${formatInteger(up.sleep)} sleep`}];
	parts.push(up.error > 0 ? {text: `${formatInteger(up.error)} in error`, tone: 'error', bold: true} : {text: '0 error'});
	parts.push({text: `of ${formatInteger(up.total)}`});
	if (up.active === 0) parts.push({text: 'no upstream active', tone: 'error', bold: true});
	return parts;
}

/** The lines of the proxy's state at this width, under its title bar (who it is and its state: panes/header.tsx). */
export function summaryLines(proxy: ProxyInfo, snapshot: MinerSnapshot, width: number): SummaryLine[] {
	const miners = proxy.miners === null ? DASH : `${formatInteger(proxy.miners.now)} now  ${formatInteger(proxy.miners.max)} max`;
	const r = proxy.results;
	const results: Part[] = [
		{text: `${formatInteger(r.accepted)} accepted`},
		{text: `${formatInteger(r.rejected)} rejected (${formatProxyRejectPercent(r)})`, ...(r.rejected > 0 ? {tone: 'warn' as const} : {})},
		{text: `${formatInteger(r.invalid)} invalid`},
		{text: `${formatInteger(r.expired)} expired`},
		{text: `avg ${r.avgTime === null ? DASH : formatDuration(r.avgTime)}`},
		{text: `latency ${formatPing(r.latency)}`},
		{text: `best ${formatCount(r.best[0] ?? null)}`},
	];
	const rates: Part[] = [
		...formatProxyWindows(proxy.hashrate, snapshot.uptime).map((text) => ({text})),
		{text: `since start ${formatHashrate(proxy.sinceStart)}`},
	];
	const lines: SummaryLine[] = [
		...labelled('upstreams', upstreamParts(proxy, snapshot), width),
		...labelled('miners', [{text: miners}, {text: `workers ${formatInteger(proxy.workerCount)}`}], width),
		...labelled('results', results, width),
		...labelled('hashrate', rates, width),
	];
	const workers = proxy.workers ?? [];
	const filling =
		anyProxyWindowFilling(proxy.hashrate, snapshot.uptime) ||
		workers.some((worker) => anyProxyWindowFilling(worker.hashrate, snapshot.uptime));
	if (filling) lines.push([{text: ' '.repeat(LABEL_WIDTH)}, {text: FILLING_LEGEND, tone: 'muted'}]);
	return lines;
}
