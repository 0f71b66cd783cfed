import {afterEach, describe, expect, it, vi} from 'vitest';
import {minerActions} from '../../../source/commands/live/actions.js';
import {watchMiner, type WatchedMiner} from '../../../source/session/session.js';
import {startSimulator, type Simulator} from '../../../source/sim/simulator.js';

let simulator: Simulator | null = null;
let miner: WatchedMiner | null = null;
afterEach(async () => {
	miner?.monitor.stop();
	await miner?.client.close();
	await simulator?.stop();
	miner = null;
	simulator = null;
});

const TOKEN = 'actions-token-1';

describe("the dashboard's pause and resume", () => {
	it('a failed pause says what failed in its own words (not "could not change its config")', async () => {
		// A 2.16 miner has no /json_rpc: its answer is the error a pause meets.
		simulator = await startSimulator({dialect: '2', token: TOKEN, restricted: false, seed: 3});
		miner = watchMiner({url: simulator.url, token: TOKEN}, 1000);
		minerActions(miner, false).onPause();
		await vi.waitFor(() => {
			expect(
				miner?.monitor
					.getState()
					.events.map((event) => event.message)
					.join('\n'),
			).toMatch(/^pause failed: could not pause it: /m);
		});
		expect(miner.monitor.getState().events.at(-1)?.message).not.toContain('config');
	});

	it('a pause that works is logged and the miner is polled again', async () => {
		simulator = await startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: 3});
		miner = watchMiner({url: simulator.url, token: TOKEN}, 1000);
		minerActions(miner, false).onPause();
		await vi.waitFor(() => {
			expect(miner?.monitor.getState().events.at(-1)?.message).toBe('pause sent to the miner');
		});
	});

	it('a resume with a token borrowed from a running miner says whose it used', async () => {
		simulator = await startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: 3});
		miner = watchMiner({url: simulator.url, token: TOKEN, tokenFrom: 'the command line of process 4242'}, 1000);
		minerActions(miner, false).onResume();
		await vi.waitFor(() => {
			expect(miner?.monitor.getState().events.at(-1)?.message).toBe(
				'resume sent to the miner (no token given: the one from the command line of process 4242)',
			);
		});
		expect(
			miner.monitor
				.getState()
				.events.map((event) => event.message)
				.join('\n'),
		).not.toContain(TOKEN);
	});
});
