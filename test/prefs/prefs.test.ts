/** The remembered settings: real files in a temporary state folder. */
import {chmodSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {damagedName, PrefsFile, prefsFrom, readPrefs} from '../../source/prefs/prefs.js';
import {tempDir} from '../config/helpers/fixtures.js';

let temp: ReturnType<typeof tempDir> | null = null;

function stateDir(): string {
	temp = tempDir('rigtop-prefs-');
	return path.join(temp.dir, 'rigtop');
}

afterEach(() => {
	temp?.remove();
	temp = null;
});

describe('the remembered settings', () => {
	test('none yet: the defaults and no notice; a change is written at quit and read back by the next run', async () => {
		const dir = stateDir();
		const first = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		expect(first.initial).toEqual({});
		expect(first.notice).toBeNull();
		first.update({fleet: {sort: 'r10', reversed: true, filter: 'garage'}});
		first.update({intervalMs: 3000});
		first.update({chartSpanMs: 6 * 3_600_000});
		// Not written on each change: the write waits for the changes to settle (or for the quit).
		expect(readdirSync(temp!.dir)).toEqual([]);
		await first.close();
		const text = readFileSync(path.join(dir, 'prefs.json'), 'utf8');
		expect(JSON.parse(text)).toEqual({fleet: {sort: 'r10', reversed: true, filter: 'garage'}, intervalMs: 3000, chartSpanMs: 21_600_000});
		// Written whole through a temporary file: nothing else is left in the folder.
		expect(readdirSync(dir)).toEqual(['prefs.json']);
		const second = new PrefsFile({stateDir: dir});
		expect(second.notice).toBeNull();
		expect(second.initial).toEqual({fleet: {sort: 'r10', reversed: true, filter: 'garage'}, intervalMs: 3000, chartSpanMs: 21_600_000});
		await second.close();
	});

	test('changes that settle are written once, after the delay, without waiting for the quit', async () => {
		const dir = stateDir();
		const prefs = new PrefsFile({stateDir: dir, writeDelayMs: 20});
		for (const intervalMs of [3000, 5000, 10_000]) prefs.update({intervalMs});
		await vi.waitFor(() => {
			expect(JSON.parse(readFileSync(path.join(dir, 'prefs.json'), 'utf8'))).toEqual({intervalMs: 10_000});
		});
		// The same values again: nothing to write.
		prefs.update({intervalMs: 10_000});
		await prefs.close();
		expect(readdirSync(dir)).toEqual(['prefs.json']);
	});

	test('a damaged file is set aside with its bytes before anything is written; one notice says where, early in the line', async () => {
		const dir = stateDir();
		mkdirSync(dir, {recursive: true});
		const file = path.join(dir, 'prefs.json');
		const damaged = '{"intervalMs": 3000,\n "fleet": {"sort": "r10"';
		writeFileSync(file, damaged);
		const prefs = new PrefsFile({stateDir: dir});
		expect(prefs.initial).toEqual({});
		// Set aside at once, as the history store does (history.sqlite.damaged-TIME): renamed next to it, bytes kept.
		const [aside, ...others] = readdirSync(dir);
		expect(others).toEqual([]);
		expect(aside).toMatch(/^prefs\.json\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/u);
		expect(readFileSync(path.join(dir, aside!), 'utf8')).toBe(damaged);
		expect(prefs.notice).toBe(
			`using defaults; kept ${aside} in ${dir}: the remembered settings were damaged (not valid JSON at line 2, column 25 (CloseBraceExpected))`,
		);
		// A one-line event shows 65 characters of it in the fleet at 80 columns: the defaults and the name are there.
		expect(prefs.notice!.slice(0, 65)).toContain(`using defaults; kept ${aside}`);
		prefs.update({intervalMs: 5000});
		await prefs.close();
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({intervalMs: 5000});
		expect(readFileSync(path.join(dir, aside!), 'utf8')).toBe(damaged);
		expect(readdirSync(dir).sort()).toEqual([aside, 'prefs.json'].sort());
		// The next run reads the new file and says nothing.
		expect(new PrefsFile({stateDir: dir}).notice).toBeNull();
		expect(readPrefs(path.join(dir, 'nothing.json'))).toEqual({prefs: {}, trouble: null});
	});

	test('valid JSON that is not an object is damaged too: set aside, not replaced quietly', async () => {
		const dir = stateDir();
		mkdirSync(dir, {recursive: true});
		writeFileSync(path.join(dir, 'prefs.json'), '["r10", 3000]\n');
		const prefs = new PrefsFile({stateDir: dir});
		expect(prefs.initial).toEqual({});
		expect(prefs.notice).toMatch(
			/^using defaults; kept prefs\.json\.damaged-\S+ in .*: the remembered settings were damaged \(not a JSON object\)$/u,
		);
		prefs.update({intervalMs: 3000});
		await prefs.close();
		const aside = readdirSync(dir).find((name) => name.startsWith('prefs.json.damaged-'));
		expect(readFileSync(path.join(dir, aside!), 'utf8')).toBe('["r10", 3000]\n');
	});

	test('a damaged file that cannot be set aside is never written over: one notice, no writes this session', async () => {
		temp = tempDir('rigtop-prefs-');
		// The set-aside name is taken by a folder that is not empty (the clock is held so the name is known): the rename fails.
		const dir = path.join(temp.dir, 'rigtop');
		mkdirSync(dir, {recursive: true});
		writeFileSync(path.join(dir, 'prefs.json'), '{"intervalMs": ');
		const aside = damagedName(path.join(dir, 'prefs.json'), new Date('2026-11-26T08:00:00.000Z'));
		mkdirSync(path.join(aside, 'taken'), {recursive: true});
		vi.useFakeTimers({toFake: ['Date'], now: new Date('2026-11-26T08:00:00.000Z')});
		let prefs: PrefsFile;
		try {
			prefs = new PrefsFile({stateDir: dir, writeDelayMs: 5});
		} finally {
			vi.useRealTimers();
		}

		expect(prefs.notice).toMatch(
			/^using defaults, saving nothing this session: the remembered settings .*prefs\.json are damaged \(not valid JSON at line 1, column 16 \(ValueExpected\)\) and could not be set aside: .*\(EISDIR\)$/u,
		);
		const notices: string[] = [];
		prefs.onNotice = (line) => notices.push(line);
		prefs.update({intervalMs: 3000});
		await prefs.close();
		expect(notices).toEqual([]);
		expect(readFileSync(path.join(dir, 'prefs.json'), 'utf8')).toBe('{"intervalMs": ');
	});

	test('an unreadable file gives one notice and the defaults, never a throw', () => {
		const dir = stateDir();
		// A folder where the file should be: reading it fails as an unreadable file does.
		mkdirSync(path.join(dir, 'prefs.json'), {recursive: true});
		const prefs = new PrefsFile({stateDir: dir});
		expect(prefs.initial).toEqual({});
		expect(prefs.notice).toMatch(
			/^using defaults, saving nothing this session: could not read the remembered settings .*prefs\.json: .*\(EISDIR\)$/u,
		);
	});

	test('an unreadable file that a write could replace (a link loop) is not written over this session', async () => {
		const dir = stateDir();
		mkdirSync(dir, {recursive: true});
		const file = path.join(dir, 'prefs.json');
		symlinkSync('prefs.json', file);
		const prefs = new PrefsFile({stateDir: dir, writeDelayMs: 5});
		expect(prefs.notice).toMatch(/^using defaults, saving nothing this session: could not read .*prefs\.json: .*\(ELOOP\)$/u);
		const notices: string[] = [];
		prefs.onNotice = (line) => notices.push(line);
		prefs.update({intervalMs: 3000});
		await prefs.close();
		expect(notices).toEqual([]);
		expect(readlinkSync(file)).toBe('prefs.json');
		expect(readdirSync(dir)).toEqual(['prefs.json']);
	});

	// root reads through any mode bits: this one needs an ordinary user (the e2e run covers root as nobody elsewhere).
	test.skipIf(process.getuid?.() === 0)('a file without read permission (EACCES) keeps its bytes: no writes this session', async () => {
		const dir = stateDir();
		mkdirSync(dir, {recursive: true});
		const file = path.join(dir, 'prefs.json');
		writeFileSync(file, '{"intervalMs": 3000}\n', {mode: 0o000});
		const prefs = new PrefsFile({stateDir: dir, writeDelayMs: 5});
		expect(prefs.notice).toMatch(
			/^using defaults, saving nothing this session: could not read .*prefs\.json: permission denied \(EACCES\)$/u,
		);
		prefs.update({intervalMs: 5000});
		await prefs.close();
		chmodSync(file, 0o600);
		expect(readFileSync(file, 'utf8')).toBe('{"intervalMs": 3000}\n');
	});

	test('a state folder that cannot be written: one notice, no throw, no retries; the session goes on', async () => {
		temp = tempDir('rigtop-prefs-');
		// The state folder's place is taken by a file: the settings can be neither read nor written there.
		const blocked = path.join(temp.dir, 'state');
		writeFileSync(blocked, 'not a folder');
		const prefs = new PrefsFile({stateDir: path.join(blocked, 'rigtop'), writeDelayMs: 5});
		expect(prefs.notice).toMatch(/^using defaults, saving nothing this session: could not read the remembered settings .*\(ENOTDIR\)$/u);
		const notices: string[] = [];
		prefs.onNotice = (line) => notices.push(line);
		prefs.update({intervalMs: 3000});
		prefs.update({fleet: {sort: 'state', reversed: false, filter: ''}});
		await prefs.close();
		// That notice was the one: the failed write says nothing more.
		expect(notices).toEqual([]);
		expect(prefs.current).toEqual({intervalMs: 3000, fleet: {sort: 'state', reversed: false, filter: ''}});
		expect(readdirSync(temp.dir)).toEqual(['state']);
	});

	test('a write that fails: one notice, once, and no retries', async () => {
		const dir = stateDir();
		// The temporary file's name is taken by a folder: the file reads (there is none) but cannot be written.
		mkdirSync(path.join(dir, `prefs.json.${process.pid}.tmp`), {recursive: true});
		const prefs = new PrefsFile({stateDir: dir, writeDelayMs: 5});
		expect(prefs.notice).toBeNull();
		const notices: string[] = [];
		prefs.onNotice = (line) => notices.push(line);
		prefs.update({intervalMs: 3000});
		await vi.waitFor(() => expect(notices).toHaveLength(1));
		expect(notices[0]).toMatch(/^could not remember the settings in .*prefs\.json: .*\(EISDIR\); they last for this session$/u);
		prefs.update({intervalMs: 5000});
		await prefs.close();
		expect(notices).toHaveLength(1);
		expect(prefs.current).toEqual({intervalMs: 5000});
		expect(readdirSync(dir)).toEqual([`prefs.json.${process.pid}.tmp`]);
	});

	test('values rigtop cannot use are left out, the rest kept', () => {
		expect(prefsFrom({intervalMs: 100, chartSpanMs: -5, fleet: {sort: 'not a sort!', filter: 'x'}})).toEqual({});
		expect(prefsFrom({intervalMs: 2500.4, chartSpanMs: 600_000, fleet: {sort: 'rig', reversed: 'yes', filter: 7}, other: 1})).toEqual({
			intervalMs: 2500,
			chartSpanMs: 600_000,
			fleet: {sort: 'rig', reversed: false, filter: ''},
		});
		expect(prefsFrom([1, 2])).toEqual({});
		expect(prefsFrom(null)).toEqual({});
	});
});
