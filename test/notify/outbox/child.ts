/**
 * Another rigtop, in a process of its own (bundled by the tests with esbuild and run with node): opens the store,
 * posts the notices it is given through a channel to the test's service, and then
 * - `hold`: says "posted" and keeps running (the test kills it with SIGKILL);
 * - `race`: says "ready", posts when a line comes on stdin, waits for its deliveries, closes and says "done";
 * - `once`: posts, waits for its deliveries, closes and says "done N" (N: notices still queued).
 * argv[2]: {file, url, mode, notices, asNobody}.
 */
import process from 'node:process';
import {createInterface} from 'node:readline';
import {HistoryStore} from '../../../source/history/store.js';
import {Outbox} from '../../../source/notify/outbox/outbox.js';
import type {Notice} from '../../../source/notify/types.js';
import {httpChannel} from './helpers.js';

type Task = {file: string; url: string; mode: 'hold' | 'race' | 'once'; notices: Notice[]; asNobody?: boolean};
const task = JSON.parse(process.argv[2] ?? '{}') as Task;
// root writes through any mode bits: a read-only folder is tried as nobody (rights dropped once node has started).
if (task.asNobody === true) {
	process.setgid?.(65534);
	process.setuid?.(65534);
}

const store = HistoryStore.open({file: task.file, notify: (line) => process.stderr.write(`${line}\n`)});
const outbox = new Outbox({store, channels: [httpChannel(task.url)], report: (line) => process.stderr.write(`${line}\n`)});

if (task.mode === 'once') {
	for (const notice of task.notices) outbox.post(notice);
	void outbox
		.idle()
		.then(async () => outbox.close(5000))
		.then(() => {
			store.close();
			process.stdout.write(`done ${outbox.queued}\n`);
		});
} else if (task.mode === 'hold') {
	for (const notice of task.notices) outbox.post(notice);
	process.stdout.write('posted\n');
	setInterval(() => undefined, 60_000);
} else {
	const lines = createInterface({input: process.stdin});
	process.stdout.write('ready\n');
	lines.once('line', () => {
		for (const notice of task.notices) outbox.post(notice);
		void outbox
			.idle()
			.then(async () => outbox.close(5000))
			.then(() => {
				store.close();
				process.stdout.write('done\n');
				lines.close();
			});
	});
}
