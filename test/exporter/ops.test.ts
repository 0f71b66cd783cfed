/**
 * What a service manager and an operator see of the exporter besides /metrics: /-/healthy and /-/ready as Prometheus's
 * own components answer them, and the landing page with the version. Real simulated miners behind a real session.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {createSession, type Session, type SessionTarget} from '../../source/cli/session.js';
import {serveSessionMetrics, type ServedMetrics} from '../../source/exporter/serve.js';
import {startSimulator} from '../../source/sim/simulator.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function exporterOf(targets: readonly SessionTarget[]): Promise<{session: Session; served: ServedMetrics}> {
	const session = createSession(targets, 500);
	const served = await serveSessionMetrics(
		session,
		{listen: '127.0.0.1:0', flag: '--listen', tokenFile: undefined, version: '1.2.3-test'},
		() => undefined,
	);
	cleanups.push(async () => {
		await served.close();
		await session.close();
	});
	return {session, served};
}

async function get(url: string, method = 'GET'): Promise<{status: number; text: string; type: string | null}> {
	const response = await fetch(url, {method});
	return {status: response.status, text: await response.text(), type: response.headers.get('content-type')};
}

describe('the exporter as a service', () => {
	it('/-/healthy is 200 at once; /-/ready is 503 until every miner has had its first poll, then 200', async () => {
		const sim = await startSimulator({dialect: '6', warm: true});
		cleanups.push(async () => sim.stop());
		const {session, served} = await exporterOf([{url: sim.url, token: null}]);
		const base = served.url.replace(/\/metrics$/, '');

		expect(await get(`${base}/-/healthy`)).toMatchObject({status: 200, text: 'rigtop exporter is Healthy.\n'});
		expect((await get(`${base}/-/healthy`, 'HEAD')).status).toBe(200);
		// Not started: no poll yet.
		const before = await get(`${base}/-/ready`);
		expect(before.status).toBe(503);
		expect(before.text).toMatch(/first poll/);

		session.start();
		await session.firstPolls(10_000);
		expect(await get(`${base}/-/ready`)).toMatchObject({status: 200, text: 'rigtop exporter is Ready.\n'});
	});

	it('a miner that cannot be read still counts as polled: ready once its first poll failed', async () => {
		const {session, served} = await exporterOf([{url: '127.0.0.1:9', token: null}]);
		const base = served.url.replace(/\/metrics$/, '');
		expect((await get(`${base}/-/ready`)).status).toBe(503);
		session.start();
		await session.firstPolls(10_000);
		expect((await get(`${base}/-/ready`)).status).toBe(200);
	});

	it('the landing page names rigtop and its version and links /metrics and the health endpoints', async () => {
		const {served} = await exporterOf([{url: '127.0.0.1:9', token: null}]);
		const page = await get(served.url.replace(/\/metrics$/, '/'));
		expect(page.status).toBe(200);
		expect(page.type).toMatch(/^text\/html/);
		expect(page.text).toContain('<h1>rigtop exporter 1.2.3-test</h1>');
		for (const link of ['/metrics', '/-/healthy', '/-/ready']) expect(page.text).toContain(`href="${link}"`);
	});
});
