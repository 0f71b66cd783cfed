/**
 * The fleet config view drawn (ink, a fake terminal) over a real session against simulated miners on loopback (two
 * 6.x, a 2.16 without a cpu section, one stopped) at 80×24 and 200×50: every frame fits, the keys show each rig's
 * values, the diff and the results say what each rig does and did, and every key sent in one chunk is taken.
 */
import path from 'node:path';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {FleetConfigSession} from '../../../../source/batch/fleet-config.js';
import {startSimulator, type Simulator} from '../../../../source/sim/simulator.js';
import {rigReads} from '../../../../source/ui/screens/fleet-config/rigs.js';
import {ADD_HINT, FleetConfigView} from '../../../../source/ui/screens/fleet-config/view.js';
import {tempDir} from '../../../config/helpers/fixtures.js';
import {expectFits, KEYS, linesOf, renderTerminal} from '../../helpers/terminal.js';

const TOKEN = 'fleet-config-view-token-2';
let sims: Simulator[] = [];
let sessions: FleetConfigSession[] = [];
const temps: ReturnType<typeof tempDir>[] = [];

afterEach(async () => {
	for (const session of sessions) session.dispose();
	await Promise.all(sims.map(async (sim) => sim.stop()));
	for (const temp of temps.splice(0)) temp.remove();
	sims = [];
	sessions = [];
});

async function fleet(): Promise<FleetConfigSession> {
	sims = await Promise.all(
		(['6', '6', '2', '6'] as const).map(async (dialect, index) =>
			startSimulator({dialect, token: TOKEN, restricted: false, seed: index, applyDelayMs: 20, workerId: `w-${index}`}),
		),
	);
	await sims[3]!.stop();
	return openSession(['rig-one', 'rig-two', 'rig-old', 'rig-gone']);
}

/** A fleet config session on the simulators, each rig named in turn, with a backup folder of its own; opened. */
function openSession(names: readonly string[]): FleetConfigSession {
	const temp = tempDir('rigtop-fleet-config-view-');
	temps.push(temp);
	const session = new FleetConfigSession({
		rigs: sims.map((sim, index) => ({url: sim.url, token: TOKEN, name: names[index]!})),
		backupDir: path.join(temp.dir, 'backups'),
		addHint: ADD_HINT,
		requestTimeoutMs: 1500,
		verifyIntervalMs: 20,
	});
	sessions.push(session);
	void session.open();
	return session;
}

const rowOf = (frame: string, text: string) => frame.split('\n').find((line) => line.includes(text)) ?? '';

