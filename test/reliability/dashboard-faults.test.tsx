/**
 * The real dashboard (App → Dashboard, Ink) on a real Monitor polling a fault server on loopback: during a fault the
 * frame shows the state word and keeps the last values; it never throws; when the fault ends it shows live again.
 */
import {describe, expect, it, type TestContext} from 'vitest';
import {App} from '../../source/ui/app.js';
import {startFaultServer, type FaultMode} from '../helpers/fault-server.js';
import {renderTerminal} from '../ui/helpers/terminal.js';
import {TOKEN, watch} from './helpers/watch.js';

/** The recorded 6.26 miner had no pool: its healthy header word is "no pool" (the link itself is live). */
const healthyWord = /\bno pool · (just now|\d+s ago)/;

type Case = {readonly mode: FaultMode; readonly word: RegExp; readonly says: RegExp};

const cases: readonly Case[] = [
	{mode: 'refused', word: /\b(stale|down)\b/, says: /connection refused|stale/},
	{mode: 'no-answer', word: /\b(stale|down)\b/, says: /timed out|stale/},
	{mode: 'html', word: /\berror\b/, says: /an HTML page, not XMRig's API/},
	{mode: 'split-403', word: /\berror\b/, says: /HTTP 403/},
	{mode: 'huge', word: /\berror\b/, says: /larger than 1 MiB/},
	{mode: 'impostor', word: /\berror\b/, says: /the answer from \/1\/summary/},
];

async function dashboardOn(context: TestContext) {
	const server = await startFaultServer({token: TOKEN, workerId: 'dash-fault-rig', hashrate: [4321, 4300, null]});
	const w = watch(server);
	context.onTestFinished(async () => {
		await w.stop();
		await server.close();
	});
	const terminal = await renderTerminal(<App miners={[{store: w.monitor}]} onQuit={() => undefined} color={false} />, {
		columns: 80,
		rows: 24,
	});
	return {server, w, terminal};
}

describe('the dashboard during a fault', () => {
	for (const fault of cases) {
		it(`${fault.mode}: shows the state and the reason, keeps the last values, then healthy again`, async (context) => {
			const {server, w, terminal} = await dashboardOn(context);
			await terminal.waitFor(healthyWord);
			await terminal.waitFor('dash-fault-rig');
			const liveFrame = terminal.frame();
			expect(liveFrame).toMatch(/4\.3\d? kH\/s/);

			await server.setMode(fault.mode);
			await w.until((state) => state.status !== 'live');
			await terminal.waitFor(fault.word);
			await terminal.waitFor(fault.says);
			const faultFrame = terminal.frame();
			// The last values stay on screen, marked stale, and the frame still fits the terminal. (A long reason may
			// shorten the rig name in the header: "dash-fault-r…".)
			expect(faultFrame).toMatch(/dash-fault-r/);
			expect(faultFrame).toMatch(/Hashrate \(stale\)/);
			expect(faultFrame).toMatch(/4\.3\d? kH\/s/);
			expect(faultFrame.split('\n').length).toBeLessThanOrEqual(24);
			expect(faultFrame).not.toContain(TOKEN);
			expect(faultFrame).not.toMatch(/\n\s+at /);

			await server.setMode('healthy');
			await w.until((state) => state.status === 'live');
			await terminal.waitFor(healthyWord);
			expect(terminal.frame()).not.toMatch(/\b(stale|down|error)\b.*—/);
			expect(terminal.frames.join('')).not.toContain(TOKEN);
		});
	}

	it('a restart on the same port: the new process shows as healthy, the restart is in the events', async (context) => {
		const {server, terminal} = await dashboardOn(context);
		await terminal.waitFor('dash-fault-rig');
		await server.setMode('restart');
		await terminal.waitFor(/restarted/);
		expect(terminal.frame()).toMatch(healthyWord);
	});
});
