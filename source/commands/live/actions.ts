import {describeConfigError, layoutForVersion, problemLine} from '../../config/errors.js';
import type {WatchedMiner} from '../../session/session.js';

export type MinerActions = {
	readonly onPause: () => void;
	readonly onResume: () => void;
	readonly onRefresh: () => void;
};

/**
 * The dashboard's write keys for one miner: pause and resume through POST /json_rpc (the result is
 * read from the JSON-RPC body), then an immediate poll so the header shows the new state. Every
 * outcome lands in the events log; with --read-only nothing is sent and the log says why.
 */
export function minerActions(miner: WatchedMiner, readOnly: boolean): MinerActions {
	const {client, monitor} = miner;
	const send = (method: 'pause' | 'resume') => {
		if (readOnly) {
			monitor.addEvent('action', 'warn', `${method} not sent: rigtop runs with --read-only (writes are off)`);
			return;
		}

		// A token the user did not give (a running miner's) is said with the write, as the shell says it.
		const {tokenFrom} = miner.target;
		const whose = tokenFrom === undefined ? '' : ` (no token given: the one from ${tokenFrom})`;
		client.rpc(method).then(
			() => {
				monitor.addEvent('action', 'info', `${method === 'pause' ? 'pause' : 'resume'} sent to the miner${whose}`);
				monitor.pollNow();
			},
			(error: unknown) => {
				const version = monitor.getState().snapshot?.version ?? null;
				const problem = describeConfigError(error, {
					operation: 'write',
					summaryReadable: monitor.getState().status === 'live',
					layout: layoutForVersion(version),
					tokenGiven: miner.target.token !== null,
					doing: `${method} it`,
				});
				monitor.addEvent('action', 'error', `${method} failed${whose}: ${problemLine(problem)}`);
			},
		);
	};

	return {
		onPause: () => send('pause'),
		onResume: () => send('resume'),
		onRefresh: () => monitor.pollNow(),
	};
}
