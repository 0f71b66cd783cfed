import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach} from 'vitest';
import {cleanup} from 'ink-testing-library';

// Ink renders nothing live when CI is set; tests and the CLIs they spawn must not inherit it.
delete process.env['CI'];
delete process.env['NO_COLOR'];
process.env['FORCE_COLOR'] = '0';

// rigtop keeps history in $XDG_STATE_HOME/rigtop: the tests and the CLIs they spawn write into a state folder of
// their own, never the user's (a test that needs a particular one sets it for its child).
const stateHome = mkdtempSync(path.join(tmpdir(), 'rigtop-test-state-'));
process.env['XDG_STATE_HOME'] = stateHome;

afterEach(() => {
	cleanup();
});

afterAll(() => {
	rmSync(stateHome, {recursive: true, force: true});
});
