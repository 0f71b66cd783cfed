/**
 * Notifications from the live view (issue 38): the dashboard in a real terminal, a simulated miner going down, the
 * notice at a loopback ntfy, and a channel that refuses it told as rigtop's own line in the events pane (never its
 * token); the miner's trouble still shows on screen.
 */
import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {startService} from '../helpers/notify-services.js';
import {until} from '../history/helpers.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const scene = sceneForEachTest('rigtop-notify-live-');
const SECRET = 'tk-l1ve-5ecr3t-42';

describe('the live view with --notify-file', () => {
	it('tells ntfy when the miner goes down; a channel that refuses is an events line without its token', async () => {
		const [miner] = await scene.simulate([{dialect: '6', warm: true, workerId: 'live-rig', threads: 2}]);
		const ntfy = await startService('ntfy');
		const refusing = await startService('json', {faults: [403]});
		try {
			const file = path.join(scene.dir, 'notify');
			await writeFile(file, `ntfy://127.0.0.1:${ntfy.port}/rigs\njson://127.0.0.1:${refusing.port}/hook/${SECRET}\n`, {mode: 0o600});
			const terminal = await scene.start(['node', CLI, miner!.url, '--notify-file', file, '--notify-group', '0', '--interval', '0.5'], {
				cols: 100,
				rows: 30,
				env: {XDG_STATE_HOME: path.join(scene.dir, 'state')},
			});
			await terminal.waitFor('live-rig');
			await miner!.stop();
			await until(() => ntfy.received.length === 1, 20_000, 'the down notice');
			expect(String((ntfy.received[0]?.json as {title?: unknown}).title)).toMatch(/ down$/);
			const screen = await terminal.waitFor(/json: 403 forbidden/);
			expect(screen).toMatch(/down: connection refused/);
			expect(screen).not.toContain(SECRET);
			expect(refusing.received).toHaveLength(1);
		} finally {
			await Promise.all([ntfy.close(), refusing.close()]);
		}
	}, 60_000);
});
