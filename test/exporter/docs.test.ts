/**
 * docs/prometheus/ as users copy it: the scrape config passes `promtool check config` (file-based discovery files
 * included), the alert rules pass their unit tests (`promtool test rules`), and the rules, the dashboard and the
 * reference name only metrics the exporter serves. test/e2e/exporter-prometheus.test.ts runs them in a real Prometheus.
 */
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {parse} from 'yaml';
import {allFamilies} from '../../source/exporter/families.js';
import {readWebConfig} from '../../source/exporter/web-config.js';
import {promqlMetricNames, promtool} from './helpers/prometheus.js';
import {HTPASSWD_HASH, makeCertificate} from './helpers/web.js';

const docs = path.resolve('docs/prometheus');
const read = (name: string) => readFileSync(path.join(docs, name), 'utf8');

/** The sample names the exporter can serve, plus Prometheus's own `up`. */
const served = new Set([...allFamilies.map((family) => family.sample), 'up']);

/**
 * node_exporter's series the docs join with (its hwmon and rapl collectors: collector/hwmon_linux.go names a temperature
 * `node_hwmon_temp_celsius{chip,sensor}`, the chip's driver `node_hwmon_chip_names{chip,chip_name}`, a sensor's name
 * `node_hwmon_sensor_label{chip,sensor,label}`; collector/rapl_linux.go a package's energy
 * `node_rapl_package_joules_total{index,path}`). Only these, and only joined on the `host` both jobs get.
 */
const nodeExporter = new Set([
	'node_hwmon_temp_celsius',
	'node_hwmon_chip_names',
	'node_hwmon_sensor_label',
	'node_rapl_package_joules_total',
]);

type Datasource = {type: string; uid: string};
type Panel = {title: string; datasource?: Datasource; targets?: {expr: string; datasource?: Datasource}[]};
type Variable = {name: string; type: string; query: string | {query: string}; datasource?: Datasource; allValue?: string};
type Dashboard = {panels: Panel[]; templating: {list: Variable[]}};

const dashboard = (): Dashboard => JSON.parse(read('grafana-dashboard.json')) as Dashboard;
const dashboardPanels = (): Panel[] => dashboard().panels;

