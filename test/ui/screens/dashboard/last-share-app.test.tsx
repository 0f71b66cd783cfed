/**
 * Issue 35, item 2: what the fleet's polls know of a rig's last share, its dashboard knows from its first frame —
 * opened from the fleet, or again from its config view — since the last share is the monitor's (monitor/last-share.ts),
 * not the dashboard's.
 */
import {Text, useInput} from 'ink';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {Monitor} from '../../../../source/monitor/monitor.js';
import {App} from '../../../../source/ui/app.js';
import {makeSnapshot} from '../../../helpers/snapshot.js';
import {scriptedRead} from '../../../monitor/scripted-read.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';

const monitors: Monitor[] = [];
afterEach(() => {
	for (const monitor of monitors.splice(0)) monitor.stop();
});

function ConfigSlot({onBack}: {readonly onBack: () => void}) {
	useInput((_input, key) => {
		if (key.escape) onBack();
	});
	return <Text>config view</Text>;
}

/** A rig whose accepted count goes from 100 to 101 at its third poll, and one whose count stays at 50. */
function twoRigs(): Monitor[] {
	const rising = scriptedRead((call) => ({
		result: makeSnapshot({workerId: 'rig-01', id: 'aaaaaaaaaaaaaaaa', results: {good: call < 2 ? 100 : 101}}),
	}));
	const steady = scriptedRead(() => ({result: makeSnapshot({workerId: 'rig-02', id: 'bbbbbbbbbbbbbbbb', results: {good: 50}})}));
	const made = [
		new Monitor({read: rising.read, url: 'http://127.0.0.1:18503', name: 'rig-01', intervalMs: 250, random: () => 0}),
		new Monitor({read: steady.read, url: 'http://127.0.0.1:18504', name: 'rig-02', intervalMs: 250, random: () => 0}),
	];
	monitors.push(...made);
	for (const monitor of made) monitor.start();
	return made;
}

const shareLine = (frame: string) => linesOf(frame).find((line) => line.includes('last share')) ?? '';

describe('the last share on a dashboard opened from the fleet', () => {
	test('known from the first frame: "N ago" where the fleet saw the count rise, "at least N ago" where it never moved', async () => {
		const [rising, steady] = twoRigs();
		const terminal = await renderTerminal(
			<App
				miners={[{store: rising!}, {store: steady!}]}
				onQuit={() => {}}
				color={false}
				fleetThrottleMs={0}
				renderConfig={(_target, onBack) => <ConfigSlot onBack={onBack} />}
			/>,
			{columns: 100, rows: 30},
		);
		await terminal.waitFor(/rig-02/);
		// The fleet shows while the count rises, and for over a second after.
		await vi.waitFor(() => expect(rising!.getState().polls).toBeGreaterThanOrEqual(8), {timeout: 10_000, interval: 20});

		await terminal.press('\r', 'Hashrate');
		// The first frame of the dashboard: no new share came while it was open.
		const first = terminal.frames.findLast((frame) => frame.includes('Hashrate')) ?? '';
		expect(shareLine(first)).toMatch(/last share (\d+s ago|just now)/);
		expect(shareLine(first)).not.toContain('at least');

		// Again after its config view.
		await terminal.press('c', 'config view');
		await tick();
		await terminal.press(KEYS.escape, 'Hashrate');
		expect(shareLine(terminal.frame())).toMatch(/last share \d+s ago/);

		// The other rig: its count never moved since the fleet first saw it.
		await terminal.press(KEYS.escape, /rig-02/);
		await tick();
		await terminal.press('j', /▸ +rig-02/);
		await terminal.press('\r', 'Hashrate');
		expect(shareLine(terminal.frame())).toMatch(/last share at least \d+s ago/);
	});
});
