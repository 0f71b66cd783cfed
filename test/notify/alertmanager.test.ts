import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseChannel} from '../../source/notify/channels/parse.js';
import type {Notice, NoticeRig} from '../../source/notify/types.js';
import {eventually, freePort} from '../exporter/helpers/prometheus.js';

/**
 * rigtop's troubles pushed to the REAL Alertmanager (Debian's prometheus-alertmanager, which .ci/run installs),
 * started here on a free loopback port with a temporary config and storage, no cluster: the alert is seen firing
 * through Alertmanager's own API with rigtop's labels, and its webhook receiver is told; then, posted with endsAt,
 * it leaves the API's active alerts and the receiver is told "resolved". A missing binary fails the test, saying how to
 * install it: it never skips.
 */

const BINARY = ['/usr/bin/prometheus-alertmanager', '/usr/local/bin/alertmanager', '/usr/bin/alertmanager'].find((file) =>
	existsSync(file),
);

type Hooked = {status: string; alerts: Array<{status: string; labels: Record<string, string>; endsAt: string}>};

let dir: string;
let child: ChildProcess | undefined;
let output = '';
let amUrl = '';
let receiver: http.Server;
const hooked: Hooked[] = [];

beforeAll(async () => {
	if (BINARY === undefined)
		throw new Error(
			"prometheus-alertmanager is not installed: the notifications' tests run the real Alertmanager. Install Debian's package: apt-get install --no-install-recommends prometheus-alertmanager (.ci/run does)",
		);
	receiver = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			hooked.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Hooked);
			response.end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const hookPort = (receiver.address() as AddressInfo).port;
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-alertmanager-'));
	writeFileSync(
		path.join(dir, 'alertmanager.yml'),
		[
			'route:',
			'  receiver: hook',
			"  group_by: ['alertname', 'rig']",
			'  group_wait: 1s',
			'  group_interval: 1s',
			'  repeat_interval: 1h',
			'receivers:',
			'  - name: hook',
			'    webhook_configs:',
			`      - url: http://127.0.0.1:${hookPort}/hook`,
			'        send_resolved: true',
			'',
		].join('\n'),
	);
	const port = await freePort();
	amUrl = `http://127.0.0.1:${port}`;
	child = spawn(
		BINARY,
		[
			`--config.file=${path.join(dir, 'alertmanager.yml')}`,
			`--storage.path=${path.join(dir, 'data')}`,
			`--web.listen-address=127.0.0.1:${port}`,
			'--cluster.listen-address=',
			'--log.level=warn',
		],
		{stdio: ['ignore', 'pipe', 'pipe'], cwd: dir},
	);
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await eventually(
		async () => {
			if (child?.exitCode !== null) throw new Error(`alertmanager exited (${child?.exitCode}) at start:\n${output}`);
			const ready = await fetch(`${amUrl}/-/ready`).then(
				(response) => response.ok,
				() => false,
			);
			return ready ? true : undefined;
		},
		20_000,
		'alertmanager to be ready',
	);
}, 30_000);

afterAll(async () => {
	if (child && child.exitCode === null && child.signalCode === null) {
		const exited = new Promise<void>((resolve) => child?.once('exit', () => resolve()));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child?.kill('SIGKILL'), 5000);
		await exited;
		clearTimeout(timer);
	}
	if (dir) rmSync(dir, {recursive: true, force: true});
	receiver?.closeAllConnections();
	await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

type ApiAlert = {
	labels: Record<string, string>;
	annotations: Record<string, string>;
	startsAt: string;
	endsAt: string;
	status: {state: string};
};

async function activeAlerts(): Promise<ApiAlert[]> {
	const response = await fetch(`${amUrl}/api/v2/alerts?active=true&silenced=true&inhibited=true`);
	expect(response.status).toBe(200);
	return (await response.json()) as ApiAlert[];
}

function notice(kind: Notice['kind'], rigs: readonly NoticeRig[], at: number): Notice {
	return {
		key: `am-${kind}`,
		kind,
		trouble: 'down',
		severity: kind === 'resolved' ? 'info' : 'error',
		priority: kind === 'resolved' ? 'low' : 'high',
		title: kind === 'resolved' ? '2 rigs back up' : '2 rigs down: rig-03, proxy-1',
		body: '',
		rigs,
		at,
	};
}

describe('a real Alertmanager', () => {
	it("shows rigtop's alert firing with its labels, then resolved", async () => {
		const channel = parseChannel(`${amUrl}/api/v2/alerts`);
		expect(channel.service).toBe('alertmanager');
		const since = Date.now() - 60_000;
		const rigs: NoticeRig[] = [
			{rig: 'rig-03', url: 'http://10.0.0.3:8080', since, message: 'down: connection refused'},
			{rig: 'proxy-1', url: 'http://10.0.0.9:3344', worker: 'w-07', since, message: 'worker gone'},
		];
		expect(await channel.send(notice('trouble', rigs, Date.now()), AbortSignal.timeout(10_000))).toMatchObject({ok: true, status: 200});

		const firing = await eventually(
			async () => {
				const alerts = (await activeAlerts()).filter((alert) => alert.labels.alertname === 'down');
				return alerts.length === 2 ? alerts : undefined;
			},
			15_000,
			'the two alerts to be active',
		);
		const byRig = Object.fromEntries(firing.map((alert) => [alert.labels.rig, alert]));
		expect(byRig['rig-03']?.labels).toEqual({alertname: 'down', rig: 'rig-03', instance: '10.0.0.3:8080', severity: 'critical'});
		expect(byRig['proxy-1']?.labels).toEqual({
			alertname: 'down',
			rig: 'proxy-1',
			instance: '10.0.0.9:3344',
			severity: 'critical',
			worker: 'w-07',
		});
		expect(byRig['rig-03']?.annotations.summary).toBe('rig-03: down: connection refused');
		expect(byRig['rig-03']?.status.state).toBe('active');
		expect(Date.parse(byRig['rig-03']?.startsAt ?? '')).toBe(since);
		await eventually(
			async () =>
				hooked.some((message) => message.status === 'firing' && message.alerts.some((alert) => alert.labels.rig === 'rig-03'))
					? true
					: undefined,
			15_000,
			'the receiver to be told of the firing alert',
		);

		// A refresh keeps them firing (Alertmanager would resolve them by itself after resolve_timeout).
		expect(await channel.refresh?.(rigs, AbortSignal.timeout(10_000))).toMatchObject({ok: true, status: 200});
		expect((await activeAlerts()).filter((alert) => alert.labels.alertname === 'down')).toHaveLength(2);

		const until = Date.now();
		const resolved = rigs.map((rig) => ({...rig, until}));
		expect(await channel.send(notice('resolved', resolved, until), AbortSignal.timeout(10_000))).toMatchObject({ok: true, status: 200});
		await eventually(
			async () => ((await activeAlerts()).some((alert) => alert.labels.alertname === 'down') ? undefined : true),
			15_000,
			'the alerts to leave the active ones',
		);
		const told = await eventually(
			async () => hooked.find((message) => message.status === 'resolved' && message.alerts.some((alert) => alert.labels.rig === 'rig-03')),
			15_000,
			'the receiver to be told "resolved"',
		);
		const alert = told.alerts.find((each) => each.labels.rig === 'rig-03');
		expect(alert?.status).toBe('resolved');
		expect(Date.parse(alert?.endsAt ?? '')).toBe(until);
	}, 60_000);
});
