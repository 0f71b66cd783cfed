/**
 * The config view in a fake 80×24 terminal, driven by keys, over a real ConfigSession talking to the
 * simulated miner (6.x, token set, restricted off, delayed apply). Every frame is collected: the
 * access token and the pool password never appear in any of them.
 */
import {stripVTControlCharacters} from 'node:util';
import fc from 'fast-check';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {PendingEdits} from '../../../../source/config/edits.js';
import {BUSY_MESSAGE, ConfigSession, STALE_EDITS_MESSAGE, type ConfigStore} from '../../../../source/config/session.js';
import {MinerClient} from '../../../../source/miner/client.js';
import {startSimulator} from '../../../../source/sim/simulator.js';
import {configReducer, initialConfigUi} from '../../../../source/ui/screens/config/reduce.js';
import {ConfigView} from '../../../../source/ui/screens/config/view.js';
import {edit} from '../../../config/helpers/edit.js';
import {tempDir} from '../../../config/helpers/fixtures.js';
import {FAST, NEW_TOKEN, POOL_PASS, TOKEN, useSimulatedMiner} from '../../../config/helpers/sim-miner.js';
import {KEYS, linesOf, renderTerminal, tick, type Terminal} from '../../helpers/terminal.js';

const KEY = {...KEYS, right: '\u001B[C', left: '\u001B[D', enter: '\r', backspace: '\u007F', space: ' '} as const;

const opened: ConfigSession[] = [];
afterEach(() => {
	for (const session of opened.splice(0)) session.dispose();
});

/** No frame ever held a secret, and none was taller or wider than the terminal. */
function expectCleanFrames(terminal: Terminal, columns = 80, rows = 24, ...secrets: string[]) {
	expect(terminal.frames.length).toBeGreaterThan(0);
	for (const frame of terminal.frames) {
		for (const secret of [TOKEN, POOL_PASS, NEW_TOKEN, ...secrets]) expect(frame).not.toContain(secret);
		const lines = linesOf(stripVTControlCharacters(frame));
		expect(lines.length).toBeLessThanOrEqual(rows - 1);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
	}
}

/** The text inside the frame (borders and padding off, lines joined): for prose that wraps. */
function prose(terminal: Terminal): string {
	return linesOf(terminal.frame())
		.map((line) => line.replace(/^[│ ]+|[│ ]+$/g, ''))
		.join(' ')
		.replaceAll(/\s+/g, ' ');
}

/** The row of the tree that shows a key (by its label), as text. */
function row(terminal: Terminal, label: RegExp): string {
	return linesOf(terminal.frame()).find((line) => label.test(line)) ?? '';
}

/** Types text into the inline editor one key at a time, letting it re-subscribe between keys. */
async function type(terminal: Terminal, text: string) {
	for (const char of text) {
		await terminal.press(char);
		await new Promise((resolve) => setTimeout(resolve, 15));
	}
}

async function search(terminal: Terminal, text: string) {
	await terminal.press('/', '/▏');
	await terminal.press(text, `/${text}▏`);
	await terminal.press(KEY.enter);
	await tick();
}

/** Turns cpu.huge-pages off, applies it, and leaves the view with q (the view is unmounted, as the app does). */
async function applyHugePagesAndLeave(terminal: Terminal, backs: readonly number[]) {
	await search(terminal, 'cpu.huge-pages');
	await terminal.press(KEY.space, '(was true)');
	await terminal.press('w', 'Apply 1 change');
	await terminal.press('y', 'Apply: applied 1 change');
	await terminal.press('q');
	await vi.waitFor(() => expect(backs).toHaveLength(1));
	terminal.unmount();
}

