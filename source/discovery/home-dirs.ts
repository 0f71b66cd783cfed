/** Home directories to search for a miner's `~/.xmrig.json`: its owner's (from /etc/passwd), then rigtop's user's. */

import {readFile} from 'node:fs/promises';

/** The home directory of a uid from a passwd file (`name:x:uid:gid:gecos:home:shell`), or null. */
export function homeFromPasswd(passwdText: string, uid: number): string | null {
	for (const line of passwdText.split('\n')) {
		const fields = line.split(':');
		if (fields.length >= 7 && fields[2] === String(uid) && fields[5]) return fields[5];
	}
	return null;
}

/** Owner's home first (where XMRig itself looks), then the home of the user running rigtop; no duplicates. */
export async function homeDirsFor(uid: number | null, ownHome: string, passwdPath: string): Promise<string[]> {
	let ownerHome: string | null = null;
	if (uid !== null) {
		const text = await readFile(passwdPath, 'utf8').catch(() => null);
		if (text !== null) ownerHome = homeFromPasswd(text, uid);
	}
	return [...new Set([ownerHome, ownHome].filter((home): home is string => typeof home === 'string' && home !== ''))];
}
