/**
 * Notifications started for a session's alert center: the policy (notify/policy/), the outbox in the store
 * (notify/outbox/) and the channels (notify/channels/) put together under the notifier (notifier.ts). The live view,
 * `rigtop watch` and the exporter's worker all start them here.
 */
import type {AlertCenter} from '../alerts/center.js';
import type {HistoryStore} from '../history/store.js';
import type {Channel, Notice, TroubleChange} from './types.js';
import {startNotifier, type DeliveryReport, type Notifier, type NotifierHeartbeat} from './notifier.js';

/** The URLs behind the channels (secrets: they travel in memory only, as the miners' tokens do). */
export type NotifySources = {readonly urls: readonly string[]; readonly heartbeat: string | null};

/** The channels and the heartbeat made of their URLs. */
export type NotifyParts = {
	readonly channels: readonly Channel[];
	readonly heartbeat: NotifierHeartbeat | null;
	/** The heartbeat's URL as it may be shown (scheme and host), or null. */
	readonly heartbeatShown: string | null;
};

/** The channels and the heartbeat of these URLs; throws an Error of one line (no secret) for a URL that is none. */
export function notifyParts(sources: NotifySources): NotifyParts {
	void sources;
	throw new Error('notifications are not wired yet');
}

/** The policy's settings (--notify-group, --notify-repeat, --notify-flap). */
export type NotifySettings = {
	readonly groupMs: number;
	readonly repeatMs: number;
	readonly flap: {readonly count: number; readonly windowMs: number};
};

export type NotificationsOptions = {
	/** Subscribes to the AlertCenter's trouble changes. */
	readonly troubles: (listener: (change: TroubleChange) => void) => () => void;
	readonly channels: readonly Channel[];
	readonly heartbeat: NotifierHeartbeat | null;
	readonly settings: NotifySettings;
	/** The history's store (the outbox's table lives in it), or null: the outbox keeps its notices in memory. */
	readonly store: HistoryStore | null;
	readonly say: (severity: 'info' | 'warn' | 'error', line: string) => void;
	readonly onDelivery?: (report: DeliveryReport) => void;
	readonly now?: () => number;
};

export function startNotifications(options: NotificationsOptions): Notifier {
	void options;
	void startNotifier;
	throw new Error('notifications are not wired yet');
}

/** A test notice (`rigtop notify test`). */
export function testNotice(now: number): Notice {
	return {
		key: `test:${now}`,
		kind: 'test',
		trouble: 'test',
		severity: 'info',
		priority: 'default',
		title: 'rigtop test notification',
		body: 'If you read this, rigtop can reach you here.',
		rigs: [],
		at: now,
	};
}

/** The rigs muted, in the store (`rigtop notify mute`). */
export type Mutes = {
	mute(rig: string, until: number, now: number): void;
	/** false when the rig was not muted. */
	unmute(rig: string, now: number): boolean;
	list(now: number): ReadonlyMap<string, number>;
	close(): void;
};

/** The store's mutes (the default history file); store notices go to `warn`. */
export function openMutes(warn: (line: string) => void): Mutes {
	void warn;
	throw new Error('notifications are not wired yet');
}

/** The AlertCenter's trouble changes (its trouble listener), as the notifier subscribes to them. */
export function centerTroubles(center: AlertCenter): NotificationsOptions['troubles'] {
	void center;
	return () => () => undefined;
}
