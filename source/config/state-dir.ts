/**
 * rigtop's state folder, `$XDG_STATE_HOME/rigtop` (default `~/.local/state/rigtop`): the config backups and the
 * history store live in it. A module of its own so that finding the folder loads nothing else (the history store is
 * opened by every run, `--once` included; the backups' code, with node:crypto, is not loaded by
 * `--once`).
 */
import {homedir} from 'node:os';
import path from 'node:path';
import {xdgState} from 'xdg-basedir';

/** `$XDG_STATE_HOME/rigtop`, else `~/.local/state/rigtop`. */
export function rigtopStateDir(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env['XDG_STATE_HOME'];
	let base: string;
	// XDG: a relative path in the variable is invalid and must be ignored.
	if (fromEnv && path.isAbsolute(fromEnv)) base = fromEnv;
	else if (!fromEnv && env === process.env && xdgState && path.isAbsolute(xdgState)) base = xdgState;
	else base = path.join(homedir(), '.local', 'state');
	return path.join(base, 'rigtop');
}
