import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../fixtures/config');

/** A fixture file's text, byte for byte. */
export function fixture(relative: string): string {
	return readFileSync(path.join(root, relative), 'utf8');
}

/** The body of a recorded `curl -i` answer (everything after the blank line). */
export function bodyOf(capture: string): string {
	const at = capture.indexOf('\r\n\r\n');
	return at === -1 ? '' : capture.slice(at + 4);
}

/** The 6.26 GET /1/config body (token "testtoken", pool pass "x"). */
export const v6Config = (): string => bodyOf(fixture('v6.26/get_1_config.txt'));
/** The 2.16 GET /1/config body. */
export const v216Config = (): string => bodyOf(fixture('v2.16/get_1_config.txt'));
/** The 2.14 config file (older layout). */
export const v214Config = (): string => fixture('v2.14-configs/config_main_as_written.json');

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'rigtop-config-'): {dir: string; remove: () => void} {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	return {dir, remove: () => rmSync(dir, {recursive: true, force: true})};
}
