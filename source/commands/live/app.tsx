import type {ReactElement} from 'react';
import {lastHourSource} from '../../history/last-hour.js';
import {PollInterval} from '../../monitor/poll-interval.js';
import type {PrefsFile} from '../../prefs/prefs.js';
import type {Session} from '../../session/session.js';
import {App} from '../../ui/app.js';
import type {RunPlan} from '../command.js';
import type {LoadedNotify} from '../notify/setup.js';
import {startAlerting} from './alerting.js';
import {configSlot} from './config-slot.js';
import {fleetBatch, fleetConfigSlot} from './fleet-actions.js';
import {appMiners} from './miners.js';

export type LiveApp = {
	readonly element: ReactElement;
	/** Stops alerting and config sessions; the caller closes the session. */
	close(): Promise<void>;
};

/**
 * The alternate screen hides stderr: repeat the start-up warnings on screen. What was found about one miner goes into
 * its events log (and its history); the rest is the session's own.
 */
function showWarnings(session: Session, startupWarnings: readonly string[]) {
	const noted = new Set<string>();
	for (const miner of session.miners) {
		for (const note of miner.target.notes ?? []) {
			miner.monitor.addEvent('action', 'warn', note);
			noted.add(note);
		}
	}

	for (const line of startupWarnings) if (!noted.has(line)) session.notices.add('warn', line);
}

/** + and - on a dashboard: one interval for every miner of the session, the one they chose remembered (prefs/prefs.ts). */
function sessionInterval(session: Session, plan: RunPlan, prefs: PrefsFile | null) {
	const interval = new PollInterval(
		session.miners.map((watched) => watched.monitor),
		plan.intervalMs,
	);
	// One given with --interval alone is not remembered.
	const stopRemembering = prefs
		? interval.subscribe(() => {
				prefs.update({intervalMs: interval.getState()});
			})
		: () => {};
	if (prefs) prefs.onNotice = (line) => session.notices.add('warn', line);
	return {interval, stopRemembering};
}

/**
 * Everything the live screens need besides rendering: alerting (bell, --on-alert), pause/resume
 * actions, and one config session per miner, created when its config view first opens and sharing
 * the monitor's client (so a token change that applied carries over to the dashboard).
 */
export function startLive(
	session: Session,
	plan: RunPlan,
	startupWarnings: readonly string[],
	quit: () => void,
	prefs: PrefsFile | null = null,
	notify: LoadedNotify | null = null,
): LiveApp {
	showWarnings(session, startupWarnings);
	const alerting = startAlerting(session.miners, {
		bell: plan.bell ? (text) => process.stdout.write(text) : null,
		onAlert: plan.onAlert,
		// Notifications: what the notifier has to say (a channel given up on, the store unwritable) is rigtop's own line
		// in the events pane.
		notify:
			notify === null
				? null
				: {...notify, store: session.recorder?.store ?? null, say: (severity, line) => session.notices.add(severity, line)},
	});
	const configs = configSlot(session, plan);
	const {interval, stopRemembering} = sessionInterval(session, plan, prefs);
	const watched = appMiners(session, plan, interval);

	const element = (
		<App
			miners={watched.miners}
			alerts={alerting.center}
			notices={session.notices}
			lastHour={session.recorder ? lastHourSource(session.recorder) : undefined}
			onQuit={quit}
			color={plan.color}
			readOnly={plan.readOnly}
			interval={interval}
			renderConfig={configs.renderConfig}
			onOpenChange={(index) => {
				session.setOpen(index);
			}}
			fleetBatch={fleetBatch(session)}
			renderFleetConfig={fleetConfigSlot(session)}
			prefs={prefs ?? undefined}
		/>
	);
	return {
		element,
		async close() {
			stopRemembering();
			watched.close();
			configs.close();
			await alerting.close();
		},
	};
}
