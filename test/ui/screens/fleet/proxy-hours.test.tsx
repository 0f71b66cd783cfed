import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {HOUR_MS, lastHourSource} from '../../../../source/history/last-hour.js';
import {HistoryRecorder} from '../../../../source/history/recorder.js';
import {sampleOf} from '../../../../source/history/samples.js';
import {HistoryStore} from '../../../../source/history/store.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {tempDir} from '../../../history/helpers.js';
import {makeProxySnapshot} from '../../../helpers/proxy-snapshot.js';
import {createStore, makeState} from '../../helpers/state.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a proxy in the fleet with history', () => {
	test("a proxy poll is stored with its 1 min rate where a miner's 10 s goes, its 10 min where the 15 min goes", () => {
		const sample = sampleOf(makeProxySnapshot('px', {hashrate: [7000, 8000, 9000, 9000, 9000]}), 1000);
		expect(sample).toMatchObject({hr10: 7000, hr60: null, hr15: 8000, good: 400, total: 408, pool: 1});
	});

	test("its last hour in the fleet's history column, from a real store", async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const store = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite')});
		const recorder = new HistoryRecorder(store, {intervalMs: 2000});
		cleanups.push(() => recorder.close());
		const now = Date.now();
		const url = 'http://127.0.0.1:18611';
		for (let at = now - HOUR_MS + 15_000; at < now; at += 30_000) {
			const ago = now - at;
			const rate = 9000 + (ago % 7) * 300;
			recorder.recordRead(0, {
				url,
				configured: 'px',
				at,
				snapshot: makeProxySnapshot('px', {hashrate: [rate, 9000, 9000, 9000, 9000]}),
				link: 'live',
			});
		}

		expect(recorder.flush()).toBe(true);
		// The store's answer, as the fleet's column reads it.
		const hour = lastHourSource(recorder).lastHour(0, now, 30);
		expect(hour?.filter((point) => point.avg !== null).length).toBeGreaterThanOrEqual(28);
		const url2 = 'http://127.0.0.1:18612';
		// And as the fleet draws it beside another rig.
		const two: AppMiner[] = [
			{store: createStore(makeState({name: 'px', url, snapshot: makeProxySnapshot('px')}))},
			{store: createStore(makeState({name: 'other', url: url2, snapshot: makeProxySnapshot('other')}))},
		];
		const fleet = await renderTerminal(<App miners={two} lastHour={lastHourSource(recorder)} onQuit={() => {}} color={false} />, {
			columns: 200,
			rows: 24,
		});
		await fleet.waitFor(/last hour/);
		const lines = linesOf(fleet.frame());
		const column = (lines[1] ?? '').indexOf('last hour');
		await fleet.waitFor(/px .*[▁-█]{20}/);
		const cell = (linesOf(fleet.frame()).find((line) => / px /.test(line)) ?? '').slice(column, column + 30);
		expect(cell).toMatch(/^[▁-█]{28,30}$/);
	});
});
