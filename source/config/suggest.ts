/**
 * "Did you mean …?" for a key path a config does not have: the existing dotted paths closest to the one typed
 * (Levenshtein distance, `leven`), at most `limit`, nearest first, then in document order.
 */
import leven from 'leven';
import {showPath} from './json-values.js';

export function closestKeys(typed: string, existing: readonly string[], limit = 3): string[] {
	const wanted = typed.toLowerCase();
	// A typo of a third of the path, and at least two edits (cpu.hugepages → cpu.huge-pages is one).
	const reach = Math.max(2, Math.floor(wanted.length / 3));
	return existing
		.map((path, order) => ({path, order, distance: leven(wanted, path.toLowerCase())}))
		.filter((candidate) => candidate.distance <= reach)
		.sort((a, b) => a.distance - b.distance || a.order - b.order)
		.slice(0, limit)
		.map((candidate) => candidate.path);
}

/** " (did you mean a, b or c?)", or '' when nothing is close. */
export function didYouMean(typed: string, existing: readonly string[]): string {
	const close = closestKeys(typed, existing);
	if (close.length === 0) return '';
	const shown = close.map((key) => showPath(key));
	const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
	return `: did you mean ${list}?`;
}
