import path from 'node:path';
import type {ReactElement} from 'react';
import {appliedEvent} from '../../config/apply.js';
import {ConfigSession} from '../../config/session.js';
import {PollInterval} from '../../monitor/poll-interval.js';
import {memoryCapacity, SessionHistory, WorkerHistory} from '../../history/source.js';
import {HistoryStores} from '../../history/stores.js';
import {StoredByOthers, WithStoredEvents} from '../../history/stored-events.js';
import {App, type ConfigTarget} from '../../ui/app.js';
import {Batch, batchWriter} from '../../batch/batch.js';
import {ConfigView} from '../../ui/screens/config/view.js';
import {wordsFor, type ConfigSubject} from '../../config/words.js';
import {defaultBackupDir} from '../../config/backups.js';
import {FleetConfigSession} from '../../batch/fleet-config.js';
import type {RigResult} from '../../batch/types.js';
import {ADD_HINT, FleetConfigView} from '../../ui/screens/fleet-config/view.js';
import {lastHourSource} from '../../history/last-hour.js';
import {rigLabel} from '../../ui/screens/fleet/columns.js';
import {rigTags} from '../../ui/screens/fleet/rows.js';
import {startAlerting} from './alerting.js';
import {minerActions} from './actions.js';
import type {PrefsFile} from '../../prefs/prefs.js';
import type {RunPlan} from '../command.js';
import type {Session, WatchedMiner} from '../../session/session.js';

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
export function startLive(
	session: Session,
	plan: RunPlan,
	startupWarnings: readonly string[],
	quit: () => void,
	prefs: PrefsFile | null = null,
): LiveApp {
	// The alternate screen hides stderr: repeat the start-up warnings on screen. What was found about one miner goes
	// into its events log (and its history); the rest is the session's own.
	const noted = new Set<string>();
	for (const miner of session.miners) {
		for (const note of miner.target.notes ?? []) {
			miner.monitor.addEvent('action', 'warn', note);
			noted.add(note);
		}
	}

	for (const line of startupWarnings) if (!noted.has(line)) session.notices.add('warn', line);

	const alerting = startAlerting(session.miners, {
		bell: plan.bell ? (text) => process.stdout.write(text) : null,
		onAlert: plan.onAlert,
	});
	// What a config view configures: an xmrig-proxy when its last read or the rigs file says so; its words then say so.
	const subjectOf = (miner: WatchedMiner): ConfigSubject =>
		miner.monitor.getState().snapshot?.proxy != null || miner.target.kind === 'proxy' ? 'proxy' : 'miner';
	const configSessions = new Map<number, ConfigSession>();
	const configFor = (index: number, miner: WatchedMiner): ConfigSession => {
		let config = configSessions.get(index);
		if (!config) {
			config = new ConfigSession({
				client: miner.client,
				readOnly: plan.readOnly,
				tokenGiven: miner.target.token !== null,
				tokenFrom: miner.target.tokenFrom,
				...(session.stateDir === undefined ? {} : {backupDir: path.join(session.stateDir, 'backups')}),
				onApplied(result, action) {
					miner.monitor.pollNow();
					const event = appliedEvent(result, action);
					miner.monitor.addEvent('action', event.severity, wordsFor(subjectOf(miner), event.text));
				},
			});
			configSessions.set(index, config);
		}

		return config;
	};

	// The config views open now (one miner's each): a visit begins when its slot is first drawn after `c` and ends when
	// the view leaves (onBack, onQuit: the only ways out of it). Opening the visit reads the config afresh, here and not
	// in the view, which only reads its session (the undo of the last apply stays for the whole rigtop session).
	const visiting = new Set<number>();
	const renderConfig = ({index, store}: ConfigTarget, onBack: () => void, onQuit: () => void) => {
		const miner = session.miners[index];
		if (!miner) return null;
		const config = configFor(index, miner);
		if (!visiting.has(index)) {
			visiting.add(index);
			void config.open();
		}

		const leave = (then: () => void) => () => {
			visiting.delete(index);
			then();
		};

		return (
			<ConfigView
				session={config}
				minerName={store.getState().name}
				subject={subjectOf(miner)}
				caps={{back: leave(onBack), quit: leave(onQuit)}}
				readOnly={plan.readOnly}
			/>
		);
	};

	// + and - on a dashboard: one interval for every miner of the session.
	const interval = new PollInterval(
		session.miners.map((watched) => watched.monitor),
		plan.intervalMs,
	);
	// The interval + and - chose is remembered (prefs/prefs.ts); one given with --interval alone is not.
	const stopRemembering = prefs
		? interval.subscribe(() => {
				prefs.update({intervalMs: interval.getState()});
			})
		: () => {};
	if (prefs) prefs.onNotice = (line) => session.notices.add('warn', line);
	// What the chart, the event view, the sparkline and the events panes read: the store, or with history off this
	// session's memory (history/source.ts).
	// The screens read them through each miner's stores (history/stores.ts), made before any screen subscribes to the
	// monitor: on a poll they read first, and the screen draws the poll and what was read for it in one frame.
	const histories: HistoryStores[] = [];
	// The fleet's feed: one look per poll interval for the whole fleet at what other processes stored (stored-events.ts).
	const recorder = session.recorder ?? null;
	const others = recorder && session.miners.length > 1 ? new StoredByOthers(recorder, interval.getState) : null;
	others?.start();
	const miners = session.miners.map((watched, slot) => {
		const source = new SessionHistory({
			monitor: watched.monitor,
			slot,
			recorder: session.recorder ?? null,
			intervalMs: interval.getState,
			capacity: memoryCapacity(session.miners.length),
		});
		const capacity = memoryCapacity(session.miners.length);
		// A proxy's worker opened on the chart or the event view: a history of its own (history/source.ts).
		const workerSource = (worker: string) =>
			new WorkerHistory(source, {monitor: watched.monitor, slot, recorder: session.recorder ?? null, capacity, worker});
		const history = new HistoryStores(source, watched.monitor, workerSource);
		histories.push(history);
		return {
			store: watched.monitor,
			// The fleet's feed: what `rigtop config set`, `rigtop pause` or another rigtop stored for this rig, too.
			...(others && recorder ? {feed: new WithStoredEvents(watched.monitor, others, () => recorder.writtenMinerOf(slot))} : {}),
			history,
			tokenGiven: watched.target.token !== null,
			...(watched.target.tokenFrom === undefined ? {} : {tokenFrom: watched.target.tokenFrom}),
			...(watched.target.kind === undefined ? {} : {kind: watched.target.kind}),
			...minerActions(watched, plan.readOnly),
		};
	});
	// The rigs of a batch from the fleet, each named as its row names it ("sim-rig :18462" for one of two sim-rigs on one
	// host), so its results pane tells them apart as the question before it did.
	const batchRigs = (rigs: readonly number[]) => {
		const states = session.miners.map((miner) => miner.monitor.getState());
		const tags = rigTags(states);
		return rigs.flatMap((index) => {
			const miner = session.miners[index];
			const state = states[index];
			if (!miner || !state) return [];
			const {tokenFrom} = miner.target;
			return [
				{
					url: miner.target.url,
					token: miner.target.token,
					name: rigLabel({name: state.name, tag: tags[index] ?? null}),
					...(tokenFrom === undefined ? {} : {tokenFrom}),
				},
			];
		});
	};

	// The fleet's p and r: a batch (source/batch/) on the rigs asked for; each rig it touched gets the event in its
	// events log, which the session's recorder writes to the history (as the dashboard's pause), and is polled now.
	const fleetBatch = (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => {
		const watched = rigs.flatMap((index) => (session.miners[index] ? [session.miners[index]] : []));
		const batch = new Batch({
			rigs: batchRigs(rigs),
			action: {kind: action},
			signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
		});
		const by = batchWriter(watched.length);
		void batch.run().then((results) => {
			results.forEach((result, index) => {
				const miner = watched[index];
				if (!miner) return;
				if (result.answered) {
					const severity = result.status === 'applied' || result.status === 'already' ? 'info' : 'warn';
					const said = result.status === 'applied' || result.status === 'already' ? result.reason : `${result.status}: ${result.reason}`;
					miner.monitor.addEvent('action', severity, `batch ${action} (${by}): ${said}`);
				}

				miner.monitor.pollNow();
			});
		});
		return batch;
	};

	// Each touched rig's event in its events log (the recorder writes it to the history), and a poll now.
	const told = (watched: readonly WatchedMiner[], what: string, results: readonly RigResult[]) => {
		const by = batchWriter(results.length);
		results.forEach((result) => {
			const miner = watched.find((item) => item.target.url === result.rig.url);
			if (!miner) return;
			if (result.answered) {
				const well = result.status === 'applied' || result.status === 'already';
				const said = result.status === 'applied' && result.lines.length > 0 ? result.lines.join('; ') : result.reason;
				miner.monitor.addEvent('action', well ? 'info' : 'warn', `batch ${what} (${by}): ${well ? said : `${result.status}: ${said}`}`);
			}

			miner.monitor.pollNow();
		});
	};

	// The fleet's c with rigs marked: one session per visit (its reads, its batch, its undo), disposed when it is left.
	let fleetConfig: {readonly key: string; readonly session: FleetConfigSession} | null = null;
	const renderFleetConfig = (rigs: readonly number[], onBack: () => void, onQuit: () => void) => {
		const key = rigs.join(',');
		if (fleetConfig?.key !== key) {
			fleetConfig?.session.dispose();
			const watched = rigs.flatMap((index) => (session.miners[index] ? [session.miners[index]] : []));
			const config = new FleetConfigSession({
				rigs: batchRigs(rigs),
				backupDir: session.stateDir === undefined ? defaultBackupDir() : path.join(session.stateDir, 'backups'),
				addHint: ADD_HINT,
				onResults(results, what) {
					told(watched, what, results);
				},
			});
			fleetConfig = {key, session: config};
			void config.open();
		}

		const leave = (then: () => void) => () => {
			fleetConfig?.session.dispose();
			fleetConfig = null;
			then();
		};

		return <FleetConfigView session={fleetConfig.session} caps={{back: leave(onBack), quit: leave(onQuit)}} />;
	};

	const onOpenChange = (index: number | null) => {
		session.setOpen(index);
	};

	const element = (
		<App
			miners={miners}
			alerts={alerting.center}
			notices={session.notices}
			{...(session.recorder ? {lastHour: lastHourSource(session.recorder)} : {})}
			onQuit={quit}
			color={plan.color}
			readOnly={plan.readOnly}
			interval={interval}
			renderConfig={renderConfig}
			onOpenChange={onOpenChange}
			fleetBatch={fleetBatch}
			renderFleetConfig={renderFleetConfig}
			{...(prefs ? {prefs} : {})}
		/>
	);
	return {
		element,
		async close() {
			stopRemembering();
			for (const history of histories) history.close();
			others?.stop();
			for (const config of configSessions.values()) config.dispose();
			await alerting.close();
		},
	};
}
