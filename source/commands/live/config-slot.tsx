/**
 * The config view slot of the live screens (`c` on a rig's screen): one config session per miner, created when its
 * config view first opens and sharing the monitor's client (so a token change that applied carries over to the
 * dashboard).
 */
import path from 'node:path';
import {appliedEvent} from '../../config/apply.js';
import {ConfigSession} from '../../config/session.js';
import {wordsFor, type ConfigSubject} from '../../config/words.js';
import type {Session, WatchedMiner} from '../../session/session.js';
import type {ConfigTarget} from '../../ui/app.js';
import {ConfigView} from '../../ui/screens/config/view.js';
import type {RunPlan} from '../command.js';

/** What a config view configures: an xmrig-proxy when its last read or the rigs file says so; its words then say so. */
const subjectOf = (miner: WatchedMiner): ConfigSubject =>
	miner.monitor.getState().snapshot?.proxy != null || miner.target.kind === 'proxy' ? 'proxy' : 'miner';

export function configSlot(session: Session, plan: RunPlan) {
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

	return {
		renderConfig,
		/** Every config session made this run, disposed. */
		close() {
			for (const config of configSessions.values()) config.dispose();
		},
	};
}
