/**
 * rigtop's command words, below cli/ so that what reads a word of the command line elsewhere (a rigs file's names,
 * session/build.ts) can tell a mistyped command from a rig's name without importing cli/ (test/layers.test.ts).
 */
import leven from 'leven';

/** rigtop's commands, the first word after `rigtop`. */
const COMMANDS = ['history', 'config', 'exporter', 'pause', 'resume', 'watch', 'notify'] as const;

/**
 * The command a word that is no address is a typo of (`histroy` → history), or null. A word with a dot, a colon
 * or a slash is meant as an address, and keeps the message about what it lacks.
 */
export function closestCommand(word: string): string | null {
	if (/[.:/[\]]/.test(word)) return null;
	const typed = word.toLowerCase();
	let best: {command: string; distance: number} | null = null;
	for (const command of COMMANDS) {
		const distance = leven(typed, command);
		if (distance <= 2 && (best === null || distance < best.distance)) best = {command, distance};
	}

	return best?.command ?? null;
}