describe.each([
	[80, 24],
	[200, 50],
])('the fleet config view at %i×%i', (columns, rows) => {
	test('keys with each rig’s values, a value typed, each rig’s diff, the apply’s results and its undo, every frame fitting', async () => {
		const session = await fleet();
		let left = 0;
		const terminal = await renderTerminal(
			<FleetConfigView
				session={session}
				caps={{
					back: () => {
						left++;
					},
					quit: () => {},
				}}
			/>,
			{columns, rows},
		);
		await terminal.waitFor(/not read: rig-gone \(down: /);
		expect(terminal.frame()).toMatch(/fleet config · 4 marked rigs/);
		expect(terminal.frame()).toMatch(/3 rigs read · 1 not/);

		await terminal.press('/huge-pages-jit\r', /match 1 of 1/);
		expect(rowOf(terminal.frame(), '› cpu.huge-pages-jit')).toMatch(/false on 2, missing on 1/);
		await terminal.press('\r\u0015true\r', /cpu\.huge-pages-jit → true: changes 2 of 4 rigs · 1 lacks it · 1 unreachable/);
		expect(rowOf(terminal.frame(), 'rig-old')).toMatch(/lacks cpu\.huge-pages-jit/);
		expect(terminal.frame()).toMatch(/y: apply to 2 rigs/);

		await terminal.press('y', /2 applied · 1 failed · 1 unreachable/);
		expect(rowOf(terminal.frame(), 'rig-one')).toMatch(/✓ rig-one +cpu\.huge-pages-jit: false → true \(read back\)/);
		expect(sims.slice(0, 2).map((sim) => sim.configText().includes('"huge-pages-jit": true'))).toEqual([true, true]);

		// Once the batch's undo records are kept, the footer offers u.
		await terminal.waitFor(/u undo/);
		await terminal.press('u', /undo on 2 rigs .*\? y\/n/);
		await terminal.press('y', /undo on 2 rigs: 2 put back/);
		expect(sims.slice(0, 2).map((sim) => sim.configText().includes('"huge-pages-jit": false'))).toEqual([true, true]);

		// Esc closes the results (the rigs are read again), Esc again leaves. The pane says "2 put back" as the batch
		// ends, but the run is done (Esc closes, no longer cancels) only once its undo records are saved: the footer says so.
		await terminal.waitFor(/Esc close/);
		// The undo is spent: the footer offers no second u.
		expect(terminal.frame()).not.toMatch(/u undo/);
		await terminal.press(KEYS.escape, /not read: rig-gone/);
		await terminal.press(KEYS.escape);
		await vi.waitFor(() => {
			expect(left).toBe(1);
		});
		expectFits(terminal, columns, rows);
	});
});

test('40×8: a diff that does not fit keeps "(rigs 1–N of 4)" on its title line, the title cut with "…" before it', async () => {
	const session = await fleet();
	const terminal = await renderTerminal(<FleetConfigView session={session} caps={{back: () => {}, quit: () => {}}} />, {
		columns: 40,
		rows: 8,
	});
	await terminal.waitFor(/not read: rig-gone/);
	await terminal.press('/huge-pages-jit\r', /› cpu\.huge-pages-jit/);
	await terminal.press('\r\u0015true\r', /\(rigs 1–\d of 4\)/);
	expect(linesOf(terminal.frame())[1]).toMatch(/^ cpu\.huge-pages-jit → .*… \(rigs 1–\d of 4\)$/);
	expectFits(terminal, 40, 8);
});

describe('a rig whose config cannot be read', () => {
	/** Two rigs, the second in restricted mode (its config cannot be read), in the view at 80×24. */
	async function openAndShut() {
		sims = await Promise.all([
			startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: 1}),
			startSimulator({dialect: '6', token: TOKEN, restricted: true, seed: 2}),
		]);
		const session = openSession(['rig-open', 'rig-shut']);
		const terminal = await renderTerminal(<FleetConfigView session={session} caps={{back: () => {}, quit: () => {}}} />, {
			columns: 80,
			rows: 24,
		});
		await terminal.waitFor(/not read: rig-shut/);
		return {session, terminal};
	}

	/** The frame's words, each line trimmed and joined: wrapped text reads as one line. */
	const wordsOf = (frame: string) =>
		frame
			.split('\n')
			.map((line) => line.trim())
			.join(' ')
			.replaceAll(/\s+/g, ' ');

	test('80×24: the reason is shown whole, wrapped over the keys, not cut at the edge', async () => {
		// Seen at 80×24: "not read: rig-03 (the miner refused to let rigtop read its config (403) — eith…", the fix cut off.
		const {terminal} = await openAndShut();
		const words = terminal
			.frame()
			.split('\n')
			.map((line) => line.trim())
			.join(' ');
		expect(words).toMatch(/needs http\.restricted false and a token\)/);
		expect(terminal.frame()).not.toMatch(/…/);
		// The keys still start under it, the cursor on the first.
		expect(terminal.frame()).toMatch(/› api\.id/);
		expectFits(terminal, 80, 24);
	});

	test('40×8: the reason cut at its one line ends in "…"; made larger again, it is whole with none', async () => {
		const {terminal} = await openAndShut();
		terminal.resize(40, 8);
		await terminal.waitFor(/^ not read: rig-shut .*…$/m);
		const line = linesOf(terminal.frame()).find((each) => each.startsWith(' not read:')) ?? '';
		expect([...line].length).toBeLessThanOrEqual(40);
		expect(line).toMatch(/^ not read: rig-shut \(.+…$/);
		const frame = linesOf(terminal.frame());
		expect(frame.length).toBeLessThanOrEqual(7);
		for (const each of frame) expect([...each].length).toBeLessThanOrEqual(40);
		terminal.resize(80, 24);
		await terminal.waitFor(/needs http\.restricted false and a token\)/);
		expect(terminal.frame()).not.toMatch(/…/);
	});

	test("80×24: each rig's diff says why a rig is not changed, whole (wrapped under it), not cut at the edge", async () => {
		// Seen at 80×24: "rig-shut  skipped: read-only: the miner's API is restricted: reading its con…", its fix cut off.
		const {session, terminal} = await openAndShut();
		await terminal.press('/huge-pages-jit\r', /match 1 of 1/);
		await terminal.press('\r\u0015true\r', /cpu\.huge-pages-jit → true: changes \d of 2 rigs/);
		const shut = rigReads(session.getState().reads ?? []).find((read) => read.rig.name === 'rig-shut');
		expect(shut?.document).toBeNull();
		const reason = `${shut?.status === 'failed' ? 'failed' : 'skipped'}: ${shut?.reason ?? ''}`;
		expect(reason.length).toBeGreaterThan(80);
		expect(wordsOf(terminal.frame())).toContain(`rig-shut ${reason.replaceAll(/\s+/g, ' ')}`);
		expect(terminal.frame()).not.toMatch(/…/);
		// The other rig's diff and the question are still there, under it.
		expect(rowOf(terminal.frame(), 'rig-open')).toMatch(/cpu\.huge-pages-jit: false → true/);
		expect(terminal.frame()).toMatch(/y: apply to 1 rig/);
		expectFits(terminal, 80, 24);
	});
});
