import path from 'node:path';
import type {HistoryCommandOptions} from '../../../source/commands/history/history.js';
import type {HistoryStore} from '../../../source/history/store.js';
import {manualClock, openStore, tempDir} from '../../history/helpers.js';

/** A stream to hand a command as its stdout or stderr, and all that was written to it so far. */
export function capture(): {stream: {write: (chunk: string) => string}; text: () => string} {
	let text = '';
	return {stream: {write: (chunk: string) => (text += chunk)}, text: () => text};
}

/**
 * `rigtop history` options that read the store `file`, find miners with discovery kept inside `dir` (nothing found
 * there), and take no token, no config and no time range unless `overrides` gives them.
 */
export function historyOptions(file: string, dir: string, overrides: Partial<HistoryCommandOptions> = {}): HistoryCommandOptions {
	return {
		urls: [],
		since: undefined,
		until: undefined,
		json: false,
		csv: false,
		list: false,
		tokenFile: undefined,
		tokenEnv: undefined,
		tokenFlag: undefined,
		configPath: undefined,
		file,
		discovery: {homeDir: dir, procRoot: path.join(dir, 'no-proc')},
		probeTimeoutMs: 500,
		...overrides,
	};
}

/**
 * An open history store in a fresh temporary folder `dir` (its file is `file`), whose time is `clock`, moved by hand;
 * the folder's removal is pushed onto `cleanups` (which the test file runs after each test).
 */
export function clockedStore(cleanups: (() => Promise<void> | void)[]): {
	store: HistoryStore;
	clock: ReturnType<typeof manualClock>;
	dir: string;
	file: string;
} {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const clock = manualClock();
	const {store} = openStore(temp.dir, {now: clock.now});
	return {store, clock, dir: temp.dir, file: path.join(temp.dir, 'rigtop', 'history.sqlite')};
}
