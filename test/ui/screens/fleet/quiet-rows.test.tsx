/**
 * A fleet of ten real miners on loopback (the raw server replaying XMRig 6.26's recorded answers, the same bytes at
 * each poll), read through the real client, reader and monitors: after a round of polls in which one rig changed,
 * only that rig's row is drawn again (the rows' memo, table.tsx). Row renders are counted through the fitted columns'
 * cells, which a row calls each time it is drawn.
 */
import {render} from '../../helpers/ink-testing.js';
import {afterEach, expect, test, vi} from 'vitest';
import {MinerClient} from '../../../../source/miner/client.js';
import {MinerReader} from '../../../../source/miner/reader.js';
import {Monitor} from '../../../../source/monitor/monitor.js';
import {fitFleetColumns, fleetWants, type FleetLine} from '../../../../source/ui/screens/fleet/columns.js';
import {LISTED} from '../../../../source/ui/screens/fleet/order.js';
import {fleetRows, fleetTotals} from '../../../../source/ui/screens/fleet/rows.js';
import {FleetTable} from '../../../../source/ui/screens/fleet/table.js';
import type {FittedColumn} from '../../../../source/ui/table/table.js';
import {readCapture} from '../../../helpers/captures.js';
import {startRawServer, type RawHandler} from '../../../helpers/raw-server.js';

const v6 = 'v6.26';
const notFound = readCapture(`${v6}/get_unknown_path.txt`).raw;

function replaying(summary: string, backends: string): RawHandler {
	const answers: Record<string, string> = {
		'/2/summary': readCapture(`${v6}/${summary}`).raw,
		'/1/summary': readCapture(`${v6}/${summary}`).raw,
		'/2/backends': readCapture(`${v6}/${backends}`).raw,
	};
	return (request, socket) => {
		socket.end(answers[request.target] ?? notFound);
	};
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bound on how long a round of polls may take on a loaded machine, not a timing goal. */
const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 20_000, interval: 10});

test('a fleet of 10 where one rig changed: only that row is drawn again', async () => {
	const monitors: Monitor[] = [];
	const servers = [];
	for (let index = 0; index < 10; index++) {
		const server = await startRawServer(replaying('get_2_summary.txt', 'get_2_backends.txt'));
		cleanups.push(async () => server.close());
		servers.push(server);
		const client = new MinerClient({url: server.url, token: null}, {deadlineMs: 2000});
		cleanups.push(async () => client.close());
		const reader = new MinerReader(client);
		const monitor = new Monitor({read: async (signal) => reader.read(signal), url: server.url, intervalMs: 250, name: `rig-${index}`});
		cleanups.push(() => monitor.stop());
		monitors.push(monitor);
		monitor.start();
	}

	const polled = async (count: number) => {
		const until = monitors.map((monitor) => monitor.getState().polls + count);
		await waitFor(() => {
			monitors.forEach((monitor, index) => expect(monitor.getState().polls).toBeGreaterThanOrEqual(until[index]!));
		});
	};

	await polled(2);
	// The rows as the view makes them, each at the time of its newest poll ("seen just now").
	const rowsNow = () => {
		const states = monitors.map((monitor) => monitor.getState());
		const now = Math.max(...states.map((state) => state.lastSuccessAt ?? 0));
		return {rows: fleetRows(states, now), totals: fleetTotals(states, now)};
	};

	const first = rowsNow();
	const renders = Array.from({length: 10}, () => 0);
	// The columns fitted once, as the view keeps them while nothing they are fitted for changes; the rig column's cell
	// counts the rows drawn.
	const fitted: readonly FittedColumn<FleetLine>[] = fitFleetColumns(fleetWants(first.rows, first.totals), false, LISTED, 98, 1).map(
		({column, width}) => ({
			width,
			column:
				column.id === 'rig'
					? {
							...column,
							cell(line: FleetLine, cellWidth: number) {
								if (line.kind === 'rig') renders[line.row.index]!++;
								return column.cell(line, cellWidth);
							},
						}
					: column,
		}),
	);
	const table = (rows: typeof first.rows, totals: typeof first.totals) => (
		<FleetTable rows={rows} totals={totals} selected={0} fitted={fitted} gap={1} />
	);
	const {lastFrame, rerender, unmount} = render(table(first.rows, first.totals));
	cleanups.push(() => unmount());
	expect(renders).toEqual(Array.from({length: 10}, () => 1));

	// Rig 3 is paused; the others answer the same as before.
	servers[3]!.setHandler(replaying('get_1_summary_paused.txt', 'get_2_backends_paused.txt'));
	await waitFor(() => expect(monitors[3]!.getState().snapshot?.paused).toBe(true));
	await polled(2);
	const next = rowsNow();
	rerender(table(next.rows, next.totals));
	expect(renders).toEqual([1, 1, 1, 2, 1, 1, 1, 1, 1, 1]);
	// Named as the rigs file would name it, the worker id beside the name.
	expect(lastFrame()).toMatch(/rig-3 \(realpeer-v6\) +PAUSED/);
});
