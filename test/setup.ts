import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, vi} from 'vitest';

// Ink renders nothing live when CI is set; tests and the CLIs they spawn must not inherit it.
delete process.env['CI'];
delete process.env['NO_COLOR'];
process.env['FORCE_COLOR'] = '0';

// rigtop keeps history in $XDG_STATE_HOME/rigtop: the tests and the CLIs they spawn write into a state folder of
// their own, never the user's (a test that needs a particular one sets it for its child).
const stateHome = mkdtempSync(path.join(tmpdir(), 'rigtop-test-state-'));
process.env['XDG_STATE_HOME'] = stateHome;

// vi.waitFor gives its condition 1 s unless told otherwise. Its time limit bounds a hang; it is not a timing goal
// (those are benchmarks): on CI's two cores, with an e2e run beside two unit files, a poll or a frame can come
// seconds late. Every wait gets at least WAIT_MS; a test that passes sooner returns as soon as its condition holds.
const WAIT_MS = 10_000;
const viWaitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback, options) => {
	const given = typeof options === 'number' ? {timeout: options} : (options ?? {});
	return viWaitFor(callback, {...given, timeout: Math.max(given.timeout ?? 0, WAIT_MS)});
}) as typeof vi.waitFor;

afterAll(() => {
	rmSync(stateHome, {recursive: true, force: true});
});
