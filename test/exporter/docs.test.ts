/**
 * docs/prometheus/ as users copy it: the scrape config passes `promtool check config` (file-based discovery files
 * included), the alert rules pass their unit tests (`promtool test rules`), and the rules, the dashboard and the
 * reference name only metrics the exporter serves. test/e2e/exporter-prometheus.test.ts runs them in a real Prometheus.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {allFamilies} from '../../source/exporter/families.js';
import {promtool} from './helpers/prometheus.js';

const docs = path.resolve('docs/prometheus');
const read = (name: string) => readFileSync(path.join(docs, name), 'utf8');

/** The sample names the exporter can serve, plus Prometheus's own `up`. */
const served = new Set([...allFamilies.map((family) => family.sample), 'up']);

/** Metric names in a PromQL expression (identifiers followed by `{`, `[`, a space or the end, not functions or keywords). */
function metricNames(expr: string): string[] {
	const names = expr.match(/\b(?:xmrig|process|up)\w*(?=\s*[{[)\s]|$)/g) ?? [];
	return names.filter((name) => name !== 'up' || /\bup\{/.test(expr));
}

type Panel = {title: string; targets?: {expr: string}[]};

function dashboardPanels(): Panel[] {
	return (JSON.parse(read('grafana-dashboard.json')) as {panels: Panel[]}).panels;
}

describe('docs/prometheus', () => {
	it('prometheus.yml passes promtool check config (rule files and file_sd targets included)', async () => {
		const result = await promtool(['check', 'config', path.join(docs, 'prometheus.yml')]);
		expect(result.stdout + result.stderr).toContain('SUCCESS: 7 rules found');
		expect(result.code).toBe(0);
	});

	it('alerts.yml passes its unit tests (promtool test rules alerts.test.yml)', async () => {
		const result = await promtool(['test', 'rules', path.join(docs, 'alerts.test.yml')]);
		expect(result.stdout + result.stderr).toContain('SUCCESS');
		expect(result.code).toBe(0);
	});

	it('every alert the issue asks for is there, each with a test', () => {
		const rules = read('alerts.yml');
		const tests = read('alerts.test.yml');
		for (const alert of [
			'XmrigMinerDown',
			'XmrigHashrateLow',
			'XmrigRejectRateHigh',
			'XmrigPoolDisconnected',
			'XmrigPausedTooLong',
			'XmrigHugePagesMissing',
		]) {
			expect(rules).toContain(`alert: ${alert}`);
			expect(tests).toContain(`alertname: ${alert}`);
		}
	});

	it('the rules and every dashboard query name only metrics the exporter serves', () => {
		const exprs = [...read('alerts.yml').matchAll(/expr: (?:\|\n)?([\s\S]*?)\n\s+(?:for|labels):/g)].map((match) => match[1]!);
		const panels = dashboardPanels();
		expect(panels.length).toBeGreaterThan(10);
		for (const panel of panels) {
			expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
			exprs.push(...(panel.targets ?? []).map((target) => target.expr));
		}

		const unknown = exprs.flatMap(metricNames).filter((name) => !served.has(name));
		expect(unknown).toEqual([]);
		expect(exprs.flatMap(metricNames)).toContain('xmrig_hashrate_hashes_per_second');
	});

	it('the reference lists every metric family the exporter serves', () => {
		const readme = read('README.md');
		for (const family of allFamilies) expect(readme, family.sample).toContain(`\`${family.sample}\``);
	});
});
