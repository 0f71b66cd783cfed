/**
 * Notifications (issue 38): the contract between the parts of source/notify/.
 *
 * - The AlertCenter (alerts/center.ts) tells the notifier when a rig's trouble opens and closes (`TroubleChange`),
 *   including a trouble closed without an all-clear of its own (a restart clears a hashrate drop), and the one-shot
 *   news worth telling (`restarted`, `replaced`).
 * - The policy (notify/policy/) turns those changes into `Notice`s, as Alertmanager would: a group window, a repeat
 *   while a trouble lasts, one resolved notice per group, flapping, mutes. It is pure: the time is given.
 * - The outbox (notify/outbox/) writes each notice before it is sent, once per channel, in rigtop's store (the history's
 *   SQLite file), delivers it through the channels off the poll loop, retries, and claims each trouble so that two
 *   rigtops sharing the store send it once.
 * - A channel (notify/channels/) is one URL: it turns a notice into the service's own request and says how the
 *   service answered (`Delivery`). Its URL holds a secret: only `shown` (scheme and host) is ever printed.
 */
import type {Severity} from '../monitor/event-kinds.js';
import type {RigRef} from '../alerts/types.js';

/** How loud a notice is; each channel maps it to its own (ntfy 1–5, Pushover −1…1, Telegram silent for 'low'). */
export type Priority = 'low' | 'default' | 'high' | 'urgent';

/**
 * Which rig a trouble is about (`RigRef`) and a trouble opening or closing (`TroubleChange`): the AlertCenter's words,
 * defined beside it (alerts/ is a layer below notify/: it cannot import this file).
 */
export type {RigRef, TroubleChange} from '../alerts/types.js';

/** One rig in a notice: since when its trouble was open, and until when (a resolved notice, a collapsed one). */
export type NoticeRig = RigRef & {
	readonly since: number;
	readonly until?: number;
	readonly message: string;
};

/**
 * What a notice is: a trouble (first told), a repeat of one still open, the group's all-clear, a rig flapping, news,
 * a test (`rigtop notify test`), or what a notice pending across a restart became ("rig-03 was down 02:10–02:40").
 */
export type NoticeKind = 'trouble' | 'repeat' | 'resolved' | 'flapping' | 'info' | 'test' | 'collapsed';

/** One message, the same for every channel; each channel words it in its service's form. */
export type Notice = {
	/** Unique per message: the outbox's key (sending it twice is refused by the store). */
	readonly key: string;
	readonly kind: NoticeKind;
	/** The trouble or news kind ('down', 'restarted'…); 'test' for a test. */
	readonly trouble: string;
	readonly severity: Severity;
	readonly priority: Priority;
	/** One line: "3 rigs down", "rig-07 back up". Cleaned text. */
	readonly title: string;
	/** The lines under it: the rigs, each with its message and how long it was out. Cleaned text. */
	readonly body: string;
	readonly rigs: readonly NoticeRig[];
	/** Epoch ms when it was made. */
	readonly at: number;
};

/** How a channel's service answered one request. */
export type Delivery =
	| {readonly ok: true; readonly status: number; readonly ms: number}
	| {
			readonly ok: false;
			/** Try again later (5xx, 408, 429, a timeout, a refused connection); false: a 4xx that will not change. */
			readonly retry: boolean;
			/** The service said when (429 Retry-After), ms from now. */
			readonly retryAfterMs?: number;
			readonly status?: number;
			readonly ms: number;
			/** One line, no secret: "ntfy: 403 forbidden: check the topic's access". */
			readonly reason: string;
	  };

/**
 * A trouble open now, as a stateful channel's `refresh` pushes it again. `trouble` and `severity` make Alertmanager's
 * labels (`alertname`, `severity`): give them (without, the channel uses what it last sent for that rig and start).
 */
export type OpenTrouble = NoticeRig & {readonly trouble?: string; readonly severity?: Severity};

/** One notification channel: one URL. */
export type Channel = {
	/** The service: 'ntfy', 'telegram', 'discord', 'slack', 'pushover', 'gotify', 'json', 'alertmanager'. */
	readonly service: string;
	/** The URL as it may be shown: scheme and host only ("ntfys://ntfy.sh", "tgram://api.telegram.org"). */
	readonly shown: string;
	/** A stable id for the outbox (a hash of the whole URL: no secret in it), so a restart finds its pending notices. */
	readonly id: string;
	/** Sends one notice; never throws; gives up at the signal (the outbox's deadline). */
	send(notice: Notice, signal: AbortSignal): Promise<Delivery>;
	/**
	 * Channels that hold state (Alertmanager): the troubles open now, pushed again at an interval so the receiver does
	 * not resolve them by itself. Absent for message channels.
	 */
	refresh?(open: readonly OpenTrouble[], signal: AbortSignal): Promise<Delivery>;
};
