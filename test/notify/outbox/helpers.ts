/**
 * The outbox's tests: a loopback HTTP service that answers as the test scripts it (statuses, Retry-After, a hang), a
 * small real channel that posts a notice to it with fetch (no mock of fetch), a clock the test moves, and notices.
 */
import {createHash} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import path from 'node:path';
import {HistoryStore} from '../../../source/history/store.js';
import type {OutboxClock} from '../../../source/notify/outbox/outbox.js';
import type {Channel, Delivery, Notice, NoticeRig} from '../../../source/notify/types.js';
import {tempDir} from '../../history/helpers.js';

/** What the service answers to one request: a status (and headers), or nothing at all (a hang). */
export type Answer = {readonly status: number; readonly headers?: Readonly<Record<string, string>>} | 'hang';

export type ServiceRequest = {readonly key: string; readonly kind: string; readonly title: string; readonly status: number | 'hang'};

export type Service = {
	readonly url: string;
	/** Every request, in the order received, with what it was answered. */
	readonly requests: ServiceRequest[];
	/** The keys answered 2xx, in order. */
	delivered(): string[];
	/** Replaces how it answers (the n-th request, 0-based, over the whole run). */
	answer(next: (index: number, key: string) => Answer): void;
	close(): Promise<void>;
};

export async function startService(answer: (index: number, key: string) => Answer = () => ({status: 200})): Promise<Service> {
	let answering = answer;
	const requests: ServiceRequest[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {key: string; kind: string; title: string};
			const reply = answering(requests.length, body.key);
			requests.push({key: body.key, kind: body.kind, title: body.title, status: reply === 'hang' ? 'hang' : reply.status});
			if (reply === 'hang') return;
			response.writeHead(reply.status, {'content-type': 'application/json', ...reply.headers});
			response.end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/topic`,
		requests,
		delivered: () => requests.filter((request) => request.status !== 'hang' && request.status < 300).map((request) => request.key),
		answer(next) {
			answering = next;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A real channel of the test's own: POSTs the notice as JSON to the service's URL and says how it answered. */
export function httpChannel(url: string, service = 'ntfy'): Channel {
	return {
		service,
		shown: `http://${new URL(url).host}`,
		id: createHash('sha256').update(url).digest('hex').slice(0, 16),
		async send(notice: Notice, signal: AbortSignal): Promise<Delivery> {
			const started = Date.now();
			try {
				const response = await fetch(url, {
					method: 'POST',
					headers: {'content-type': 'application/json'},
					body: JSON.stringify({key: notice.key, kind: notice.kind, title: notice.title}),
					signal,
				});
				await response.arrayBuffer();
				const ms = Date.now() - started;
				if (response.ok) return {ok: true, status: response.status, ms};
				const status = response.status;
				const words = `${status} ${(http.STATUS_CODES[status] ?? '').toLowerCase()}`;
				const after = response.headers.get('retry-after');
				return {
					ok: false,
					retry: status >= 500 || status === 408 || status === 429,
					...(after === null ? {} : {retryAfterMs: Number(after) * 1000}),
					status,
					ms,
					reason: `${service}: ${words}`,
				};
			} catch (error) {
				return {
					ok: false,
					retry: true,
					ms: Date.now() - started,
					reason: `${service}: ${error instanceof Error ? error.message : String(error)}`,
				};
			}
		},
	};
}

/** A clock the test moves: timers run when it passes their time, in order. */
export type FakeClock = OutboxClock & {advance(ms: number): void; pendingTimers(): number};

export function fakeClock(start = Date.UTC(2026, 11, 8, 2, 10, 0)): FakeClock {
	let now = start;
	let next = 0;
	const timers = new Map<number, {at: number; run: () => void}>();
	return {
		now: () => now,
		setTimeout(run, ms) {
			const id = ++next;
			timers.set(id, {at: now + Math.max(0, ms), run});
			return id;
		},
		clearTimeout(handle) {
			timers.delete(handle as number);
		},
		advance(ms) {
			const target = now + ms;
			for (;;) {
				let due: [number, {at: number; run: () => void}] | undefined;
				for (const entry of timers) if (entry[1].at <= target && (due === undefined || entry[1].at < due[1].at)) due = entry;
				if (due === undefined) break;
				timers.delete(due[0]);
				now = Math.max(now, due[1].at);
				due[1].run();
			}

			now = target;
		},
		pendingTimers: () => timers.size,
	};
}

export const RIG_URL = 'http://10.0.0.3:8080';

export function rig(name: string, since: number, extra: Partial<NoticeRig> = {}): NoticeRig {
	return {rig: name, url: `http://${name}.lan:8080`, since, message: 'down: connection refused', ...extra};
}

export function trouble(key: string, rigs: readonly NoticeRig[], at: number, extra: Partial<Notice> = {}): Notice {
	return {
		key,
		kind: 'trouble',
		trouble: 'down',
		severity: 'error',
		priority: 'high',
		title: rigs.length === 1 ? `${rigs[0]?.rig ?? ''} down` : `${rigs.length} rigs down`,
		body: rigs.map((one) => `${one.rig}: ${one.message}`).join('\n'),
		rigs,
		at,
		...extra,
	};
}

export function resolved(key: string, rigs: readonly NoticeRig[], at: number): Notice {
	return trouble(key, rigs, at, {
		kind: 'resolved',
		severity: 'info',
		priority: 'low',
		title: `${rigs.map((one) => one.rig).join(', ')} back up`,
	});
}

/** Resolves when `check` holds (looked at after each turn of the event loop); for what a real server does. */
export async function until(check: () => boolean, what = 'the condition'): Promise<void> {
	for (let turn = 0; turn < 20_000; turn++) {
		if (check()) return;
		await new Promise((resolve) => setTimeout(resolve, 5));
	}

	throw new Error(`never reached: ${what}`);
}

/** What a test made and must undo (newest first), and the makers that register their undoing. */
export function testScope() {
	const undo: (() => Promise<void> | void)[] = [];
	const cleanups = {
		add(step: () => Promise<void> | void): void {
			undo.push(step);
		},
		async run(): Promise<void> {
			for (const step of undo.splice(0).reverse()) await step();
		},
	};
	return {
		cleanups,
		async service(...args: Parameters<typeof startService>): Promise<Service> {
			const made = await startService(...args);
			cleanups.add(() => made.close());
			return made;
		},
		/** A store file's path in a fresh folder. */
		storeFile(): string {
			const temp = tempDir();
			cleanups.add(temp.cleanup);
			return path.join(temp.dir, 'rigtop', 'history.sqlite');
		},
		openStore(file: string): HistoryStore {
			const store = HistoryStore.open({file});
			cleanups.add(() => store.close());
			return store;
		},
	};
}
