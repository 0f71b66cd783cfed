/** startDemoProxy: the demo's xmrig-proxy, reachable with the token it hands out. */
import {rm, stat} from 'node:fs/promises';
import {expect, test} from 'vitest';
import {startDemoProxy} from '../../source/session/session.js';

test('starts a warm simulated proxy with a dozen workers behind the token it returns', async () => {
	const {simulator, target, stateDir} = await startDemoProxy();
	try {
		expect(target).toMatchObject({url: simulator.url, name: 'demo-proxy'});
		expect(target.token).toMatch(/^[0-9a-f]{32}$/);
		expect((await fetch(`${target.url}/1/summary`)).status).toBe(401);
		const summary = (await (await fetch(`${target.url}/1/summary`, {headers: {Authorization: `Bearer ${target.token}`}})).json()) as {
			kind: string;
			uptime: number;
			workers: number;
		};
		expect(summary.kind).toBe('proxy');
		expect(summary.uptime).toBeGreaterThan(3 * 86400);
		expect(summary.workers).toBeGreaterThanOrEqual(12);
		expect((await stat(stateDir)).isDirectory()).toBe(true);
	} finally {
		await simulator.stop();
		await rm(stateDir, {recursive: true, force: true});
	}
});
