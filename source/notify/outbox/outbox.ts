/**
 * The outbox (issue 38, item 4; docs/notify-delivery.md): every notice is written to rigtop's store, once per channel,
 * before it is sent, and marked sent when the channel's service answers 2xx; so nothing is lost (a rigtop killed with
 * notices pending sends them when it starts again, collapsed to what is still true) and nothing is sent twice (a key
 * is written once per channel by whoever shares the store; each trouble is claimed by one rigtop).
 *
 * Delivery runs off the poll loop: `post` only writes (a few SQLite statements) and returns; each channel has its own
 * queue, one request at a time, in order, each bounded by a deadline; a failed try waits (backing off, or as the
 * service's Retry-After says) without holding any other channel. With the store off the rows are kept in memory and
 * that is said once.
 */
import {randomBytes} from 'node:crypto';
import {hostname} from 'node:os';
import process from 'node:process';
import type {HistoryStore} from '../../history/store.js';
import type {Channel, Delivery, Notice, RigRef} from '../types.js';
import {claimNotice, rigKey, type ClaimContext} from './claims.js';
import {collapsePending, toldHappenings, type TroubleEnd} from './collapse.js';
import {FileDb, MemoryDb, type OutboxDb} from './db.js';
import {DEFAULT_RETRY, givesUp, retryDelay, type RetryLimits} from './retry.js';

