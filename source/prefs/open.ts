/** The remembered settings of a live run, opened before the session is built (its interval is the monitors' first). */
import {rigtopStateDir} from '../config/state-dir.js';
import {PrefsFile} from './prefs.js';

/** Reads `$XDG_STATE_HOME/rigtop/prefs.json`; a notice about it goes to stderr and, on screen, among the start-up warnings. */
export function openPrefs(warnings: string[], warn: (line: string) => void): PrefsFile {
	const prefs = new PrefsFile({stateDir: rigtopStateDir()});
	if (prefs.notice !== null) {
		warnings.push(prefs.notice);
		warn(prefs.notice);
	}

	return prefs;
}
