/**
 * The live dashboard (or fleet view) of a session, until the user quits. This module is small and
 * loads with the entry; Ink, React and the screens load through `loadLiveUi`, which the entry starts
 * while discovery still runs, and the first poll is on the wire while they load.
 */
import type {PrefsFile} from '../prefs/prefs.js';
import {UsageError} from './errors.js';
import type {RunPlan} from './options.js';
import type {Session} from './session.js';

/**
 * How long the live dashboard waits for the first poll of every miner before drawing: its first
 * frame then shows the miner's data instead of "connecting" (drawing twice also costs the second
 * frame Ink's render throttle). A miner that is slow to answer gets the dashboard after this.
 */
const FIRST_FRAME_WAIT_MS = 500;

/** Ink, React and the screens: the bulk of rigtop's code, only needed for the live dashboard. */
export async function loadLiveUi() {
	const [{render}, {startLive}] = await Promise.all([import('ink'), import('./live.js')]);
	return {render, startLive};
}

export type LiveUi = Awaited<ReturnType<typeof loadLiveUi>>;

/**
 * Runs the live screens until the user quits; resolves to the exit code. The caller closes the session. `prefs`: what
 * the screens remember between runs (written at quit too), null for none (--demo).
 */
export async function runLive(
	session: Session,
	plan: RunPlan,
	warnings: readonly string[],
	loadingUi: Promise<LiveUi>,
	prefs: PrefsFile | null = null,
): Promise<number> {
	if (session.miners.length === 0) throw new UsageError('no miner to watch');
	// The first poll runs while the rest of the UI code loads.
	session.start();
	const {render, startLive} = await loadingUi;
	await session.firstPolls(FIRST_FRAME_WAIT_MS);
	const live = startLive(session, plan, warnings, () => instance.unmount(), prefs);
	// interactive: rigtop has already decided (a terminal on both ends, else --once), whatever CI says;
	// alternateScreen: the dashboard owns the window, as top and htop do, and the scrollback is untouched.
	const instance = render(live.element, {
		incrementalRendering: true,
		maxFps: 20,
		patchConsole: true,
		interactive: true,
		alternateScreen: true,
	});
	try {
		await instance.waitUntilExit();
	} finally {
		await live.close();
		await prefs?.close();
	}

	return 0;
}