/** The outbox's time and timers (tests move a fake one). */
export type OutboxClock = {
	now(): number;
	setTimeout(run: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
};

export const systemClock: OutboxClock = {
	now: () => Date.now(),
	setTimeout(run, ms) {
		const handle = setTimeout(run, ms);
		handle.unref();
		return handle;
	},
	clearTimeout(handle) {
		clearTimeout(handle as ReturnType<typeof setTimeout>);
	},
};

export type OutboxOptions = {
	/** The history's store (the same file); null with `--no-history` (then `offReason` says why). */
	readonly store: HistoryStore | null;
	/** Every channel configured (recovery sends a dead rigtop's pending notices through those of the same id). */
	readonly channels: readonly Channel[];
	/** One line for the session's notices: a channel that failed, notifications not kept. Never a secret. */
	readonly report: (line: string) => void;
	/** Why there is no store ('--no-history'). */
	readonly offReason?: string;
	readonly clock?: OutboxClock;
	readonly retry?: Partial<RetryLimits>;
	/** How long a claim and this rigtop's writer row stay held without being renewed (default 2 min). */
	readonly leaseMs?: number;
};

export type Mute = {readonly rig: string; readonly until: number};

/** A notice queued for one channel. */
type Item = {
	readonly notice: Notice;
	attempts: number;
	firstTry: number | null;
	/** Its row was written (not a busy store's). */ kept: boolean;
};

type Lane = {
	readonly channel: Channel;
	queue: Item[];
	inFlight: Promise<void> | null;
	controller: AbortController | null;
	timer: unknown;
	nextTry: number;
	/** The last line reported and when (the same line is not repeated within REPORT_AGAIN_MS). */
	lastReport: {line: string; at: number} | null;
};

const DEFAULT_LEASE_MS = 2 * 60_000;
const MAINTAIN_EVERY_MS = 10 * 60_000;
const REPORT_AGAIN_MS = 10 * 60_000;
const MUTES_READ_EVERY_MS = 5000;
/** Sent, failed and merged rows are kept this long (and at most KEEP_DONE_ROWS of them) to tell what was sent. */
export const KEEP_DONE_MS = 7 * 24 * 3_600_000;
export const KEEP_DONE_ROWS = 5000;
/** A dead rigtop's pending rows for a channel no rigtop has come to send are dropped after this. */
const KEEP_ORPHAN_MS = 2 * 24 * 3_600_000;
/**
 * A claim is renewed by the tick for this long after its trouble began; later only when its holder posts about it (a
 * repeat): a trouble closed without an all-clear (muted) stops costing a commit every 30 s.
 */
const RENEW_CLAIMS_MS = 24 * 3_600_000;
/** Claims ended (or let go) this long ago can no longer be the same happening as a new one. */
const KEEP_CLAIM_MS = 24 * 3_600_000;

type PendingRow = {id: number; channel: string; key: string; notice: string; writer: string};

export class Outbox {
	/** This rigtop's writer id in the store: its pid and a start id (a pid is reused). */
	readonly writer: string;
	readonly #report: (line: string) => void;
	readonly #clock: OutboxClock;
	readonly #retry: RetryLimits;
	readonly #leaseMs: number;
	readonly #file: FileDb | null;
	#db: OutboxDb;
	readonly #lanes = new Map<string, Lane>();
	/** Keys sent or queued by this process when the store could not be written (busy): never twice from here. */
	readonly #unkept = new Set<string>();
	#ended: TroubleEnd | null = null;
	#tick: unknown = null;
	#lastMaintain = Number.NEGATIVE_INFINITY;
	#mutes: {at: number; list: Mute[]} | null = null;
	#closed = false;
	#abandoned = false;
	#notKeptSaid = false;

	constructor(options: OutboxOptions) {
		this.writer = `${process.pid}:${randomBytes(4).toString('hex')}`;
		this.#report = options.report;
		this.#clock = options.clock ?? systemClock;
		this.#retry = {...DEFAULT_RETRY, ...options.retry};
		this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
		this.#file = options.store === null ? null : new FileDb(options.store);
		for (const channel of options.channels) this.#lane(channel);
		if (this.#file?.usable === true) {
			this.#db = this.#file;
		} else {
			this.#db = new MemoryDb();
			this.#notKept(this.#file?.offReason ?? options.offReason ?? 'history is off');
		}

		this.#schedule();
	}

	/** Whether the outbox is kept in the store's file (false: in memory, lost at exit). */
	get kept(): boolean {
		return this.#db.kept;
	}

	/** Notices queued in memory for delivery, over every channel (in flight or waiting). */
	get queued(): number {
		let count = 0;
		for (const lane of this.#lanes.values()) count += lane.queue.length;
		return count;
	}

	/**
	 * Writes the notice for each channel (default: all) and queues it for delivery, unless this rigtop is not the one
	 * to tell it (another rigtop sharing the store claimed its trouble) or its key was written before for that channel.
	 * Returns the channels it was queued for. Synchronous: the SQLite writes only.
	 */
	post(notice: Notice, channels: readonly Channel[] = [...this.#lanes.values()].map((lane) => lane.channel)): Channel[] {
		if (this.#closed) return [];
		for (const channel of channels) this.#lane(channel);
		const now = this.#clock.now();
		let queued: Channel[] = [];
		const written = this.#write(() => {
			queued = [];
			this.#upsertWriter(now);
			const json = JSON.stringify(notice);
			const claims = this.#claims(now);
			for (const channel of channels) {
				if (!claimNotice(claims, notice, channel.id)) continue;
				const {changes} = this.#db.run(
					`INSERT OR IGNORE INTO notify_outbox (channel, key, notice, state, attempts, next_try, writer, created, updated)
						VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
					channel.id,
					notice.key,
					json,
					now,
					this.writer,
					now,
					now,
				);
				if (Number(changes) > 0) queued.push(channel);
			}
		});
		// Not written (another rigtop held the store longer than its wait): sent anyway, from memory, once from here.
		if (!written) queued = channels.filter((channel) => !this.#unkept.has(`${channel.id}\u0000${notice.key}`));
		for (const channel of queued) {
			if (!written) this.#unkept.add(`${channel.id}\u0000${notice.key}`);
			const lane = this.#lane(channel);
			lane.queue.push({notice, attempts: 0, firstTry: null, kept: written});
			this.#kick(lane);
		}

		return queued;
	}

	/**
	 * Sends what an earlier rigtop (its process gone, or its lease run out) left pending for these channels, once,
	 * collapsed to what is still true (collapse.ts). `ended` says when a rig's trouble ended (the history's events,
	 * endFromHistory, or this rigtop's first poll); it is kept for the rigtops that die later while this one runs.
	 * Returns the number of notices queued.
	 */
	async recover(ended?: TroubleEnd): Promise<number> {
		if (ended !== undefined) this.#ended = ended;
		if (this.#closed || !this.#db.kept) return 0;
		const now = this.#clock.now();
		// A read first: the tick asks every 30 s, and most of the time there is nothing (no write then).
		const others = this.#db.read(
			() =>
				this.#db.all<{channel: string}>("SELECT DISTINCT channel FROM notify_outbox WHERE state = 'pending' AND writer <> ?", this.writer),
			[],
		);
		if (!others.some((row) => this.#lanes.has(row.channel))) return 0;
		const adopted: PendingRow[] = [];
		this.#write(() => {
			adopted.length = 0;
			this.#upsertWriter(now);
			const rows = this.#db.all<PendingRow>(
				"SELECT id, channel, key, notice, writer FROM notify_outbox WHERE state = 'pending' AND writer <> ? ORDER BY id",
				this.writer,
			);
			const gone = new Map<string, boolean>();
			for (const row of rows) {
				if (!this.#lanes.has(row.channel)) continue;
				let dead = gone.get(row.writer);
				if (dead === undefined) {
					dead = this.#dead(row.writer, now);
					gone.set(row.writer, dead);
				}

				if (!dead) continue;
				const {changes} = this.#db.run(
					"UPDATE notify_outbox SET writer = ?, updated = ? WHERE id = ? AND writer = ? AND state = 'pending'",
					this.writer,
					now,
					row.id,
					row.writer,
				);
				if (Number(changes) > 0) adopted.push(row);
			}

			// Their troubles are this rigtop's to tell from now on (the all-clear, a repeat).
			for (const [writer, dead] of gone) {
				if (dead) {
					this.#db.run(
						'UPDATE notify_claim SET holder = ?, lease = ? WHERE holder = ? AND ended IS NULL',
						this.writer,
						now + this.#leaseMs,
						writer,
					);
				}
			}
		});
		if (adopted.length === 0) return 0;
		const byChannel = new Map<string, PendingRow[]>();
		for (const row of adopted) byChannel.set(row.channel, [...(byChannel.get(row.channel) ?? []), row]);
		let count = 0;
		for (const [channelId, rows] of byChannel) count += await this.#recoverChannel(channelId, rows);
		return count;
	}

	async #recoverChannel(channelId: string, rows: readonly PendingRow[]): Promise<number> {
		const lane = this.#lanes.get(channelId);
		if (lane === undefined) return 0;
		const notices: Notice[] = [];
		const broken: PendingRow[] = [];
		for (const row of rows) {
			const notice = parseNotice(row.notice);
			if (notice === null) broken.push(row);
			else notices.push(notice);
		}

		const told = new Set<string>();
		const since = this.#clock.now() - KEEP_DONE_MS;
		const sent = this.#db.read(
			() =>
				this.#db.all<{notice: string}>(
					"SELECT notice FROM notify_outbox WHERE channel = ? AND state = 'sent' AND created >= ?",
					channelId,
					since,
				),
			[],
		);
		for (const row of sent) {
			const notice = parseNotice(row.notice);
			if (notice !== null) for (const key of toldHappenings(notice)) told.add(key);
		}

		const steps = await collapsePending(notices, told, this.#ended ?? (() => null), this.#clock.now());
		if (this.#closed) return 0;
		const now = this.#clock.now();
		const items: Item[] = [];
		this.#write(() => {
			items.length = 0;
			for (const row of broken) {
				this.#db.run("UPDATE notify_outbox SET state = 'failed', reason = 'unreadable', updated = ? WHERE id = ?", now, row.id);
			}

			for (const step of steps) {
				if ('keep' in step) {
					this.#db.run(
						'UPDATE notify_outbox SET notice = ?, attempts = 0, first_try = NULL, next_try = ?, updated = ? WHERE channel = ? AND key = ?',
						JSON.stringify(step.keep),
						now,
						now,
						channelId,
						step.keep.key,
					);
					items.push({notice: step.keep, attempts: 0, firstTry: null, kept: true});
					continue;
				}

				const reason = step.by === null ? 'merged: told by a later notice' : `merged into ${step.by}`;
				this.#db.run(
					"UPDATE notify_outbox SET state = 'merged', reason = ?, updated = ? WHERE channel = ? AND key = ?",
					reason,
					now,
					channelId,
					step.drop.key,
				);
				if (step.into === null) continue;
				const {changes} = this.#db.run(
					`INSERT OR IGNORE INTO notify_outbox (channel, key, notice, state, attempts, next_try, writer, created, updated)
						VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
					channelId,
					step.into.key,
					JSON.stringify(step.into),
					now,
					this.writer,
					now,
					now,
				);
				if (Number(changes) > 0) items.push({notice: step.into, attempts: 0, firstTry: null, kept: true});
			}
		});
		// Older than anything posted since: before the queue, behind a request in flight.
		lane.queue.splice(lane.inFlight === null ? 0 : 1, 0, ...items);
		this.#kick(lane);
		return items.length;
	}

	// ---- mutes ----

	/** Mutes a rig (its name or URL) until `untilMs`; remembered in the store (in memory while it is off). */
	mute(rig: string, untilMs: number): boolean {
		this.#mutes = null;
		return this.#write(() => {
			this.#db.run('INSERT OR REPLACE INTO notify_mute (rig, until) VALUES (?, ?)', rig, untilMs);
		});
	}

	/** Unmutes a rig; false when it was not muted. */
	unmute(rig: string): boolean {
		this.#mutes = null;
		let removed = false;
		this.#write(() => {
			removed = Number(this.#db.run('DELETE FROM notify_mute WHERE rig = ?', rig).changes) > 0;
		});
		return removed;
	}

	/** The mutes still running at `now`, the soonest to end first. */
	list(now: number): Mute[] {
		return this.#db.read(() => this.#db.all<Mute>('SELECT rig, until FROM notify_mute WHERE until > ? ORDER BY until, rig', now), []);
	}

	/** Whether a rig is muted at `now` (the policy's predicate; another process's mute is seen within 5 s). */
	muted(ref: RigRef, now: number): boolean {
		const clock = this.#clock.now();
		if (this.#mutes === null || clock - this.#mutes.at >= MUTES_READ_EVERY_MS || clock < this.#mutes.at) {
			this.#mutes = {
				at: clock,
				list: this.#db.read(() => this.#db.all<Mute>('SELECT rig, until FROM notify_mute'), this.#mutes?.list ?? []),
			};
		}

		const key = rigKey(ref);
		return this.#mutes.list.some((mute) => mute.until > now && (mute.rig === ref.rig || mute.rig === ref.url || mute.rig === key));
	}

	// ---- waiting, closing ----

	/** Resolves when no request is in flight (tests; `rigtop notify test`). Waiting retries do not count. */
	async idle(): Promise<void> {
		for (;;) {
			const flying = [...this.#lanes.values()].map((lane) => lane.inFlight).filter((flight) => flight !== null);
			if (flying.length === 0) return;
			await Promise.all(flying);
		}
	}

	/**
	 * Stops: requests in flight may finish until `deadlineMs` (ms from now), then they are abandoned (aborted; their
	 * rows stay pending, and the next rigtop to start sends them). Claims and the writer's lease are let go, so another
	 * rigtop running on the same store tells what follows.
	 */
	async close(deadlineMs: number): Promise<void> {
		if (this.#closed) return;
		this.#closed = true;
		if (this.#tick !== null) this.#clock.clearTimeout(this.#tick);
		this.#tick = null;
		for (const lane of this.#lanes.values()) {
			if (lane.timer !== null) this.#clock.clearTimeout(lane.timer);
			lane.timer = null;
		}

		const flying = [...this.#lanes.values()].map((lane) => lane.inFlight).filter((flight) => flight !== null);
		if (flying.length > 0) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const deadline = new Promise<void>((resolve) => {
				timer = setTimeout(resolve, Math.max(0, deadlineMs));
			});
			await Promise.race([Promise.all(flying), deadline]);
			clearTimeout(timer);
			this.#abandoned = true;
			for (const lane of this.#lanes.values()) lane.controller?.abort(new Error('closing'));
		}

		// Not #write: a store the session closed first is no reason to say anything now.
		this.#db.write(() => {
			this.#db.run('UPDATE notify_writer SET lease = 0 WHERE writer = ?', this.writer);
			this.#db.run('UPDATE notify_claim SET lease = 0 WHERE holder = ? AND ended IS NULL', this.writer);
		});
		if (this.#db instanceof MemoryDb) this.#db.close();
	}

	// ---- delivery ----

	#lane(channel: Channel): Lane {
		let lane = this.#lanes.get(channel.id);
		if (lane === undefined) {
			lane = {channel, queue: [], inFlight: null, controller: null, timer: null, nextTry: 0, lastReport: null};
			this.#lanes.set(channel.id, lane);
		}

		return lane;
	}

	#kick(lane: Lane): void {
		if (this.#closed || lane.inFlight !== null || lane.queue.length === 0) return;
		if (lane.timer !== null) {
			this.#clock.clearTimeout(lane.timer);
			lane.timer = null;
		}

		const wait = lane.nextTry - this.#clock.now();
		if (wait > 0) {
			lane.timer = this.#clock.setTimeout(() => {
				lane.timer = null;
				this.#kick(lane);
			}, wait);
			return;
		}

		lane.inFlight = this.#attempt(lane).finally(() => {
			lane.inFlight = null;
			this.#kick(lane);
		});
	}

	async #attempt(lane: Lane): Promise<void> {
		const item = lane.queue[0];
		if (item === undefined) return;
		const {channel} = lane;
		const started = this.#clock.now();
		// Still this rigtop's to send? Another that took it over (this one hung past its lease) sends it instead.
		let mine = true;
		if (item.kept) {
			this.#write(() => {
				const {changes} = this.#db.run(
					"UPDATE notify_outbox SET attempts = ?, first_try = ?, updated = ? WHERE channel = ? AND key = ? AND writer = ? AND state = 'pending'",
					item.attempts + 1,
					item.firstTry ?? started,
					started,
					channel.id,
					item.notice.key,
					this.writer,
				);
				mine = Number(changes) > 0;
			});
		}

		if (!mine) {
			lane.queue.shift();
			return;
		}

		item.attempts++;
		item.firstTry ??= started;
		const controller = new AbortController();
		lane.controller = controller;
		let timedOut = false;
		const timer = this.#clock.setTimeout(() => {
			timedOut = true;
			controller.abort(new Error('timeout'));
		}, this.#retry.timeoutMs);
		let delivery: Delivery;
		try {
			delivery = await channel.send(item.notice, controller.signal);
		} catch (error) {
			delivery = {
				ok: false,
				retry: true,
				ms: this.#clock.now() - started,
				reason: `${channel.service}: ${error instanceof Error ? error.message : String(error)}`,
			};
		}

		this.#clock.clearTimeout(timer);
		lane.controller = null;
		// Abandoned at close: the row stays pending for the next start.
		if (this.#abandoned) return;
		const now = this.#clock.now();
		if (delivery.ok) {
			this.#update(channel, item.notice.key, "state = 'sent', reason = NULL");
			lane.queue.shift();
			lane.nextTry = 0;
			return;
		}

		const reason = timedOut
			? `${channel.service}: no answer within ${Math.round(this.#retry.timeoutMs / 1000)}s`
			: oneLine(delivery.reason, channel);
		if (!delivery.retry) {
			this.#update(channel, item.notice.key, "state = 'failed', reason = ?", reason);
			lane.queue.shift();
			lane.nextTry = 0;
			this.#say(lane, reason, now);
			return;
		}

		const nextTry = now + retryDelay(this.#retry, item.attempts, delivery.retryAfterMs);
		if (givesUp(this.#retry, item.attempts, item.firstTry, nextTry)) {
			// The channel has failed for the whole span: what waits behind goes with it, told in one line.
			const line = `${channel.service}: gave up after ${item.attempts} ${item.attempts === 1 ? 'try' : 'tries'}: ${withoutService(reason, channel)}`;
			for (const waiting of lane.queue) this.#update(channel, waiting.notice.key, "state = 'failed', reason = ?", line);
			lane.queue = [];
			lane.nextTry = 0;
			this.#say(lane, line, now);
			return;
		}

		lane.nextTry = nextTry;
		this.#update(channel, item.notice.key, 'next_try = ?, reason = ?', nextTry, reason);
	}

	/** Updates a row of this channel and key (best effort: a row that could not be written is sent from memory). */
	#update(channel: Channel, key: string, set: string, ...values: (string | number | null)[]): void {
		const now = this.#clock.now();
		this.#write(() => {
			this.#db.run(`UPDATE notify_outbox SET ${set}, updated = ? WHERE channel = ? AND key = ?`, ...values, now, channel.id, key);
		});
	}

	#say(lane: Lane, line: string, now: number): void {
		if (lane.lastReport !== null && lane.lastReport.line === line && now - lane.lastReport.at < REPORT_AGAIN_MS) return;
		lane.lastReport = {line, at: now};
		this.#report(line);
	}

	// ---- the store ----

	/** One write transaction; the store turning off moves the outbox to memory (said once) and writes it there. */
	#write(work: () => void): boolean {
		if (this.#db.write(work)) return true;
		if (this.#db === this.#file && !this.#file.usable) {
			this.#toMemory(this.#file.offReason ?? 'the store is off');
			return this.#db.write(work);
		}

		return false;
	}

	#toMemory(reason: string): void {
		const memory = new MemoryDb();
		const now = this.#clock.now();
		this.#db = memory;
		this.#notKept(reason);
		memory.write(() => {
			for (const mute of this.#mutes?.list ?? [])
				memory.run('INSERT OR REPLACE INTO notify_mute (rig, until) VALUES (?, ?)', mute.rig, mute.until);
			for (const lane of this.#lanes.values()) {
				for (const item of lane.queue) {
					memory.run(
						`INSERT OR IGNORE INTO notify_outbox (channel, key, notice, state, attempts, first_try, next_try, writer, created, updated)
							VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
						lane.channel.id,
						item.notice.key,
						JSON.stringify(item.notice),
						item.attempts,
						item.firstTry,
						lane.nextTry,
						this.writer,
						now,
						now,
					);
				}
			}
		});
		this.#renew();
	}

	#notKept(reason: string): void {
		if (this.#notKeptSaid) return;
		this.#notKeptSaid = true;
		this.#report(`notifications not kept: ${reason}`);
	}

	#claims(now: number): ClaimContext {
		return {db: this.#db, me: this.writer, now, leaseMs: this.#leaseMs, dead: (writer) => this.#dead(writer, now)};
	}

	/** Whether another rigtop's writer is gone: its lease ran out, or (on this machine) its process is dead. */
	#dead(writer: string, now: number): boolean {
		if (writer === this.writer) return false;
		const row = this.#db.get<{pid: number; host: string; lease: number}>(
			'SELECT pid, host, lease FROM notify_writer WHERE writer = ?',
			writer,
		);
		if (row === undefined || row.lease < now) return true;
		return row.host === hostname() && !processAlive(row.pid);
	}

	/** This rigtop's writer row, its lease renewed (inside a write: before any row or claim of its own). */
	#upsertWriter(now: number): void {
		this.#db.run(
			'INSERT INTO notify_writer (writer, pid, host, started, lease) VALUES (?, ?, ?, ?, ?) ON CONFLICT (writer) DO UPDATE SET lease = excluded.lease',
			this.writer,
			process.pid,
			hostname(),
			now,
			now + this.#leaseMs,
		);
	}

	/**
	 * Renews this rigtop's lease and those of the troubles it holds, while it has anything others must not take: notices
	 * queued, troubles open. Otherwise writes nothing (a quiet rigtop adds no commit to the store).
	 */
	#renew(): void {
		const now = this.#clock.now();
		const holding =
			this.queued > 0 ||
			this.#db.read(
				() =>
					this.#db.get(
						'SELECT 1 AS one FROM notify_claim WHERE holder = ? AND ended IS NULL AND since > ? LIMIT 1',
						this.writer,
						now - RENEW_CLAIMS_MS,
					) !== undefined,
				false,
			);
		if (!holding) return;
		this.#write(() => {
			this.#upsertWriter(now);
			this.#db.run(
				'UPDATE notify_claim SET lease = ? WHERE holder = ? AND ended IS NULL AND since > ?',
				now + this.#leaseMs,
				this.writer,
				now - RENEW_CLAIMS_MS,
			);
		});
	}

	#schedule(): void {
		if (this.#closed) return;
		this.#tick = this.#clock.setTimeout(
			() => {
				this.#tick = null;
				if (this.#closed) return;
				this.#renew();
				const now = this.#clock.now();
				if (now - this.#lastMaintain >= MAINTAIN_EVERY_MS) {
					this.#lastMaintain = now;
					this.#maintain(now);
				}

				// A rigtop sharing the store that died meanwhile: its pending notices are this one's to send.
				if (this.#ended !== null) void this.recover();
				this.#schedule();
			},
			Math.max(1000, Math.floor(this.#leaseMs / 4)),
		);
	}

	/** Keeps the outbox's tables bounded. */
	#maintain(now: number): void {
		this.#write(() => {
			this.#db.run("DELETE FROM notify_outbox WHERE state <> 'pending' AND updated < ?", now - KEEP_DONE_MS);
			this.#db.run(
				"DELETE FROM notify_outbox WHERE id IN (SELECT id FROM notify_outbox WHERE state <> 'pending' ORDER BY id DESC LIMIT -1 OFFSET ?)",
				KEEP_DONE_ROWS,
			);
			this.#db.run("DELETE FROM notify_outbox WHERE state = 'pending' AND writer <> ? AND created < ?", this.writer, now - KEEP_ORPHAN_MS);
			this.#db.run(
				'DELETE FROM notify_claim WHERE (ended IS NOT NULL AND ended < ?) OR (ended IS NULL AND lease < ?)',
				now - KEEP_CLAIM_MS,
				now - KEEP_CLAIM_MS,
			);
			this.#db.run('DELETE FROM notify_writer WHERE lease < ? AND writer <> ?', now - KEEP_CLAIM_MS, this.writer);
			this.#db.run('DELETE FROM notify_mute WHERE until <= ?', now);
		});
	}
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as {code?: unknown}).code === 'EPERM';
	}
}

function parseNotice(json: string): Notice | null {
	try {
		const value = JSON.parse(json) as unknown;
		if (typeof value !== 'object' || value === null) return null;
		const notice = value as Notice;
		return typeof notice.key === 'string' && typeof notice.kind === 'string' && Array.isArray(notice.rigs) ? notice : null;
	} catch {
		return null;
	}
}

/** The reason as one line, with its service's name first ("ntfy: 503 service unavailable"). */
function oneLine(reason: string, channel: Channel): string {
	const line = (reason.split('\n')[0] ?? '').trim() || 'failed';
	return line.startsWith(`${channel.service}:`) ? line : `${channel.service}: ${line}`;
}

function withoutService(reason: string, channel: Channel): string {
	return reason.startsWith(`${channel.service}: `) ? reason.slice(channel.service.length + 2) : reason;
}
