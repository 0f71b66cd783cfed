import path from 'node:path';
import type {ReactElement} from 'react';
import {ConfigSession} from '../config/session.js';
import {memoryCapacity, SessionHistory} from '../history/source.js';
import {App, type ConfigTarget} from '../ui/app.js';
import {ConfigView} from '../ui/config/config-view.js';
import {startAlerting} from './alerting.js';
import {minerActions} from './live-actions.js';
import type {RunPlan} from './options.js';
import type {Session, WatchedMiner} from './session.js';

export type LiveApp = {
	readonly element: ReactElement;
	/** Stops alerting and config sessions; the caller closes the session. */
	close(): Promise<void>;
};

/**
 * Everything the live screens need besides rendering: alerting (bell, --on-alert), pause/resume
 * actions, and one config session per miner, created when its config view first opens and sharing
 * the monitor's client (so a token change that applied carries over to the dashboard).
 */
export function startLive(session: Session, plan: RunPlan, startupWarnings: readonly string[], quit: () => void): LiveApp {
	const [first] = session.miners;
	// The alternate screen hides stderr: repeat the start-up warnings in the events log.
	if (first) for (const line of startupWarnings) first.monitor.addEvent('action', 'warn', line);

	const alerting = startAlerting(session.miners, {
		bell: plan.bell ? (text) => process.stdout.write(text) : null,
		onAlert: plan.onAlert,
	});
	const configSessions = new Map<number, ConfigSession>();
	const configFor = (index: number, miner: WatchedMiner): ConfigSession => {
		let config = configSessions.get(index);
		if (!config) {
			config = new ConfigSession({
				client: miner.client,
				readOnly: plan.readOnly,
				tokenGiven: miner.target.token !== null,
				...(session.stateDir === undefined ? {} : {backupDir: path.join(session.stateDir, 'backups')}),
				onApplied(result, action) {
					miner.monitor.pollNow();
					const severity = result.status === 'done' && result.allApplied ? 'info' : 'warn';
					miner.monitor.addEvent('action', severity, `config ${action === 'undo' ? 'undo' : 'apply'}: ${result.message}`);
				},
			});
			configSessions.set(index, config);
		}

		return config;
	};

	const renderConfig = ({index, store}: ConfigTarget, onBack: () => void) => {
		const miner = session.miners[index];
		if (!miner) return null;
		return <ConfigView session={configFor(index, miner)} minerName={store.getState().name} onBack={onBack} readOnly={plan.readOnly} />;
	};

	// What the chart, the event view, the sparkline and the events panes read: the store, or with history off this
	// session's memory (history/source.ts).
	const histories: SessionHistory[] = [];
	const miners = session.miners.map((watched, slot) => {
		const history = new SessionHistory({
			monitor: watched.monitor,
			slot,
			recorder: session.history ?? null,
			intervalMs: plan.intervalMs,
			capacity: memoryCapacity(session.miners.length),
		});
		histories.push(history);
		return {store: watched.monitor, history, ...minerActions(watched, plan.readOnly)};
	});
	const onOpenChange = (index: number | null) => {
		session.setOpen(index);
	};

	const element = (
		<App
			miners={miners}
			alerts={alerting.center}
			onQuit={quit}
			color={plan.color}
			renderConfig={renderConfig}
			onOpenChange={onOpenChange}
		/>
	);
	return {
		element,
		async close() {
			for (const history of histories) history.close();
			for (const config of configSessions.values()) config.dispose();
			await alerting.close();
		},
	};
}