describe('the config view against the simulated 6.x miner', () => {
	const miner = useSimulatedMiner('6');

	async function open(options: {readOnly?: boolean; columns?: number; rows?: number} = {}) {
		const {sim, client, backupDir} = miner();
		sim.setConfigText(sim.configText().replace('"pass": "sim-rig"', `"pass": "${POOL_PASS}"`));
		const original = sim.configText();
		const readOnly = options.readOnly ?? false;
		const session = new ConfigSession({client, backupDir, readOnly, tokenGiven: true, ...FAST});
		opened.push(session);
		const backs: number[] = [];
		const columns = options.columns ?? 80;
		const rows = options.rows ?? 24;
		// A visit opens the session, as the app does (commands/live/app.tsx): the view only reads it.
		void session.open();
		const terminal = await renderTerminal(
			<ConfigView session={session} minerName="rig-01" caps={{back: () => backs.push(1)}} readOnly={readOnly} />,
			{columns, rows},
		);
		await terminal.waitFor('▸ cpu');
		return {sim, client, session, terminal, original, backs, columns, rows};
	}

	it('draws the session it is given and sends nothing itself: the visit was opened by whoever shows it', async () => {
		const {sim, client, backupDir} = miner();
		const session = new ConfigSession({client, backupDir, readOnly: false, tokenGiven: true, ...FAST});
		opened.push(session);
		await session.open();
		const read = session.getState();
		const requests = sim.requests.length;
		const terminal = await renderTerminal(<ConfigView session={session} minerName="rig-01" caps={{back: () => {}}} readOnly={false} />);
		await terminal.waitFor('▸ cpu');
		await search(terminal, 'colors');
		expect(row(terminal, /colors/)).toMatch(/colors\s+true/);
		expect(sim.requests.length).toBe(requests);
		expect(session.getState()).toBe(read);
	});

	it('shows the config as a tree with the header, secrets masked, and the keys in the footer', async () => {
		const {terminal} = await open();
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toMatch(/^ rigtop {2}rig-01 · config\s+no changes · read from miner \d\d:\d\d$/);
		expect(lines[1]).toMatch(/^› ▸ api\s*$/);
		expect(terminal.frame()).toContain('  ▸ http');
		expect(row(terminal, / colors /)).toMatch(/^ {4}colors\s+true\s*$/);
		expect(lines.at(-1)).toBe(' / search  Space toggle  Enter edit  w apply  Esc back  ? help');
		expect(lines).toHaveLength(23);
		// The secrets' rows, opened up, show the mask.
		await search(terminal, 'http.access-token');
		expect(row(terminal, /access-token/)).toMatch(/^› {5}access-token\s+••••••••/);
		await search(terminal, 'pools.0.pass');
		expect(row(terminal, / pass /)).toMatch(/^› {7}pass\s+••••••••/);
		expect(terminal.frame()).toContain('▾ pools [1]');
		expect(terminal.frame()).toMatch(/▾ \[0\]\s+pool\.example\.org:443/);
		expectCleanFrames(terminal);
	});

	it('moves with ↑↓ / j k, opens and closes sections with → ← / l h / Enter, and scrolls with the cursor', async () => {
		const {terminal} = await open();
		await terminal.press(KEY.down, '› ▸ http');
		await terminal.press(KEY.right, '› ▾ http');
		expect(terminal.frame()).toMatch(/ {5}enabled\s+true/);
		await terminal.press('j', /› {5}enabled/);
		await terminal.press('h', '› ▾ http'); // a leaf: to its section
		await terminal.press('h', '› ▸ http'); // an open section: closes it
		await terminal.press('k', '› ▸ api');
		await terminal.press(KEY.enter, '› ▾ api');
		await terminal.press('l', /› {5}id\s+null/); // an open section: into its first key
		// The last key is reached by scrolling; the header stays on the first line.
		await terminal.press('G', /› {3}pause-on-active/);
		expect(linesOf(terminal.frame())[0]).toContain('rig-01 · config');
		expect(terminal.frame()).not.toContain('▾ api');
		await terminal.press('g', '› ▾ api');
		expectCleanFrames(terminal);
	});

	it('search: / colors Enter moves to the key; n goes to the next match, opening sections on the way', async () => {
		const {terminal} = await open();
		await search(terminal, 'colors');
		expect(row(terminal, /colors/)).toMatch(/^› {3}colors\s+true/);
		expect(terminal.frame()).toContain('colors — match 1 of 1');

		await search(terminal, 'tls');
		expect(row(terminal, /^›/)).toMatch(/^› {7}tls\s+true/);
		expect(terminal.frame()).toContain('▾ pools [1]');
		expect(terminal.frame()).toContain('pools.0.tls — match 1 of');
		await terminal.press('n', /› {7}tls-fingerprint/);
		await terminal.press('n', /› ▸ tls|› ▾ tls/);
		// Keys that arrive together (a fast typist, tmux send-keys) work one by one.
		await terminal.press('/print-time\r', /› {3}print-time\s+60/);
		await search(terminal, 'no-such-key');
		expect(terminal.frame()).toContain('no key matches "no-such-key"');
		// Esc cancels the prompt without moving.
		await terminal.press('/', '/▏');
		await terminal.press('x', '/x▏');
		// The keys while typing are said once, in the footer (not beside what is typed too).
		const typing = linesOf(terminal.frame());
		expect(typing.at(-1)).toMatch(/Enter ok +Esc cancel/);
		expect(typing.join('\n').match(/Enter/g)).toHaveLength(1);
		expect(typing.join('\n').match(/Esc/g)).toHaveLength(1);
		await terminal.press(KEY.backspace, '/▏');
		await terminal.press(KEY.escape);
		await vi.waitFor(() => expect(terminal.frame()).not.toContain('/▏'));
		expect(terminal.frame()).toMatch(/› {3}print-time/); // the cursor did not move
		expectCleanFrames(terminal);
	});

	it('Space toggles and marks the key, d shows the diff, x discards', async () => {
		const {terminal} = await open();
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		expect(row(terminal, /colors/)).toMatch(/^› ● colors\s+false\s+\(was true\)/);
		expect(linesOf(terminal.frame())[0]).toContain('1 change pending');
		await tick(); // the frame is drawn; its effects (the keys' reducer of this size) run after it
		expect(linesOf(terminal.frame()).at(-1)).toBe(' / search Space toggle Enter edit d diff w apply x discard Esc back ? help');
		await terminal.press('d', 'Pending changes (1)');
		expect(terminal.frame()).toContain('colors: true → false');
		await terminal.press(KEY.escape, '● colors');
		await terminal.press('x', 'discarded 1 pending change');
		expect(row(terminal, /colors/)).toMatch(/^› {3}colors\s+true\s*$/);
		expectCleanFrames(terminal);
	});

	it('keys with a known set of values cycle with Space and show the set; + and - step numbers within range', async () => {
		const {terminal} = await open();
		await search(terminal, 'randomx.mode');
		expect(row(terminal, /› .*mode/)).toMatch(/mode\s+"auto"\s+Space: auto fast light/);
		expect(terminal.frame()).toContain('randomx.mode — match 1 of 1');
		await terminal.press('k', /› {5}init-avx2/);
		await terminal.press('j', 'randomx.mode: takes effect at the next RandomX dataset init');
		await terminal.press(KEY.space, '(was "auto")');
		expect(row(terminal, /● mode/)).toMatch(/"fast"/);
		await search(terminal, 'cpu.priority');
		await terminal.press(KEY.space, '(was null)');
		expect(row(terminal, /● priority/)).toMatch(/priority\s+0\s+\(was null\)/);
		await search(terminal, 'donate-level');
		await terminal.press('-', '(was 1)');
		await terminal.press('-', 'donate-level cannot go lower');
		await terminal.press('+');
		await terminal.press('+', /● donate-level\s+2\s+\(was 1\)/);
		expectCleanFrames(terminal);
	});

	it('Enter edits a value inline; a bad value is refused with the reason, Esc cancels', async () => {
		const {terminal} = await open();
		await search(terminal, 'print-time');
		await terminal.press(KEY.enter, 'print-time: type the new value');
		await terminal.press(KEY.backspace);
		await terminal.press(KEY.backspace);
		await type(terminal, '99999');
		await terminal.press(KEY.enter, 'print-time must be a whole number from 0 to 3600 (not 99999)');
		for (let index = 0; index < 5; index++) await terminal.press(KEY.backspace);
		await type(terminal, '30');
		await terminal.press(KEY.enter, /● print-time\s+30\s+\(was 60\)/);
		// Esc leaves the editor and changes nothing (the lone ESC arrives a moment later).
		await search(terminal, 'retries');
		await terminal.press(KEY.enter, 'retries: type the new value');
		const editing = linesOf(terminal.frame()).join('\n');
		expect(editing).toContain('retries: type the new value; Ctrl+U clears');
		expect(editing.match(/Enter/g)).toHaveLength(1);
		expect(editing.match(/Esc/g)).toHaveLength(1);
		await type(terminal, '7');
		await terminal.press(KEY.escape, /› {3}retries\s+5\s*$/m);
		expect(linesOf(terminal.frame())[0]).toContain('1 change pending');
		await tick(); // the frame is drawn; its effects (the keys' reducer of this size) run after it
		expectCleanFrames(terminal);
	});

	it('keys that arrive in one read (Enter, Ctrl+U 7 8 9 Backspace 1 Enter) are each applied in order', async () => {
		const {terminal} = await open();
		await search(terminal, 'retries');
		expect(row(terminal, /retries/)).toMatch(/^› {3}retries\s+5\s*$/);
		await terminal.press('\r\u0015789\u007F1\r', /● retries\s+781\s+\(was 5\)/);
		expectCleanFrames(terminal);
	});

	it('w asks with the diff, y applies: the miner changes in that key only, the screen says applied; u y undoes', async () => {
		const {sim, terminal, original} = await open();
		await search(terminal, 'cpu.huge-pages');
		await terminal.press(KEY.space, '(was true)');
		await terminal.press('w', 'Apply 1 change to rig-01?');
		expect(terminal.frame()).toContain('huge-pages: true → false');
		expect(terminal.frame()).toContain('y apply · n cancel');
		await terminal.press('y', 'Apply: applied 1 change');
		expect(terminal.frame()).toContain('✓ cpu.huge-pages: true → false  applied');
		expect(terminal.frame()).toMatch(/backup of the config as it was: .*\//);
		expect(sim.configText()).toBe(original.replace('"huge-pages": true', '"huge-pages": false'));
		await terminal.press(KEY.escape, '✓ applied');
		expect(row(terminal, /huge-pages /)).toMatch(/^› {5}huge-pages\s+false\s+✓ applied/);
		expect(linesOf(terminal.frame()).at(-1)).toContain('u undo');

		await terminal.press('u', 'Undo the last apply?');
		expect(terminal.frame()).toContain('cpu.huge-pages');
		await terminal.press('y', 'Undo: applied 1 change');
		expect(sim.configText()).toBe(original);
		// The redo question's answers say what y does.
		await terminal.press('u', 'Redo the change the undo reverted?');
		expect(terminal.frame()).toContain('y redo · n cancel');
		expect(terminal.frame()).not.toContain('y undo');
		await terminal.press('n');
		await terminal.press(KEY.enter, /huge-pages\s+true/);
		expectCleanFrames(terminal);
	});

	it('opened again after a look at the dashboard, u takes the last apply back', async () => {
		const {sim, session, terminal, backs, original} = await open();
		await applyHugePagesAndLeave(terminal, backs);
		void session.open();
		const again = await renderTerminal(
			<ConfigView session={session} minerName="rig-01" caps={{back: () => backs.push(1)}} readOnly={false} />,
		);
		await again.waitFor('▸ cpu');
		await again.press('u', 'Undo the last apply?');
		await again.press('y', 'Undo: applied 1 change');
		expect(sim.configText()).toBe(original);
		expectCleanFrames(again);
	});

	it('opened again, it reads the config afresh: no old result panel, the value the miner has now; the undo asks, and finds the conflict', async () => {
		const {sim, session, terminal, backs} = await open();
		await applyHugePagesAndLeave(terminal, backs);
		// Meanwhile the config changes on the miner (another tool, a hand edit).
		sim.setConfigText(sim.configText().replace('"print-time": 60', '"print-time": 45'));
		void session.open();
		const again = await renderTerminal(
			<ConfigView session={session} minerName="rig-01" caps={{back: () => backs.push(1)}} readOnly={false} />,
		);
		await again.waitFor('▸ cpu');
		expect(again.frame()).not.toContain('Apply: applied');
		expect(linesOf(again.frame()).at(-1)).toContain('u undo');
		await search(again, 'print-time');
		expect(row(again, /print-time/)).toMatch(/print-time\s+45/);
		// The undo of the earlier apply is still offered (asked first, naming it): the miner's config changed since,
		// so it is a conflict, and nothing is written.
		const before = sim.configText();
		await again.press('u', 'Undo the last apply?');
		expect(prose(again)).toContain('cpu.huge-pages');
		await again.press('y', 'Undo: conflict — nothing was applied');
		expect(again.frame()).toContain('print-time');
		expect(sim.configText()).toBe(before);
		expectCleanFrames(again);
	});

	it("? shows the view's keys; q leaves it from the tree, the help, a panel and a question, asking first with changes pending", async () => {
		const {terminal, backs} = await open();
		await terminal.press('?', 'Config view keys');
		expect(terminal.frame()).toMatch(/\/\s+find a key by its dotted path/);
		expect(terminal.frame()).toMatch(/more below · ↑↓ scroll/);
		expect(linesOf(terminal.frame()).at(-1)).toBe(' ? help  Esc close');
		// Taller than the terminal: ↓ (j) scrolls it to the end.
		for (let index = 0; index < 12; index++) await terminal.press('j');
		await terminal.waitFor(/F10\s+quit rigtop/);
		expect(terminal.frame()).toMatch(/q\s+back to the dashboard \(asks first when changes are pending\)/);
		expect(terminal.frame()).not.toContain('more below');
		await terminal.press('k', /above · ↑↓ scroll/);
		await terminal.press(KEY.escape, '▸ cpu');
		await terminal.press('q');
		await vi.waitFor(() => expect(backs).toHaveLength(1));
		// With a change pending: q at the tree, at the diff and at the apply question all ask first.
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		await terminal.press('q', 'Leave with 1 pending change?');
		await terminal.press('n', '● colors');
		await terminal.press('d', 'Pending changes (1)');
		await terminal.press('q', 'Leave with 1 pending change?');
		await terminal.press('n', '● colors');
		await terminal.press('w', 'y apply · n cancel');
		await terminal.press('q', 'Leave with 1 pending change?');
		await terminal.press('y');
		await vi.waitFor(() => expect(backs).toHaveLength(2));
		expectCleanFrames(terminal);
	});

	it('F10 quits rigtop from the view, asking first with changes pending', async () => {
		const {session} = await open();
		const quits: number[] = [];
		void session.open();
		const terminal = await renderTerminal(
			<ConfigView session={session} minerName="rig-01" caps={{back: () => {}, quit: () => quits.push(1)}} readOnly={false} />,
		);
		await terminal.waitFor('▸ cpu');
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		await terminal.press(KEYS.f10, 'Quit rigtop with 1 pending change?');
		expect(terminal.frame()).toContain('y quit · n stay');
		await terminal.press('y');
		await vi.waitFor(() => expect(quits).toHaveLength(1));
	});

	it('n or Esc at the question applies nothing', async () => {
		const {sim, terminal} = await open();
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		await terminal.press('w', 'y apply · n cancel');
		await terminal.press('n', '● colors');
		await terminal.press('w', 'y apply · n cancel');
		await terminal.press(KEY.escape, '● colors');
		expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
	});

	it('turning restricted mode on offers no undo the miner would refuse, and u says why', async () => {
		const {sim, terminal} = await open();
		await search(terminal, 'http.restricted');
		await terminal.press(KEY.space, '(was false)');
		await terminal.press('w', "http.restricted can cut rigtop off from the miner's API");
		await terminal.press('y', 'Are you sure?');
		await terminal.press('y', 'Apply: applied 1 change');
		expect(prose(terminal)).toContain('restricted mode is on now');
		expect(terminal.frame()).not.toContain('undo this apply');
		expect(linesOf(terminal.frame()).at(-1)).not.toContain('undo');
		const puts = sim.requests.filter((request) => request.method === 'PUT').length;
		await terminal.press('u', 'no undo through the API');
		expect(terminal.frame()).not.toContain('Undo the last apply?');
		expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(puts);
		// The change is applied, not pending: the tree shows the value it has now, and nothing is left to apply.
		await terminal.press(KEY.escape);
		await terminal.waitFor('no changes');
		expect(row(terminal, /restricted/)).toMatch(/^› {5}restricted\s+true\s*/);
		expect(row(terminal, /restricted/)).not.toContain('(was false)');
		expectCleanFrames(terminal);
	});

	it('a change that can cut rigtop off asks twice; a new token typed hidden is applied and then used', async () => {
		const {sim, client, terminal} = await open();
		await search(terminal, 'http.access-token');
		await terminal.press(KEY.enter, 'it stays hidden');
		await type(terminal, NEW_TOKEN);
		await terminal.waitFor('•'.repeat(NEW_TOKEN.length));
		await terminal.press(KEY.enter, '(changed)');
		expect(row(terminal, /access-token/)).toMatch(/● access-token\s+••••••••\s+\(changed\)/);
		await terminal.press('w', "http.access-token can cut rigtop off from the miner's API");
		await terminal.press('y', 'Are you sure?');
		// The second question's words wrap whole at 80 columns; nothing of them is cut.
		expect(prose(terminal)).toContain(
			"The change to http.access-token can cut rigtop off from the miner's API: rigtop may not reach the miner afterwards " +
				"(new port, host, token, or API off). If that happens, fix it in the miner's config file; the config as it was is backed up first.",
		);
		expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
		// n at the second question applies nothing either.
		await terminal.press('n', '● access-token');
		await terminal.press('w', 'Apply 1 change');
		await terminal.press('y', 'Are you sure?');
		await terminal.press('y', 'Apply: applied 1 change');
		expect(terminal.frame()).toContain('rigtop now uses the new access token');
		expect(sim.configText()).toContain(`"access-token": "${NEW_TOKEN}"`);
		// The client (shared with the dashboard) now sends the new token.
		await expect(client.getText('/1/summary')).resolves.toContain('"worker_id"');
		expectCleanFrames(terminal);
	});

	it('a concurrent change is shown as a conflict; R re-reads (asking first: the pending change is dropped)', async () => {
		const {sim, terminal, original} = await open();
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		sim.setConfigText(original.replace('"print-time": 60', '"print-time": 15'));
		await terminal.press('w', 'y apply · n cancel');
		await terminal.press('y', 'conflict — nothing was applied');
		expect(terminal.frame()).toContain('print-time: 60 → 15 (changed on the miner)');
		expect(prose(terminal)).toContain('R reads it again (your changes are dropped); then make them again on what the miner has now.');
		expect(linesOf(terminal.frame()).at(-1)).toContain('R reload');
		expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
		await terminal.press('R', 'Read the config from the miner again?');
		await terminal.press('y', 'no changes');
		await search(terminal, 'print-time');
		expect(row(terminal, /print-time/)).toMatch(/print-time\s+15/);
		expectCleanFrames(terminal);
	});

	it('Esc with pending changes asks first: n stays, y drops them and goes back', async () => {
		const {terminal, session, backs} = await open();
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		await terminal.press(KEY.escape, 'Leave with 1 pending change?');
		await terminal.press('n', '● colors');
		expect(backs).toHaveLength(0);
		await terminal.press(KEY.escape, 'y leave · n stay');
		await terminal.press('y');
		await tick();
		expect(backs).toHaveLength(1);
		expect(session.getState().edits?.size).toBe(0);
		// Without pending changes Esc goes straight back.
		await terminal.press(KEY.escape);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(backs).toHaveLength(2);
	});

	it('--read-only: browsing works, every write key says writes are off, nothing is sent', async () => {
		const {sim, terminal} = await open({readOnly: true});
		expect(linesOf(terminal.frame())[0]).toContain('read-only');
		expect(linesOf(terminal.frame()).at(-1)).toBe(' / search  Esc back  ? help');
		await search(terminal, 'colors');
		await terminal.press(KEY.space, 'rigtop runs with --read-only: writes are off');
		await terminal.press('j');
		await terminal.press('w', 'rigtop runs with --read-only');
		await terminal.press('u', 'rigtop runs with --read-only');
		await terminal.press(KEY.enter, 'rigtop runs with --read-only');
		expect(sim.requests.every((request) => request.method === 'GET')).toBe(true);
		// The help lists only what works here: moving and searching, not toggling or applying.
		await terminal.press('?', 'Config view keys');
		expect(terminal.frame()).toContain('find a key by its dotted path');
		expect(terminal.frame()).not.toContain('toggle a boolean');
		expect(terminal.frame()).not.toContain('apply the changes');
	});

	it('below the smallest size it says so, q still goes back, and made larger it is back', async () => {
		const {terminal, backs} = await open();
		terminal.resize(40, 12);
		await terminal.waitFor('terminal too small — need 50×10');
		expect(terminal.frame()).toMatch(/this one is 40×12 · q goes back to the\s+dashboard/);
		expectCleanFrames(terminal, 80, 24);
		terminal.resize(80, 24);
		await terminal.waitFor('▸ cpu');
		terminal.resize(40, 12);
		await terminal.waitFor('too small');
		await terminal.press('q');
		await vi.waitFor(() => expect(backs).toHaveLength(1));
	});

	it('the apply question shows a long new value whole (wrapped), never cut', async () => {
		const {terminal} = await open({columns: 60, rows: 24});
		await search(terminal, 'pools.0.url');
		await terminal.press(KEY.enter, 'type the new value');
		const url = 'stratum+ssl://a-very-long-pool-host-name.example.org:14433';
		await terminal.press(`\u0015"${url}"`, 'example.org:14433');
		await terminal.press(KEY.enter, '(was ');
		await terminal.press('w', 'Apply 1 change');
		const flat = prose(terminal).replaceAll(' ', '');
		expect(flat).toContain(`"${url}"`);
		expect(flat).toContain('pools.0.url:"pool.example.org:443"→');
		expectCleanFrames(terminal, 60, 24);
	});

	it('an apply that fails says what happened and its fix once each', async () => {
		const {sim, terminal} = await open();
		await search(terminal, 'colors');
		await terminal.press(KEY.space, '(was true)');
		await sim.stop();
		await terminal.press('w', 'Apply 1 change to rig-01?');
		await terminal.press('y', 'Apply failed');
		const text = prose(terminal);
		expect(text).toContain('nothing was changed');
		expect(text.match(/fix: /g)).toHaveLength(1);
		expect(text.match(/check that XMRig is running/g)).toHaveLength(1);
		expectCleanFrames(terminal);
	});

	it('typing a value longer than the line keeps the caret and what was typed last on screen', async () => {
		const {terminal} = await open({columns: 60, rows: 20});
		await search(terminal, 'pools.0.user');
		await terminal.press(KEY.enter, 'type the new value');
		const typed = `${'x'.repeat(70)}THE-END`;
		await terminal.press(`\u0015${typed}`, 'THE-END');
		const line = row(terminal, /^› /);
		expect(line).toMatch(/…x+THE-END\s*$/);
		expectCleanFrames(terminal, 60, 20);
	});

	it('too small to be seen, keys act on nothing: no typing into a value, no answer to a question, no leaving with changes pending', async () => {
		const {sim, terminal, original, backs} = await open();
		await search(terminal, 'retries');
		// A value being edited: what is typed while the view cannot be seen goes nowhere.
		await terminal.press(KEY.enter, 'retries: type the new value');
		terminal.resize(40, 12);
		await terminal.waitFor('terminal too small');
		await terminal.press('9');
		await terminal.press(KEY.enter);
		terminal.resize(80, 24);
		await terminal.waitFor('▸ cpu');
		expect(row(terminal, /retries/)).not.toContain('(was 5)');
		expect(terminal.frame()).toContain('retries: type the new value');
		await terminal.press(KEY.escape);
		await vi.waitFor(() => expect(terminal.frame()).not.toContain('type the new value'));
		// A pending change and its question: w, y and q typed out of sight neither apply nor leave.
		await terminal.press('+', '(was 5)');
		terminal.resize(40, 12);
		await terminal.waitFor(/1 change pending:\s+make it larger to apply\s+or\s+discard/);
		for (const key of ['w', 'y', 'q', 'y']) await terminal.press(key);
		terminal.resize(80, 24);
		await terminal.waitFor('▸ cpu');
		expect(linesOf(terminal.frame())[0]).toContain('1 change pending');
		await tick(); // the frame is drawn; its effects (the keys' reducer of this size) run after it
		expect(terminal.frame()).not.toContain('Apply 1 change');
		expect(terminal.frame()).not.toContain('Leave');
		expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
		expect(sim.configText()).toBe(original);
		expect(backs).toHaveLength(0);
		// Nothing pending: q goes back, as the note says.
		await terminal.press('x', 'discarded 1 pending change');
		terminal.resize(40, 12);
		await terminal.waitFor('q goes back to the');
		await terminal.press('q');
		await vi.waitFor(() => expect(backs).toHaveLength(1));
	});

	it('at 60 columns a message under the tree wraps whole, and so does a fix in a panel', async () => {
		const {terminal} = await open({readOnly: true, columns: 60, rows: 24});
		await search(terminal, 'colors');
		await terminal.press(KEY.space, 'rigtop runs with --read-only');
		expect(prose(terminal)).toContain('rigtop runs with --read-only: writes are off (no apply, undo, pause or resume)');
		expectCleanFrames(terminal, 60, 24);
	});

	it("at 80×24 a key's note under the tree wraps whole: its end (when it takes effect) is on screen", async () => {
		const {terminal} = await open();
		await search(terminal, 'donate-level');
		await terminal.press('k');
		await terminal.press('j', 'donate-level: the miner shows it at once');
		const lines = linesOf(terminal.frame());
		const note = lines.findIndex((line) => line.startsWith(' donate-level: '));
		expect(lines.slice(note, -1).join(' ').replaceAll(/\s+/g, ' ').trim()).toBe(
			'donate-level: the miner shows it at once; the donation time changes after a restart',
		);
		expect(row(terminal, /› .*donate-level/)).toMatch(/donate-level\s+1/);
		expectCleanFrames(terminal);
	});

	it('any size from the smallest up, with values longer than the terminal: no line past its edge (the view clips rows only)', async () => {
		const {sim, client, backupDir} = miner();
		const long = `stratum+tcp://${'pool-'.repeat(60)}example.org:3333`;
		sim.setConfigText(sim.configText().replace('"url": "pool.example.org:443"', `"url": "${long}"`));
		expect(sim.configText()).toContain(long);
		await fc.assert(
			fc.asyncProperty(fc.integer({min: 50, max: 220}), fc.integer({min: 10, max: 60}), fc.boolean(), async (columns, rows, help) => {
				const session = new ConfigSession({client, backupDir, readOnly: false, tokenGiven: true, ...FAST});
				opened.push(session);
				void session.open();
				const terminal = await renderTerminal(
					<ConfigView session={session} minerName={`rig-${'x'.repeat(300)}`} caps={{back: () => {}}} readOnly={false} />,
					{
						columns,
						rows,
					},
				);
				await terminal.waitFor('▸ api');
				await search(terminal, 'pools.0.url');
				expect(terminal.frame()).toMatch(/url +"stratum\+tcp/);
				if (help) await terminal.press('?', 'Config view keys');
				expectCleanFrames(terminal, columns, rows);
				terminal.unmount();
			}),
			{numRuns: 8},
		);
	});

	it('fits smaller and larger terminals', async () => {
		const small = await open({columns: 60, rows: 12});
		await small.terminal.press('G');
		await small.terminal.press(KEY.enter);
		expectCleanFrames(small.terminal, 60, 12);
		small.terminal.resize(120, 40);
		await small.terminal.waitFor(/pause-on-active/);
		expect(linesOf(small.terminal.frame()).length).toBeLessThanOrEqual(39);
	});

	it('a bracketed paste goes into the value being edited, whole; browsing, it is no command', async () => {
		const {terminal, backs} = await open();
		expect(terminal.modes).toContain('\u001B[?2004h');
		await search(terminal, 'pools.0.user');
		await terminal.press(KEY.enter, 'type the new value');
		// Keys in the same read as the paste, before and after it, are keys.
		await terminal.press(`\u0015\u001B[200~w q/x\u001B[201~${KEY.enter}`, '(was ');
		expect(row(terminal, / user /)).toMatch(/user +"?w q\/x"? +\(was /);
		expect(backs).toHaveLength(0);
		await terminal.press('\u001B[200~qwy\u001B[201~');
		await terminal.press('?', 'Config view keys');
		expect(backs).toHaveLength(0);
		expect(terminal.frame()).not.toContain('Apply 1 change');
	});
});

describe('a config edit is computed once', () => {
	const miner = useSimulatedMiner('6');
	afterEach(() => {
		vi.restoreAllMocks();
	});

	async function open() {
		const {client, backupDir} = miner();
		const session = new ConfigSession({client, backupDir, readOnly: false, tokenGiven: true, ...FAST});
		opened.push(session);
		void session.open();
		const terminal = await renderTerminal(<ConfigView session={session} minerName="rig-01" caps={{back: () => {}}} readOnly={false} />);
		await terminal.waitFor('▸ cpu');
		return {session, terminal};
	}

	it('Space, + and Enter each make their edit once: the reducer makes it, the session takes the result as it is', async () => {
		const {session, terminal} = await open();
		const toggle = vi.spyOn(PendingEdits.prototype, 'toggle');
		const step = vi.spyOn(PendingEdits.prototype, 'step');
		const set = vi.spyOn(PendingEdits.prototype, 'set');
		await search(terminal, 'colors');
		toggle.mockClear();
		await terminal.press(KEY.space, '(was true)');
		expect(toggle).toHaveBeenCalledTimes(1);
		// The session holds the very edits the toggle made.
		expect(session.getState().edits).toBe(toggle.mock.results[0]?.value.edits);
		await search(terminal, 'retries');
		step.mockClear();
		await terminal.press('+', /● retries\s+6\s+\(was 5\)/);
		expect(step).toHaveBeenCalledTimes(1);
		// (A toggle and a step set their value through set: count only Enter's.)
		set.mockClear();
		await terminal.press(`${KEY.enter}\u001578${KEY.enter}`, /● retries\s+78\s+\(was 5\)/);
		expect(set).toHaveBeenCalledTimes(1);
		expect(session.getState().edits?.diffLines()).toEqual(['colors: true → false', 'retries: 5 → 78']);
	});

	it('keys in one read after an edit act on it: Space w asks to apply the change just made', async () => {
		const {terminal} = await open();
		await search(terminal, 'colors');
		await terminal.press(`${KEY.space}w`, 'Apply 1 change to rig-01?');
		expect(terminal.frame()).toContain('colors: true → false');
	});

	it('while a change is being applied, the session and the view refuse with one wording', async () => {
		const {client, backupDir} = miner();
		const session = new ConfigSession({client, backupDir, readOnly: false, tokenGiven: true, ...FAST});
		opened.push(session);
		await session.load();
		edit(session, (edits) => edits.toggle(['colors']));
		const applying = session.apply();
		const busy = session.getState();
		expect(busy.busy).toBe('apply');
		expect(edit(session, (edits) => edits.toggle(['background']))).toEqual({ok: false, message: BUSY_MESSAGE});
		const env = {session: busy, readOnly: false, pageSize: 10, helpMax: 0, tooSmall: false};
		for (const key of ['q', 'w', 'x', '+']) {
			const step = configReducer(initialConfigUi(busy.resultSeq), {type: 'key', input: key, key: {}}, env);
			expect(step.effects).toEqual([]);
			expect(step.state.notice).toEqual({text: BUSY_MESSAGE, tone: 'warn'});
		}

		expect(BUSY_MESSAGE).toBe('wait: a change is being applied');
		await applying;
	});
});

/**
 * A session as the view last drew it: its state is handed on only at `draw()`, so keys can be read before the view
 * has drawn a change (a re-read that landed between the frame and the key).
 */
function drawnLate(session: ConfigSession): {store: ConfigStore; draw: () => void} {
	let shown = session.getState();
	const listeners = new Set<() => void>();
	const store: ConfigStore = {
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		getState: () => shown,
		ensureLoaded: async () => session.ensureLoaded(),
		open: async () => session.open(),
		load: async () => session.load(),
		reload: async () => session.reload(),
		adopt: (edits) => session.adopt(edits),
		discard(path) {
			session.discard(path);
		},
		apply: async () => session.apply(),
		undo: async () => session.undo(),
	};
	return {
		store,
		draw() {
			shown = session.getState();
			for (const listener of listeners) listener();
		},
	};
}

describe('an edit the session refuses', () => {
	const miner = useSimulatedMiner('6');

	it('made on an older read of the config: refused, and the reason is on screen; nothing is pending', async () => {
		const {client, backupDir} = miner();
		const session = new ConfigSession({client, backupDir, readOnly: false, tokenGiven: true, ...FAST});
		opened.push(session);
		await session.open();
		const {store, draw} = drawnLate(session);
		const terminal = await renderTerminal(<ConfigView session={store} minerName="rig-01" caps={{back: () => {}}} readOnly={false} />);
		await terminal.waitFor('▸ cpu');
		await search(terminal, 'colors');
		// The config is read again (R, another visit) and the key comes before the view has drawn that read.
		await session.reload();
		await terminal.press(KEY.space, STALE_EDITS_MESSAGE);
		expect(session.getState().edits?.size).toBe(0);
		draw();
		await terminal.waitFor('no changes');
		expect(row(terminal, /colors/)).not.toContain('(was true)');
	});
});

describe('the config view when the config cannot be read', () => {
	it('restricted mode: says so with the fix, R tries again, Esc and q go back, ? shows the keys', async () => {
		const sim = await startSimulator({dialect: '6', token: TOKEN, restricted: true, seed: 9});
		const client = new MinerClient({url: sim.url, token: TOKEN});
		const temp = tempDir();
		const session = new ConfigSession({client, backupDir: temp.dir, readOnly: false, tokenGiven: true});
		opened.push(session);
		let back = 0;
		try {
			void session.open();
			const terminal = await renderTerminal(
				<ConfigView session={session} minerName="rig-01" caps={{back: () => (back += 1)}} readOnly={false} />,
			);
			await terminal.waitFor("Could not read the miner's config");
			expect(terminal.frame()).toContain('restricted mode');
			expect(terminal.frame()).toContain("fix: set http.restricted to false in the miner's config");
			// Nothing to search: / is not offered, and pressed says why.
			expect(linesOf(terminal.frame()).at(-1)).not.toContain('search');
			await terminal.press('/', 'nothing to search: the config has not been read (R tries again)');
			expect(terminal.frame()).not.toContain('/▏');
			const reads = sim.requests.length;
			await terminal.press('R');
			await terminal.waitFor("Could not read the miner's config");
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(sim.requests.length).toBeGreaterThan(reads);
			await terminal.press(KEY.escape);
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(back).toBe(1);
			// ? and q work here too.
			await terminal.press('?', 'Config view keys');
			await terminal.press('?', "Could not read the miner's config");
			expect(terminal.frame()).toContain('Esc or q: back to the dashboard');
			await terminal.press('q');
			await vi.waitFor(() => expect(back).toBe(2));
			expectCleanFrames(terminal);
		} finally {
			await client.close();
			await sim.stop();
			temp.remove();
		}
	});
});
