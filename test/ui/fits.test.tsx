/**
 * Screens clip rows, not columns (docs/performance.md, "Rows clipped, columns cut by each line"): no box asks Ink to
 * cut its content at its side edges, because that cut costs every line of every frame; each line is cut by its own
 * Text instead. This is the guard for that choice: the fleet, a rig's dashboard opened from it and the help over
 * both, at any size, with names, pools and errors longer than any terminal, never draw a line wider than the
 * terminal nor more lines than it has (less one, for the cursor's line).
 */
import fc from 'fast-check';
import {describe, test} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import {App, type AppMiner} from '../../source/ui/app.js';
import {createStore, makeEvent, makeSnapshot, makeState, makeThreads, NOW} from './helpers/state.js';
import {expectFits, KEYS, renderTerminal} from './helpers/terminal.js';

const LONG = 'x'.repeat(260);

function fleet(): AppMiner[] {
	const live = (index: number) =>
		createStore(
			makeState({
				name: `rig-${index}-${LONG.slice(0, index * 40)}`,
				snapshot: makeSnapshot({
					workerId: `worker-${index}-${LONG}`,
					threads: makeThreads(index * 20),
					hashrate: {total: [123_456_789 * index, 123_456_789, null]},
					algo: `rx/${LONG}`,
					version: `6.26.0-${LONG}`,
					connection: {pool: `pool-${LONG}.example.org:443`, ip: `203.0.113.7${LONG}`, tls: `TLSv1.3-${LONG}`},
					cpu: {brand: `CPU ${LONG}`},
				}),
				events: Array.from({length: 12}, (_, at) => makeEvent(at, at, `event ${at} ${LONG}`, at % 2 === 0 ? 'warn' : 'info')),
			}),
		);
	const down = createStore(
		makeState({
			name: `rig-down-${LONG}`,
			status: 'down',
			failingSince: NOW - 3 * 86_400_000,
			error: new MinerError('unreachable', `connect ECONNREFUSED ${LONG}`),
		}),
	);
	return [{store: live(1)}, {store: down}, {store: live(3)}, {store: live(0)}];
}

/** Key paths from the fleet: its help, a live rig's dashboard and its help, the stopped rig's dashboard. */
const paths: readonly (readonly string[])[] = [[], ['?'], ['\r'], ['\r', '?'], [KEYS.down, '\r'], [KEYS.down, '\r', '?'], [KEYS.end, '\r']];

describe('every screen stays inside the terminal with lines longer than it', () => {
	test('the fleet, a dashboard from it and the help over both, at any size', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({min: 1, max: 240}),
				fc.integer({min: 3, max: 70}),
				fc.integer({min: 0, max: paths.length - 1}),
				fc.boolean(),
				async (columns, rows, which, color) => {
					const terminal = await renderTerminal(<App miners={fleet()} onQuit={() => {}} now={NOW} color={color} />, {columns, rows});
					for (const key of paths[which] ?? []) await terminal.press(key);
					expectFits(terminal, columns, rows);
					terminal.unmount();
				},
			),
			// Besides the random sizes, always the narrowest fleet with its help and a dashboard's (where the help's
			// keys column once passed the edge), a size where the help scrolls, and one too narrow for a frame's edges.
			{
				numRuns: 40,
				examples: [
					[20, 24, 1, false],
					[20, 24, 3, true],
					[21, 8, 5, false],
					[24, 12, 1, true],
					[2, 5, 1, false],
				],
			},
		);
	});
});