describe('docs/prometheus', () => {
	it('prometheus.yml passes promtool check config (rule files and file_sd targets included)', async () => {
		const result = await promtool(['check', 'config', path.join(docs, 'prometheus.yml')]);
		expect(result.stdout + result.stderr).toContain('SUCCESS: 17 rules found');
		expect(result.stdout + result.stderr).toContain('SUCCESS: 4 rules found');
		expect(result.code).toBe(0);
	});

	it('node-exporter.yml passes its unit tests (promtool test rules node-exporter.test.yml), and names only known series', async () => {
		const result = await promtool(['test', 'rules', path.join(docs, 'node-exporter.test.yml')]);
		expect(result.stdout + result.stderr).toContain('SUCCESS');
		expect(result.code).toBe(0);
		const rules = (parse(read('node-exporter.yml')) as {groups: Array<{rules: Array<{record: string; expr: string}>}>}).groups.flatMap(
			(group) => group.rules,
		);
		expect(rules.map((rule) => rule.record)).toEqual([
			'host:node_rapl_package_watts:sum_rate2m',
			'host:xmrig_hashrate_hashes_per_second:sum',
			'host:xmrig_hashes_per_watt:ratio',
			'host:node_cpu_temperature_celsius:max',
		]);
		const recorded = new Set(rules.map((rule) => rule.record));
		const names = rules.flatMap((rule) => promqlMetricNames(rule.expr));
		expect(names.filter((name) => !served.has(name) && !nodeExporter.has(name) && !recorded.has(name))).toEqual([]);
		expect(names).toEqual(
			expect.arrayContaining(['node_rapl_package_joules_total', 'node_hwmon_temp_celsius', 'xmrig_hashrate_hashes_per_second']),
		);
		// Every rule keeps or aggregates to `host`, the label the join is on.
		for (const rule of rules) expect(rule.expr, rule.record).toMatch(/by \(host\)|on \(host\)/);
		// prometheus.yml gives that label to the rigtop-fleet and node jobs alike.
		const config = parse(read('prometheus.yml')) as {
			scrape_configs: Array<{job_name: string; relabel_configs?: Array<{source_labels: string[]; regex: string; target_label: string}>}>;
		};
		for (const job of ['rigtop-fleet', 'node']) {
			expect(config.scrape_configs.find((entry) => entry.job_name === job)?.relabel_configs, job).toEqual([
				{source_labels: ['__address__'], regex: String.raw`(.+):\d+`, target_label: 'host'},
			]);
		}
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
			'XmrigProxyDown',
			'XmrigProxyNoUpstream',
			'XmrigProxyUpstreamErrors',
			'XmrigProxyRejectRateHigh',
			'XmrigProxyWorkerQuiet',
			'XmrigProxyWorkerDisconnected',
		]) {
			expect(rules).toContain(`alert: ${alert}`);
			expect(tests).toContain(`alertname: ${alert}`);
		}
	});

	it('the rules and every dashboard query name only metrics the exporter serves', () => {
		const rules = (
			parse(read('alerts.yml')) as {groups: Array<{rules: Array<{record?: string; alert?: string; expr: string}>}>}
		).groups.flatMap((group) => group.rules);
		const exprs = rules.map((rule) => rule.expr);
		const panels = dashboardPanels();
		expect(panels.length).toBeGreaterThan(10);
		for (const panel of panels) {
			expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
			exprs.push(...(panel.targets ?? []).map((target) => target.expr));
		}

		// The recording rules' own names are Prometheus's, not the exporter's.
		const recorded = new Set(rules.flatMap((rule) => (rule.record === undefined ? [] : [rule.record])));
		expect(recorded.size).toBe(4);
		const unknown = exprs.flatMap(promqlMetricNames).filter((name) => !served.has(name) && !recorded.has(name) && !nodeExporter.has(name));
		expect(unknown).toEqual([]);
		// node_exporter's series only in the panels that join them with the rig's own, on `host`.
		for (const panel of panels) {
			for (const target of panel.targets ?? []) {
				if (promqlMetricNames(target.expr).some((name) => nodeExporter.has(name))) expect(target.expr, panel.title).toMatch(/on \(host\)/);
			}
		}
		for (const name of [
			'xmrig_proxy_upstreams',
			'xmrig_proxy_worker_last_share_timestamp_seconds',
			'xmrig_proxy_worker_hashrate_hashes_per_second',
		])
			expect(exprs.flatMap(promqlMetricNames)).toContain(name);
		expect(exprs.flatMap(promqlMetricNames)).toContain('xmrig_hashrate_hashes_per_second');
	});

	it('the dashboard provisions from a file: a datasource variable, no import-time inputs, job and instance variables', () => {
		const text = read('grafana-dashboard.json');
		expect(text).not.toContain('__inputs');
		expect(text).not.toContain('${DS_');
		expect(text).not.toMatch(/job=~\\?"rigtop/);

		const {panels, templating} = dashboard();
		const variables = new Map(templating.list.map((variable) => [variable.name, variable]));
		expect([...variables.keys()]).toEqual(['datasource', 'job', 'instance', 'miner']);
		expect(variables.get('datasource')).toMatchObject({type: 'datasource', query: 'prometheus'});
		const viaVariable = {type: 'prometheus', uid: '${datasource}'};
		for (const name of ['job', 'instance', 'miner']) expect(variables.get(name)?.datasource, name).toEqual(viaVariable);
		// Each variable is narrowed by the ones before it.
		const query = (name: string) => {
			const value = variables.get(name)?.query;
			return typeof value === 'string' ? value : (value?.query ?? '');
		};

		expect(query('job')).toMatch(/^label_values\(xmrig_\w+, job\)$/);
		expect(query('instance')).toMatch(/^label_values\(xmrig_\w+\{job=~"\$job"\}, instance\)$/);
		expect(query('miner')).toMatch(/^label_values\(xmrig_\w+\{job=~"\$job", instance=~"\$instance"\}, miner\)$/);

		for (const panel of panels) {
			expect(panel.datasource, panel.title).toEqual(viaVariable);
			for (const target of panel.targets ?? []) {
				expect(target.datasource, panel.title).toEqual(viaVariable);
				// Every selector of every query takes the job and instance picked; node_exporter's (another job, another port)
				// are narrowed to the hosts of those through the join on `host`.
				const selectors = [...target.expr.matchAll(/([a-zA-Z_:][\w:]*)?(\{[^}]*\})/g)];
				expect(selectors.length, target.expr).toBeGreaterThan(0);
				expect(
					selectors.some(([, name]) => name === undefined || !nodeExporter.has(name)),
					target.expr,
				).toBe(true);
				for (const [, name, selector] of selectors) {
					if (name !== undefined && nodeExporter.has(name)) {
						expect(selector, target.expr).toContain('host!=""');
						continue;
					}

					expect(selector, target.expr).toContain('job=~"$job"');
					expect(selector, target.expr).toContain('instance=~"$instance"');
				}
			}
		}
	});

	it('the dashboard has the hashes per watt and CPU temperature panels, from node_exporter joined on host', () => {
		const panels = dashboardPanels();
		const hw = panels.find((panel) => panel.title.startsWith('Hashes per watt (H/W'));
		const temperature = panels.find((panel) => panel.title.startsWith('CPU temperature'));
		expect(hw?.targets?.map((target) => promqlMetricNames(target.expr).sort())).toEqual([
			['node_rapl_package_joules_total', 'xmrig_hashrate_hashes_per_second'],
		]);
		expect(hw?.targets?.[0]?.expr).toMatch(/\/ on \(host\)/);
		expect(temperature?.targets?.map((target) => promqlMetricNames(target.expr).sort())).toEqual([
			['node_hwmon_chip_names', 'node_hwmon_temp_celsius', 'xmrig_up'],
		]);
		expect(temperature?.targets?.[0]?.expr).toContain('chip_name=~"k10temp|zenpower|coretemp|cpu_thermal"');
		// No two panels overlap on the grid.
		const cells = new Set<string>();
		for (const panel of panels as Array<Panel & {gridPos: {x: number; y: number; w: number; h: number}}>) {
			for (let x = panel.gridPos.x; x < panel.gridPos.x + panel.gridPos.w; x++) {
				for (let y = panel.gridPos.y; y < panel.gridPos.y + panel.gridPos.h; y++) {
					expect(cells.has(`${x},${y}`), panel.title).toBe(false);
					cells.add(`${x},${y}`);
				}
			}
		}
	});

	it('the reference lists every metric family the exporter serves', () => {
		const readme = read('README.md');
		for (const family of allFamilies) expect(readme, family.sample).toContain(`\`${family.sample}\``);
	});

	it("the README's TLS and basic auth set-up works as written: its web.yml is read, its scrape job passes promtool", async () => {
		const section = read('README.md').split('### TLS and basic auth')[1]!;
		const [webYaml, , job] = [...section.matchAll(/```(?:yaml|sh)\n([\s\S]*?)```/g)].map((match) => match[1]!);
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-docs-web-'));
		try {
			makeCertificate(dir, 'rigtop');
			const file = path.join(dir, 'web.yml');
			writeFileSync(file, webYaml!.replace('$2y$10$...', `'${HTPASSWD_HASH}'`));
			const web = await readWebConfig(file);
			expect(web.tls?.minVersion).toBe('TLSv1.2');
			expect(Object.keys(web.users)).toEqual(['prometheus']);
			expect(web.headers).toEqual({'Strict-Transport-Security': 'max-age=31536000'});

			writeFileSync(path.join(dir, 'rigtop.password'), 'correct horse\n');
			const config = `scrape_configs:\n${job!.replaceAll('/etc/prometheus/', `${dir}/`)}`;
			writeFileSync(path.join(dir, 'prometheus.yml'), config);
			const result = await promtool(['check', 'config', path.join(dir, 'prometheus.yml')]);
			expect(result.stdout + result.stderr).toContain('SUCCESS');
			expect(result.code).toBe(0);
		} finally {
			rmSync(dir, {recursive: true, force: true});
		}
	});
});
