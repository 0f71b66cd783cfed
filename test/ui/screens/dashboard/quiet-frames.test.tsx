/**
 * A frame only when what it shows changed: the dashboard watching a real miner on loopback (the raw server replaying
 * XMRig 6.26's recorded answers byte for byte, so every poll answers the same), read through the real client, reader
 * and monitor. React commits are counted with a Profiler around the screen, Ink's frames as written to the terminal.
 */
import {Profiler} from 'react';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {MinerClient} from '../../../../source/miner/client.js';
import {MinerReader} from '../../../../source/miner/reader.js';
import {Monitor} from '../../../../source/monitor/monitor.js';
import {SensorSampler} from '../../../../source/sensors/sampler.js';
import {withSensors} from '../../../../source/session/session.js';
import {Dashboard} from '../../../../source/ui/screens/dashboard/view.js';
import {readCapture} from '../../../helpers/captures.js';
import {startRawServer, type RawHandler, type RawServer} from '../../../helpers/raw-server.js';
import {renderTerminal} from '../../helpers/terminal.js';
import {fixture} from '../../../sensors/helpers.js';

const v6 = 'v6.26';
const notFound = readCapture(`${v6}/get_unknown_path.txt`).raw;

/** A 6.26 miner answering its recorded summary and backends, the same bytes at every poll. */
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

const paused = replaying('get_1_summary_paused.txt', 'get_2_backends_paused.txt');
const mining = replaying('get_2_summary.txt', 'get_2_backends.txt');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bound on how long a count of polls may take on a loaded machine, not a timing goal. */
const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 10});

async function watch(server: RawServer, sensors: SensorSampler | null = null) {
	const client = new MinerClient({url: server.url, token: null}, {deadlineMs: 2000});
	cleanups.push(async () => client.close());
	const reader = new MinerReader(client);
	// A short ring of recent samples, so the sparkline (no history here: the monitor's own samples) is full after a
	// few polls: a paused miner's line of zeros then draws the same at each poll.
	const monitor = new Monitor({
		read: async (signal) => withSensors(sensors, await reader.read(signal)),
		url: server.url,
		intervalMs: 250,
		maxBackoffMs: 500,
		recentSize: 4,
	});
	cleanups.push(() => monitor.stop());
	let commits = 0;
	const terminal = await renderTerminal(
		<Profiler
			id="dashboard"
			onRender={() => {
				commits++;
			}}
		>
			<Dashboard store={monitor} caps={{quit: () => {}}} />
		</Profiler>,
	);
	cleanups.push(() => terminal.unmount());
	monitor.start();
	/** Waits for `count` more polls of the monitor. */
	const polls = async (count: number) => {
		const until = monitor.getState().polls + count;
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(until));
		// The poll's notification has been handled by React (a sync update, flushed in a microtask).
		await new Promise((resolve) => setImmediate(resolve));
	};

	return {
		monitor,
		terminal,
		polls,
		get commits() {
			return commits;
		},
	};
}

describe('a frame only when what it shows changed', () => {
	test('a paused miner answering the same at each poll: no commit and no frame after the first polls', async () => {
		const server = await startRawServer(paused);
		cleanups.push(async () => server.close());
		const view = await watch(server);
		await view.terminal.waitFor('PAUSED');
		// The ring of samples fills (4 polls), and the header reads "just now" after each poll.
		await view.polls(6);
		const commits = view.commits;
		const frames = view.terminal.frames.length;
		await view.polls(8);
		expect(view.commits - commits).toBe(0);
		expect(view.terminal.frames.length - frames).toBe(0);
		expect(view.terminal.frame()).toContain('● PAUSED · just now');
	});

	test("a paused miner on this machine, its sensors reading the same: no frame either (each reading's time is not drawn)", async () => {
		const server = await startRawServer(paused);
		cleanups.push(async () => server.close());
		const view = await watch(server, new SensorSampler({root: fixture('coretemp-2pkg')}));
		await view.terminal.waitFor(/PAUSED[\s\S]*58°C \/ max 84°C/);
		await view.polls(6);
		const commits = view.commits;
		const frames = view.terminal.frames.length;
		await view.polls(8);
		expect(view.monitor.getState().snapshot?.sensors?.temps.length).toBeGreaterThan(0);
		expect(view.commits - commits).toBe(0);
		expect(view.terminal.frames.length - frames).toBe(0);
	});

	test('a poll that changes what is shown still draws it: the miner resumes', async () => {
		const server = await startRawServer(paused);
		cleanups.push(async () => server.close());
		const view = await watch(server);
		await view.terminal.waitFor('PAUSED');
		await view.polls(6);
		const commits = view.commits;
		server.setHandler(mining);
		await view.terminal.waitFor('● no pool');
		expect(view.commits).toBeGreaterThan(commits);
		expect(view.terminal.frame()).not.toContain('PAUSED');
	});

	test('a miner that is down, failing each poll with the same error: the screen is drawn only when its text changes', async () => {
		const server = await startRawServer(paused);
		cleanups.push(async () => server.close());
		const view = await watch(server);
		await view.terminal.waitFor('PAUSED');
		await view.polls(2);
		await server.stopListening();
		await view.terminal.waitFor('● down since');
		await view.polls(1);
		const commits = view.commits;
		const frames = view.terminal.frames.length;
		const shown = view.terminal.frame();
		// Refused at each poll (backing off to 0.5 s): a new error object and new times each time, the same words.
		await view.polls(4);
		expect(view.monitor.getState().status).toBe('down');
		expect(view.commits - commits).toBe(0);
		expect(view.terminal.frames.length - frames).toBe(0);
		expect(view.terminal.frame()).toBe(shown);
		// It answers again: drawn at once.
		await server.listen();
		await view.terminal.waitFor('back up');
		expect(view.commits).toBeGreaterThan(commits);
	});

	test('held still (f): polls that change the miner draw nothing until the screen goes on', async () => {
		const server = await startRawServer(paused);
		cleanups.push(async () => server.close());
		const view = await watch(server);
		await view.terminal.waitFor('PAUSED');
		await view.polls(2);
		await view.terminal.press('f', 'FROZEN');
		await view.polls(1);
		const commits = view.commits;
		const frames = view.terminal.frames.length;
		server.setHandler(mining);
		await view.polls(4);
		expect(view.monitor.getState().snapshot?.paused).toBe(false);
		expect(view.commits - commits).toBe(0);
		expect(view.terminal.frames.length - frames).toBe(0);
		await view.terminal.press('f', '● no pool');
		expect(view.commits).toBeGreaterThan(commits);
	});
});
