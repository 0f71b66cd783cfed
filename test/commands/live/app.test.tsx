import {describe, expect, test, vi} from 'vitest';
import {startLive} from '../../../source/commands/live/app.js';
import type {RunPlan} from '../../../source/commands/command.js';
import {createSession} from '../../../source/session/session.js';
import {startSimulator} from '../../../source/sim/simulator.js';
import {ownedForEachTest} from '../../helpers/owned.js';
import {linesOf, renderTerminal} from '../../ui/helpers/terminal.js';

const plan = {mode: 'live', color: false, readOnly: false, bell: false, onAlert: null, intervalMs: 2000} as unknown as RunPlan;

const own = ownedForEachTest();

describe('start-up warnings on the live screens', () => {
	test("a warning about one miner goes under that miner; one about no miner in particular is the session's, not the first rig's", async () => {
		const process86 = 'process 86 (xmrig -c /gone/config.json) was started with -c /gone/config.json, but /gone/config.json does not exist';
		const twoWays = 'a token was given 2 ways (RIGTOP_TOKEN, --token); using the one from RIGTOP_TOKEN';
		// Nothing listens on these ports: the monitors are not started, only the screens are drawn.
		const session = own(
			createSession(
				[
					{url: 'http://127.0.0.1:18081', token: null, name: 'rig-18081'},
					{url: 'http://127.0.0.1:18086', token: null, name: 'rig-18086', notes: [process86]},
				],
				2000,
			),
		);
		const live = own(startLive(session, plan, [twoWays, process86], () => {}));
		const [first, second] = session.miners;
		expect(first?.monitor.getState().events.map((event) => event.message)).toEqual([]);
		expect(second?.monitor.getState().events.map((event) => event.message)).toEqual([process86]);
		expect(session.notices.getState().map((notice) => notice.message)).toEqual([twoWays]);

		const terminal = await renderTerminal(live.element, {columns: 160, rows: 24});
		await terminal.waitFor('rig-18086 process 86');
		const lines = linesOf(terminal.frame());
		expect(lines.some((line) => /^ \d\d:\d\d rig-18086 process 86 \(xmrig/.test(line))).toBe(true);
		expect(lines.some((line) => /^ \d\d:\d\d rigtop a token was given 2 ways/.test(line))).toBe(true);
		expect(lines.some((line) => line.includes('rig-18081 process 86') || line.includes('rig-18081 a token'))).toBe(false);
	});

	test("with one miner, the session's notices show among its dashboard's events", async () => {
		const twoWays = 'a token was given 2 ways (RIGTOP_TOKEN, --token); using the one from RIGTOP_TOKEN';
		const sim = own(await startSimulator({dialect: '6', warm: true}));
		const session = own(createSession([{url: sim.url, token: null, name: 'solo'}], 2000));
		session.start();
		await session.firstPolls(5000);
		const live = own(startLive(session, plan, [twoWays], () => {}));
		// Not in the miner's own log (its history would store it as the miner's event).
		expect(session.miners[0]?.monitor.getState().events.map((event) => event.message)).not.toContain(twoWays);
		const terminal = await renderTerminal(live.element, {columns: 100, rows: 24});
		await terminal.waitFor('a token was given 2 ways');
	});
});

describe('the config view', () => {
	test('each visit (c) reads the config afresh, once; the view shows what the visit read', async () => {
		// The config API needs a token and restricted mode off.
		const sim = own(await startSimulator({dialect: '6', warm: true, token: 'config-token', restricted: false}));
		const session = own(createSession([{url: sim.url, token: 'config-token', name: 'solo'}], 2000));
		session.start();
		await session.firstPolls(5000);
		const live = own(startLive(session, plan, [], () => {}));
		const reads = () => sim!.requests.filter((request) => request.path === '/1/config').length;
		const terminal = await renderTerminal(live.element, {columns: 100, rows: 24});
		// c is offered once the miner has answered (not while connecting: issue 35's polish).
		await terminal.waitFor(/solo[\s\S]*● live/);
		expect(reads()).toBe(0);
		await terminal.press('c', '▸ cpu');
		expect(reads()).toBe(1);
		await terminal.press('q');
		await vi.waitFor(() => expect(terminal.frame()).not.toContain('▸ cpu'));
		// Meanwhile the config changes on the miner: the next visit reads it again.
		sim.setConfigText(sim.configText().replace('"print-time": 60', '"print-time": 45'));
		await terminal.press('c', '▸ cpu');
		await terminal.press('/print-time\r', /print-time\s+45/);
		expect(reads()).toBe(2);
	});
});

describe("the fleet's batches", () => {
	test('two rigs of one name: the results pane names each as its row does, "twin :PORT", as the question did', async () => {
		const token = 'twin-batch-token-7c';
		const sims = await Promise.all(
			[1, 2].map(async (seed) => own(await startSimulator({dialect: '6', warm: true, token, restricted: false, workerId: 'twin', seed}))),
		);
		const session = own(
			createSession(
				sims.map((sim) => ({url: sim.url, token, name: 'twin'})),
				2000,
			),
		);
		session.start();
		await session.firstPolls(5000);
		const live = own(startLive(session, plan, [], () => {}));
		const ports = sims.map((sim) => new URL(sim.url).port);
		const terminal = await renderTerminal(live.element, {columns: 100, rows: 24});
		await terminal.waitFor(/2 live/);
		await terminal.press('*', '2 marked');
		await terminal.press('p', `pause 2 rigs: twin :${ports[0]}, twin :${ports[1]}`);
		await terminal.press('y', /pause 2 rigs: 2 paused/);
		const lines = linesOf(terminal.frame());
		for (const port of ports) expect(lines.some((line) => new RegExp(`^ ✓ twin :${port} +paused \\(read back\\)`).test(line))).toBe(true);
	});
});
