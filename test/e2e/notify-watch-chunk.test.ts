/**
 * `rigtop watch` runs without a terminal and never loads Ink or React: in the built bundle, nothing the watch command
 * can load (its chunk, what it imports, and what those import, dynamically too) holds React's code.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {chunkClosure, chunkEntry as entry} from './helpers/chunks.js';
import {cliIsBuilt} from './helpers/tmux.js';

const reactCode = (file: string) => readFileSync(file, 'utf8').includes('react.transitional.element');

describe('the built bundle', () => {
	it('rigtop watch can load neither Ink nor React, while the live view does', () => {
		if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
		const watch = chunkClosure([entry('watch')], true);
		// The watch does reach the session, its history and the notifier (the walk is not vacuous).
		expect(watch.has(entry('session'))).toBe(true);
		expect([...watch].some((file) => readFileSync(file, 'utf8').includes('notifications: recovery failed'))).toBe(true);
		expect([...watch].filter(reactCode).map((file) => path.basename(file))).toEqual([]);
		expect([...chunkClosure([entry('live')], true)].some(reactCode)).toBe(true);
	});
});
