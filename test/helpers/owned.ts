import {afterEach} from 'vitest';

/** Something a test starts that must end with it: an app, session or server (close) or a simulator (stop). */
export type Closable = {close(): unknown} | {stop(): unknown};

/**
 * Registers an afterEach in the calling file that ends, newest first, all a test passed to the returned `own` (close,
 * or stop for a simulator), awaiting each; `own` hands back what it was given.
 */
export function ownedForEachTest(): <T extends Closable>(thing: T) => T {
	const owned: Closable[] = [];
	afterEach(async () => {
		for (const thing of owned.splice(0).reverse()) await ('close' in thing ? thing.close() : thing.stop());
	});
	return (thing) => {
		owned.push(thing);
		return thing;
	};
}
