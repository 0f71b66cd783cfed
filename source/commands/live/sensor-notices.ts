/**
 * What a local miner's sensor reading has to say once: package power only root may read, and what would allow it
 * (sensors/sampler.ts's one line). It becomes a session notice, shown once among the events (the fleet's as
 * rigtop's, a single miner's dashboard among its own), never again at each poll; the System pane says "W needs root"
 * and the fleet's W column "denied" meanwhile. All local miners read one machine: one notice for them all.
 */
import type {NoticeLog} from '../../monitor/notices.js';
import type {MonitorState} from '../../monitor/types.js';
import type {Store} from '../../store.js';

/** Follows the monitors until the returned function is called. */
export function noteSensorMessages(monitors: readonly Store<MonitorState>[], notices: Pick<NoticeLog, 'add'>): () => void {
	const unsubscribes = monitors.map((monitor) => {
		const check = () => {
			const power = monitor.getState().snapshot?.sensors?.power;
			// The log keeps a line once (NoticeLog.add): every later poll with it adds nothing.
			if (power?.state === 'denied') notices.add('info', power.message);
		};

		check();
		return monitor.subscribe(check);
	});
	return () => {
		for (const unsubscribe of unsubscribes) unsubscribe();
	};
}
