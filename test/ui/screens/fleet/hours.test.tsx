import path from 'node:path';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {HOUR_MS, lastHourSource, type HourPoint} from '../../../../source/history/last-hour.js';
import {HistoryRecorder} from '../../../../source/history/recorder.js';
import {HistoryStore} from '../../../../source/history/store.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {hourCells, OUTAGE_MARK} from '../../../../source/ui/screens/fleet/hours.js';
import {tempDir} from '../../../history/helpers.js';
import {createStore, makeSnapshot, makeState} from '../../helpers/state.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
	vi.useRealTimers();
});

const point = (samples: number, live: number, avg: number | null): HourPoint => ({samples, live, avg});

describe('the last-hour cells', () => {
	test('one character per bucket (or group of buckets), oldest left: a level, × where the rig was down, a space where nothing was stored', () => {
		const hour = [
			point(0, 0, null),
			point(0, 0, null),
			point(30, 30, 1000),
			point(30, 30, 2000),
			point(30, 0, null),
			point(30, 0, null),
			point(30, 30, 1000),
			point(30, 30, 2000),
		];
		expect(hourCells(hour, 8)).toBe(`  ▁█${OUTAGE_MARK}${OUTAGE_MARK}▁█`);
		// Two buckets a character: averages weighted by the answered polls.
		// (Both levels are 1 500: a steady rig draws a level line mid-height.)
		expect(hourCells(hour, 4)).toBe(` ▄${OUTAGE_MARK}▄`);
		// Down for half a character's time or more: marked (a minute's outage shows in a 2-minute character); less: a level.
		const mixed = [point(30, 30, 1000), point(30, 0, null), point(30, 30, 3000), point(30, 30, 3000)];
		expect(hourCells(mixed, 2)).toBe(`${OUTAGE_MARK}█`);
		const blip = [point(30, 30, 1000), point(30, 20, 1000), point(30, 30, 3000), point(30, 30, 3000)];
		expect(hourCells(blip, 2)).toBe('▁█');
		expect(hourCells(null, 10)).toBe('');
		expect(hourCells(hour, 0)).toBe('');
		// Never wider than the buckets there are.
		expect(hourCells(hour, 20)).toHaveLength(8);
	});
});

describe('the fleet with history', () => {
	test("each rig's last hour from a real store, where the width allows; absent without history", async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const store = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite')});
		const recorder = new HistoryRecorder(store, {intervalMs: 2000});
		cleanups.push(() => recorder.close());
		const now = Date.now();
		const urls = ['http://127.0.0.1:18601', 'http://127.0.0.1:18602'];
		// garage: an hour of polls every 30 s, down from 40 to 25 minutes ago; attic: watched for the last 15 minutes only.
		for (let at = now - HOUR_MS + 15_000; at < now; at += 30_000) {
			const ago = now - at;
			const down = ago < 40 * 60_000 && ago > 25 * 60_000;
			recorder.recordRead(0, {
				url: urls[0]!,
				configured: 'garage',
				at,
				snapshot: down
					? null
					: makeSnapshot({id: 'garage-id', workerId: 'garage', hashrate: {total: [4000 + (ago % 7) * 100, 4000, 4000]}}),
				link: down ? 'down' : 'live',
			});
			if (ago < 15 * 60_000) {
				recorder.recordRead(1, {
					url: urls[1]!,
					configured: 'attic',
					at,
					snapshot: makeSnapshot({id: 'attic-id', workerId: 'attic', hashrate: {total: [900 + (ago % 5) * 20, 900, 900]}}),
					link: 'live',
				});
			}
		}

		expect(recorder.flush()).toBe(true);
		const miners: AppMiner[] = ['garage', 'attic'].map((name, index) => ({
			store: createStore(makeState({name, url: urls[index]!, snapshot: makeSnapshot({workerId: name})})),
		}));
		const terminal = await renderTerminal(<App miners={miners} lastHour={lastHourSource(recorder)} onQuit={() => {}} color={false} />, {
			columns: 200,
			rows: 24,
		});
		const lines = linesOf(terminal.frame());
		const heading = lines[1] ?? '';
		const column = heading.indexOf('last hour');
		expect(column).toBeGreaterThan(0);
		const cell = (line: string) => line.slice(column, column + 30);
		const garage = cell(lines.find((line) => line.includes('garage')) ?? '');
		const attic = cell(lines.find((line) => line.includes('attic')) ?? '');
		// 30 characters of 2 minutes: garage down in the middle, levels on both sides; attic only at the end (its
		// 15 minutes, or up to 10 more: the store reads the 10-minute summary its first polls fall in for that bucket).
		expect(garage).toMatch(/^[▁-█]{9,11}×{7,8}[▁-█]{11,13}$/);
		expect(attic).toMatch(/^ {15,23}[▁-█]{7,15}$/);

		// At 100 columns there is no room: the column is dropped, nothing is cut.
		terminal.resize(100, 24);
		await vi.waitFor(() => expect(linesOf(terminal.frame()).every((line) => line.length <= 100)).toBe(true));
		expect(terminal.frame()).not.toContain('last hour');
		expect(terminal.frame()).not.toContain(OUTAGE_MARK);
		terminal.unmount();

		// Without history: no column at any width.
		const bare = await renderTerminal(<App miners={miners} onQuit={() => {}} color={false} />, {columns: 200, rows: 24});
		expect(linesOf(bare.frame())[1]).not.toContain('last hour');
		expect(linesOf(bare.frame())[1]).toMatch(/15m +shares/);
	});
});
