import {afterEach} from 'vitest';
import {cleanup} from 'ink-testing-library';

// Ink renders nothing live when CI is set; tests and the CLIs they spawn must not inherit it.
delete process.env['CI'];
delete process.env['NO_COLOR'];
process.env['FORCE_COLOR'] = '0';

afterEach(() => {
	cleanup();
});
