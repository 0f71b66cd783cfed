/**
 * What the dashboard draws of a monitor state, and nothing more: the screen follows the monitor through this
 * selection (`useSelected`), so a poll that changes nothing drawn — a paused miner answering the same, a miner that is
 * down failing again with the same error — schedules no render, no commit and no frame (Ink lays out and writes the
 * whole tree after any commit).
 *
 * Every poll moves the monitor's times and counters (`polls`, `lastAttemptAt`, `lastSuccessAt`, `nextPollAt`,
 * `consecutiveFailures`) and hands out a new error object for the same failure. The selection leaves the times out:
 * the header's age reads the monitor's last good poll itself (`Header`'s `live`), the events and the sparkline's span
 * are dated against the clock at the resolution they show, and the sparkline's store follows the polls on its own.
 * The waiting screen (no values yet) keeps `nextPollAt` and whether a poll failed: it counts down "retrying in 8s".
 */
import type {MinerError} from '../../../miner/errors.js';
import {shareUnchanged} from '../../../monitor/structural-share.js';
import type {MonitorState} from '../../../monitor/types.js';

/** The dashboard's selection of a monitor state (stable: the hook keeps its last answer while the state is the same). */
export function shownState(state: MonitorState): MonitorState {
	const waiting = state.snapshot === null;
	// A sensor reading is dated (`at`) at each poll; the pane draws its values, not its time.
	const sensors = state.snapshot?.sensors;
	return {
		...state,
		...(state.snapshot && sensors ? {snapshot: {...state.snapshot, sensors: {...sensors, at: 0}}} : {}),
		lastSuccessAt: null,
		lastAttemptAt: null,
		nextPollAt: waiting ? state.nextPollAt : null,
		consecutiveFailures: waiting ? Math.min(1, state.consecutiveFailures) : 0,
		polls: 0,
	};
}

/** The previous selection where nothing drawn changed (the same object: no render), else the new one sharing the rest. */
export function shareShown(previous: MonitorState, next: MonitorState): MonitorState {
	const error = previous.error !== null && next.error !== null && sameError(previous.error, next.error) ? previous.error : next.error;
	return shareUnchanged(previous, error === next.error ? next : {...next, error});
}

/** Two failures that read the same on screen (a new MinerError comes with each failed poll). */
function sameError(a: MinerError, b: MinerError): boolean {
	return a === b || (a.kind === b.kind && a.message === b.message && a.hint === b.hint && a.detail === b.detail && a.status === b.status);
}
