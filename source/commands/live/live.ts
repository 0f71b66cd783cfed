/**
 * `rigtop [URL…]`: the live dashboard (or fleet view) of a session, until the user quits. This module is small; Ink,
 * React and the screens (app.tsx) load through `loadLiveUi`, started while discovery still runs, and the first poll
 * is on the wire while they load.
 */
import {UsageError} from '../../session/errors.js';
import {openPrefs} from '../../prefs/open.js';
import type {PrefsFile} from '../../prefs/prefs.js';
import {buildSession} from '../../session/build.js';
import type {Session} from '../../session/session.js';
import type {Command, RunPlan} from '../command.js';
import {loadNotifyChannels, type LoadedNotify} from '../notify/setup.js';

/** The live command's plan: the session's, and whether --interval was given (else the interval remembered wins). */
export type LivePlan = RunPlan & {readonly intervalGiven: boolean};

/**
 * How long the live dashboard waits for the first poll of every miner before drawing: its first
 * frame then shows the miner's data instead of "connecting" (drawing twice also costs the second
 * frame Ink's render throttle). A miner that is slow to answer gets the dashboard after this.
 */
const FIRST_FRAME_WAIT_MS = 500;

/** Ink, React and the screens: the bulk of rigtop's code, only needed for the live dashboard. */
export async function loadLiveUi() {
	const [{render}, {startLive}] = await Promise.all([import('ink'), import('./app.js')]);
	return {render, startLive};
}

export type LiveUi = Awaited<ReturnType<typeof loadLiveUi>>;

export const run: Command<LivePlan> = async (plan, context) => {
	for (const notice of plan.notices) context.warn(notice);
	const warnings: string[] = [];
	const warn = (line: string) => {
		warnings.push(line);
		context.warn(line);
	};

	// What the live screens remember between runs (prefs/prefs.ts); --demo leaves the state folder alone. --interval wins.
	const prefs = plan.demo ? null : openPrefs(warnings, context.warn);
	// Notifications (--notify…): the channels are read and checked before anything starts (a bad one: exit 2).
	const notify = plan.notify === null ? null : await loadNotifyChannels(plan.notify, warn);
	const remembered = plan.intervalGiven ? undefined : prefs?.initial.intervalMs;
	const livePlan = remembered === undefined ? plan : {...plan, intervalMs: remembered};
	const building = buildSession(livePlan, warn);
	// Discovery mostly waits for the file system (it may read /proc): load the dashboard's code
	// meanwhile. A failure surfaces when runLive awaits it.
	const loadingUi = loadLiveUi();
	loadingUi.catch(() => undefined);
	const session = await building;
	let metrics: {close(): Promise<void>} | null = null;
	try {
		// The exporter's code loads only with --metrics (and for rigtop exporter).
		if (plan.metrics) {
			const {serveSessionMetrics} = await import('../../exporter/serve.js');
			metrics = await serveSessionMetrics(session, {...plan.metrics, version: context.version}, warn);
		}

		return await runLive(session, livePlan, warnings, loadingUi, prefs, notify);
	} finally {
		await metrics?.close();
		await session.close();
	}
};

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
	notify: LoadedNotify | null = null,
): Promise<number> {
	if (session.miners.length === 0) throw new UsageError('no miner to watch');
	// The first poll runs while the rest of the UI code loads.
	session.start();
	const {render, startLive} = await loadingUi;
	await session.firstPolls(FIRST_FRAME_WAIT_MS);
	const live = startLive(session, plan, warnings, () => instance.unmount(), prefs, notify);
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
