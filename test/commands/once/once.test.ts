/**
 * `--once` reads a miner through the monitor's own poll (monitor/monitor.ts `pollOnce`): a failure is what the monitor
 * makes of it, the name is the monitor's, and what is stored in the history is the link state the monitor would show.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {RunPlan} from '../../../source/commands/command.js';
import {runOnce} from '../../../source/commands/once/once.js';
import {attachHistory} from '../../../source/history/attach.js';
import {HistoryStore} from '../../../source/history/store.js';
import {linkName} from '../../../source/history/tiers.js';
import {MinerClient} from '../../../source/miner/client.js';
import type {MinerSnapshot} from '../../../source/miner/model.js';
import {MinerReader, type ReadOptions} from '../../../source/miner/reader.js';
import {Monitor} from '../../../source/monitor/monitor.js';
import type {MonitorState} from '../../../source/monitor/types.js';
import {createSession, type Session} from '../../../source/session/session.js';
import {startFaultServer, type FaultServer} from '../../helpers/fault-server.js';
import {tempDir} from '../../history/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bug below the reader: the miner is read (for real), then something throws what no layer made a MinerError of. */
class BuggyReader extends MinerReader {
	override async read(signal?: AbortSignal, options?: ReadOptions): Promise<MinerSnapshot> {
		await super.read(signal, options);
		throw new TypeError("Cannot read properties of undefined (reading 'total')");
	}
}

/** Collects what is written to it. */
function sink(): NodeJS.WritableStream & {text(): string} {
	let text = '';
	return {
		write(chunk: string) {
			text += chunk;
			return true;
		},
		text: () => text,
	} as unknown as NodeJS.WritableStream & {text(): string};
}

/** A --once session on the fault server, its history in `file`; `buggy`: its miner read through BuggyReader. */
function onceSession(fault: FaultServer, file: string, buggy: boolean): Session {
	const session = attachHistory(createSession([{url: fault.url, token: null}], 2000), {mode: 'once', intervalMs: 2000}, () => undefined, {
		file,
	});
	if (!buggy) return session;
	const [miner] = session.miners;
	if (!miner) throw new Error('no miner');
	return {...session, miners: [{...miner, reader: new BuggyReader(miner.client)}]};
}

/** What the live screens' monitor makes of one poll through this reader. */
async function monitorPoll(reader: MinerReader, url: string): Promise<MonitorState> {
	const monitor = new Monitor({read: async (signal) => reader.read(signal), url, intervalMs: 2000});
	await new Promise<void>((resolve) => {
		const unsubscribe = monitor.subscribe(() => {
			if (monitor.getState().polls === 0) return;
			unsubscribe();
			resolve();
		});
		monitor.start();
	});
	monitor.stop();
	return monitor.getState();
}

describe('rigtop --once', () => {
	it('makes an unexpected throw what the monitor makes of it: incompatible, shown as an error, never stored as down', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const fault = await startFaultServer({workerId: 'bug-rig'});
		cleanups.push(async () => fault.close());

		// The miner answered a --once before: it is in the store, so a failed poll of it would be stored.
		const first = onceSession(fault, file, false);
		expect(await runOnce(first, {json: true} as RunPlan, sink())).toBe(0);
		await first.close();
		// Past the spacing within which a poll close to a stored one is not stored again (¾ of the interval).
		await new Promise((resolve) => setTimeout(resolve, 1600));

		const client = new MinerClient({url: fault.url, token: null});
		cleanups.push(async () => client.close());
		const monitorState = await monitorPoll(new BuggyReader(client), fault.url);
		expect(monitorState.status).toBe('error');
		expect(monitorState.error?.kind).toBe('incompatible');

		const out = sink();
		const session = onceSession(fault, file, true);
		expect(await runOnce(session, {json: true} as RunPlan, out)).toBe(1);
		await session.close();
		const [result] = (JSON.parse(out.text()) as {miners: Array<{name: string; error: {kind: string; message: string} | null}>}).miners;
		expect(result?.error?.kind).toBe(monitorState.error?.kind);
		expect(result?.error?.message).toBe(monitorState.error?.message);
		expect(result?.name).toBe(monitorState.name);

		// Stored as the monitor's state: an error is no outage, so no failed poll (the monitor's recorder stores none).
		const store = HistoryStore.open({file, readOnly: true});
		cleanups.push(() => store.close());
		const links = store.all<{link: number}>('SELECT link FROM sample ORDER BY t').map((row) => linkName(row.link));
		expect(links).toEqual(['live']);
	});
});
