/**
 * A store that cannot be opened or stops taking writes: history turns off with one line, nothing throws, nothing
 * loops, and monitoring goes on. Real folders (under /proc, behind a dangling symlink) and real SQLite refusals.
 */
import {existsSync, symlinkSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {createSession} from '../../source/session/session.js';
import {attachHistory} from '../../source/history/attach.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {HistoryStore} from '../../source/history/store.js';
import {classify} from '../../source/history/trouble.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {goodSample, observation, sixFacts, tempDir, until} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

function temp(): string {
	const made = tempDir();
	cleanups.push(made.cleanup);
	return made.dir;
}

/** Opens a store at `file`; the store, its notices, and that the store does nothing but say so. */
function openOff(file: string) {
	const notices: string[] = [];
	const store = HistoryStore.open({file, notify: (line) => notices.push(line)});
	cleanups.push(() => store.close());
	const writer = new HistoryWriter(store);
	expect(writer.write([observation(goodSample(Date.now(), 1000), sixFacts('id-a'))], [])).toBe(false);
	expect(new HistoryReader(store).miners()).toEqual([]);
	const recorder = new HistoryRecorder(store, {intervalMs: 1000});
	recorder.recordRead(0, {url: 'http://127.0.0.1:1', configured: 'rig', at: Date.now(), snapshot: null, link: 'down'});
	expect(recorder.flush()).toBe(false);
	recorder.close();
	return {store, notices};
}

describe('a state folder where nothing can be made', () => {
	// Node's recursive mkdir spun here forever at a full core (before the fix, this test hung).
	it.skipIf(!existsSync('/proc/self'))('under /proc: history off at once with one line naming the folder and the fix', () => {
		const {store, notices} = openOff('/proc/rigtop-nope/rigtop/history.sqlite');
		expect(store.enabled).toBe(false);
		expect(notices).toEqual(['history off: the folder /proc/rigtop-nope cannot be made (ENOENT); set XDG_STATE_HOME to a writable folder']);
		expect(store.offReason).toBe(notices[0]);
	});

	it('behind a symlink to a disk that is not mounted: the same, and nothing is made at the link’s target', () => {
		const dir = temp();
		const state = path.join(dir, 'state');
		symlinkSync(path.join(dir, 'unmounted', 'state'), state);
		const {store, notices} = openOff(path.join(state, 'rigtop', 'history.sqlite'));
		expect(store.enabled).toBe(false);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/^history off: the folder .*\/state cannot be made \(EEXIST\); set XDG_STATE_HOME to a writable folder$/);
		expect(existsSync(path.join(dir, 'unmounted'))).toBe(false);
	});

	it('read only (rigtop history): says no history is stored, makes nothing', () => {
		const store = HistoryStore.open({file: '/proc/rigtop-nope/rigtop/history.sqlite', readOnly: true});
		expect(store.enabled).toBe(false);
		expect(store.offReason).toBe('no history is stored yet (/proc/rigtop-nope/rigtop/history.sqlite does not exist)');
	});
});

describe('a store that stops taking writes mid-run', () => {
	it("read only (SQLITE_READONLY): one line in the session's notices, the miner still polled, nothing kept waiting", async () => {
		const file = path.join(temp(), 'rigtop', 'history.sqlite');
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'ro-rig'});
		cleanups.push(async () => sim.stop());
		const warned: string[] = [];
		const session = attachHistory(
			createSession([{url: sim.url, token: null}], 250),
			{mode: 'live', intervalMs: 250},
			(line) => warned.push(line),
			{file},
		);
		cleanups.push(async () => session.close());
		const recorder = session.recorder;
		const [miner] = session.miners;
		if (!recorder || !miner) throw new Error('no history or no miner');
		session.start();
		await until(
			() => {
				recorder.flush();
				return recorder.writtenMinerOf(0) !== null;
			},
			5000,
			'a first poll stored',
		);
		// The disk turns read-only under rigtop: SQLite itself refuses every write from now on.
		recorder.store.db?.exec('PRAGMA query_only = 1');
		miner.monitor.addEvent('action', 'info', 'an event to write');
		await until(() => !recorder.enabled, 5000, 'history off');
		const polls = miner.monitor.getState().polls;
		await until(() => miner.monitor.getState().polls >= polls + 4, 5000, 'four more polls');
		expect(miner.monitor.getState().status).toBe('live');
		expect(warned).toEqual([]);
		expect(session.notices.getState().map((notice) => notice.message)).toEqual([
			expect.stringMatching(
				/^history off: .*history\.sqlite cannot be written \(.*readonly.*\); fix its folder's permissions or set XDG_STATE_HOME$/,
			),
		]);
		expect(miner.monitor.getState().events.some((event) => event.message.startsWith('history off'))).toBe(false);
		// Nothing waits for a store that is off: the polls since are dropped, not kept to be tried again.
		recorder.flush();
		expect(recorder.flush()).toBe(true);
	}, 20_000);

	it('classifies what SQLite and the file system say: full, not writable, anything else', () => {
		// SQLite's extended codes: SQLITE_FULL, SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, SQLITE_CANTOPEN.
		expect(classify({errcode: 13})).toBe('full');
		expect(classify({errcode: 8 | (4 << 8)})).toBe('not-writable');
		expect(classify({errcode: 10 | (3 << 8)})).toBe('other');
		expect(classify(Object.assign(new Error('disk I/O error: no space left on device'), {errcode: 10 | (3 << 8)}))).toBe('full');
		expect(classify({errcode: 10 | (4 << 8)})).toBe('other');
		expect(classify({errcode: 14})).toBe('not-writable');
		expect(classify({code: 'ENOSPC'})).toBe('full');
		expect(classify({code: 'EROFS'})).toBe('not-writable');
		expect(classify({code: 'ENOENT'})).toBe('not-writable');
	});
});
