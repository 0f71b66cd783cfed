/**
 * ink-testing-library's render, with its cleanup after each test of the file that imports it. The cleanup is
 * here, not in test/setup.ts: importing ink-testing-library loads Ink and React (about 0.5 s on Node 22), and the
 * setup file runs before every one of the 200 unit files, most of which render nothing.
 */
import {cleanup, render} from 'ink-testing-library';
import {afterEach} from 'vitest';

afterEach(() => {
	cleanup();
});

export {render};
