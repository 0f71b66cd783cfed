/**
 * The live screens on an xmrig-proxy: `c` opens its config view in the proxy's words, and what an apply says goes into
 * the proxy's events in the proxy's words too, where the proxy screen shows it under its workers.
 */
import {describe, expect, test} from 'vitest';
import {startLive} from '../../../source/commands/live/app.js';
import type {RunPlan} from '../../../source/commands/command.js';
import {createSession} from '../../../source/session/session.js';
import {startSimulator} from '../../../source/sim/simulator.js';
import {ownedForEachTest} from '../../helpers/owned.js';
import {linesOf, renderTerminal} from '../../ui/helpers/terminal.js';

const plan = {mode: 'live', color: false, readOnly: false, bell: false, onAlert: null, intervalMs: 2000} as unknown as RunPlan;

const own = ownedForEachTest();

describe("an xmrig-proxy's config view, live", () => {
	test("c: the view reads from the proxy; a conflict's event says the proxy's config changed, on the proxy screen", async () => {
		const sim = own(
			await startSimulator({kind: 'proxy', warm: true, token: 'proxy-token', restricted: false, workers: 3, lifeEvents: false}),
		);
		const session = own(createSession([{url: sim.url, token: 'proxy-token', name: 'px'}], 2000));
		session.start();
		await session.firstPolls(5000);
		const live = own(startLive(session, plan, [], () => {}));
		const terminal = await renderTerminal(live.element, {columns: 160, rows: 40});
		await terminal.waitFor('worker listed');
		await terminal.press('c', /read from proxy \d\d:\d\d/);
		await terminal.press('/background\r', /background\s+false/);
		await terminal.press(' ', '(was false)');
		// Someone else changes the proxy's config meanwhile: the apply finds the conflict and sends nothing.
		sim.setConfigText(sim.configText().replace('"retries": 2', '"retries": 3'));
		await terminal.press('w', 'Apply 1 change');
		await terminal.press('y', /conflict/);
		const messages = session.miners[0]!.monitor.getState().events.map((event) => event.message);
		expect(messages.some((message) => message.startsWith("config apply: the proxy's config changed since rigtop read it"))).toBe(true);
		expect(messages.join('\n')).not.toContain('miner');
		// Back on the proxy screen, the event is in the lines its three workers leave.
		await terminal.press('q', 'Leave with 1 pending change?');
		await terminal.press('y', 'worker listed');
		const lines = linesOf(terminal.frame());
		expect(lines.some((line) => /^ \d\d:\d\d config apply: the proxy's config changed since rigtop read it/.test(line))).toBe(true);
	});
});
