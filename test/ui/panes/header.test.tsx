/** The dashboard's header: at 80 columns, the parts keep their place from poll to poll. */
import {describe, expect, test} from 'vitest';
import {FixedNowContext} from '../../../source/ui/hooks/use-now.js';
import {Header} from '../../../source/ui/panes/header.js';
import {makeSnapshot, makeState, NOW} from '../helpers/state.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

type Placed = ReadonlyMap<string, number>;

/** Where each of `marks` starts on the header's row (absent marks are left out). */
function placesOf(line: string, marks: readonly string[]): Placed {
	const places = new Map<string, number>();
	for (const mark of marks) {
		const at = line.indexOf(mark);
		if (at >= 0) places.set(mark, at);
	}

	return places;
}

async function headerAt(name: string, second: number, intervalMs = 2000, uptimeFrom = 50): Promise<string> {
	const now = NOW + second * 1000;
	// The polls land every 2 s, so the state reads "just now", "1s ago", "just now"…; the uptime ticks (across a minute).
	const lastSuccessAt = now - (second % 2) * 1000;
	const state = makeState({name, lastSuccessAt, snapshot: makeSnapshot({workerId: name, uptime: uptimeFrom + second})});
	const terminal = await renderTerminal(
		<FixedNowContext.Provider value={now}>
			<Header state={state} width={80} intervalMs={intervalMs} />
		</FixedNowContext.Provider>,
		{columns: 80, rows: 3},
	);
	const line = linesOf(terminal.frame())[0] ?? '';
	terminal.unmount();
	return line;
}

describe('the dashboard header at 80 columns', () => {
	test.each(['rig-01', 'garage-rig', 'basement-rig-07'])(
		'%s: across polls every part keeps its column and the same parts are shown',
		async (name) => {
			const marks = [name, 'XMRig 6.26.0', 'rx/0', 'up ', '● live', '· every'];
			const lines: string[] = [];
			for (let second = 0; second < 14; second++) lines.push(await headerAt(name, second));
			const first = placesOf(lines[0] ?? '', marks);
			expect(first.get(name)).toBe(9);
			expect(first.has('● live')).toBe(true);
			// The uptime says more than the default interval: at 80 columns it has the room.
			expect(first.has('up ')).toBe(true);
			for (const line of lines) {
				expect(line.length, line).toBeLessThanOrEqual(80);
				expect([...placesOf(line, marks)], line).toEqual([...first]);
			}

			for (const line of lines) expect(line).toMatch(/● live (· every 2s )?· (just now|1s ago)/u);
		},
	);

	test('an uptime of days keeps its width for days: shown where it fits, in its place from poll to poll', async () => {
		const days = 3 * 86_400 + 4 * 3600;
		const lines: string[] = [];
		for (let second = 0; second < 6; second++) lines.push(await headerAt('sim-rig', second, 2000, days));
		for (const line of lines) {
			expect(line).toMatch(/^ rigtop {2}sim-rig · XMRig 6\.26\.0 · rx\/0 · up 3d 04h\s+● live (· every 2s )?· (just now|1s ago)\s*$/u);
			expect(line.indexOf('●')).toBe(lines[0]?.indexOf('●'));
		}

		// Under a day, "up 23h 59m" is the room it takes: the default interval gives way to it (a tester missed the uptime).
		expect(await headerAt('sim-rig', 0, 2000, 7200)).toMatch(/ · up 2h {2,}● live · just now/u);
		// An interval the user chose stays on the line; the uptime then goes where both do not fit.
		const chosen = await headerAt('sim-rig', 0, 3000, 7200);
		expect(chosen).toContain('● live · every 3s · just now');
		expect(chosen.length).toBeLessThanOrEqual(80);
	});

	test('the uptime is shown when its widest form fits, and the ticking age is last', async () => {
		const line = await headerAt('rig-01', 3);
		expect(line).toMatch(/^ rigtop {2}rig-01 · XMRig 6\.26\.0 · rx\/0 · up 53s\s+● live (· every 2s )?· 1s ago\s*$/u);
	});
});
