import {isTrouble, type Alert} from './types.js';

export type BellOptions = {
	/** Where the BEL character goes: the terminal rigtop draws on. */
	readonly write: (text: string) => void;
	/** Alerts closer together than this ring once (default 2000 ms): ten rigs going down is one ring. */
	readonly minGapMs?: number;
	readonly now?: () => number;
};

const BEL = '\u0007';

/**
 * The --bell sink: rings the terminal bell for trouble (not for an all-clear), at most once per
 * `minGapMs`. BEL moves no cursor, so it can go between Ink's frames without disturbing them.
 */
export function createBell(options: BellOptions): (alert: Alert) => void {
	const minGapMs = options.minGapMs ?? 2000;
	const now = options.now ?? Date.now;
	let lastRing = Number.NEGATIVE_INFINITY;
	return (alert) => {
		if (!isTrouble(alert)) return;
		const at = now();
		if (at - lastRing < minGapMs) return;
		lastRing = at;
		try {
			options.write(BEL);
		} catch {
			// A terminal that went away cannot ring.
		}
	};
}
