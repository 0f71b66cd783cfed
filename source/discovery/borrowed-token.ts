/**
 * A token the user did not give: rigtop found it in a running miner's command line or the config file it runs with
 * (discovery's `tokenSourceOf`: a `provenance.token` marked `borrowed`). A config file the user named (`--config`) is
 * given, not borrowed. Reading with it is what the user asked for; a write with it is said first, in one line naming
 * whose it is (the process, the config file), never the token itself.
 */
import {cleanText} from '../text/clean.js';
import type {Source} from './types.js';

/** Whose token a target borrowed ("the command line of process 4242", "/etc/xmrig.json (the config of process 4242)"), or null when the user gave it or none is sent. */
export function borrowedTokenOf(target: {
	readonly token: string | null;
	readonly provenance: {readonly token: Source | null};
}): string | null {
	const source = target.provenance.token;
	if (target.token === null || source === null) return null;
	return source.borrowed === true ? cleanText(source.detail, 200) : null;
}

/** The line said before a write with a borrowed token; `rig` names the rig when there are several. */
export function borrowedTokenLine(whose: string, rig?: string): string {
	return `${rig === undefined ? '' : `${rig}: `}no token was given, so the write uses the one from ${whose} (--token-file or RIGTOP_TOKEN gives one)`;
}
