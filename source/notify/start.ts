/**
 * Notifications started for a session's alert center: the policy (notify/policy/), the outbox in the store
 * (notify/outbox/) and the channels (notify/channels/) put together under the notifier (notifier.ts). The live view,
 * `rigtop watch` and the exporter's worker all start them here.
 */
import type {AlertCenter} from '../alerts/center.js';
import {defaultStoreFile} from '../history/attach.js';
import {HistoryStore} from '../history/store.js';
import type {Channel, Notice, RigRef, TroubleChange} from './types.js';
import {parseChannel} from './channels/parse.js';
import {endFromHistory} from './outbox/history-end.js';
import {Outbox} from './outbox/outbox.js';
import {
	reportingChannels,
	startNotifier,
	type DeliveryReport,
	type Notifier,
	type NotifierHeartbeat,
	type NotifierPolicy,
} from './notifier.js';

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
	const channels: Channel[] = [];
	for (const url of sources.urls) {
		const channel = parseChannel(url);
		// The same URL twice (the file and the flag) is one channel: its notices go out once.
		if (!channels.some((known) => known.id === channel.id)) channels.push(channel);
	}

	return {channels, heartbeat: null, heartbeatShown: null};
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
	const channels = reportingChannels(options.channels, options.onDelivery);
	const outbox = new Outbox({
		store: options.store,
		channels,
		report: (line) => options.say('warn', line),
		...(options.store === null ? {offReason: 'history is off (--no-history)'} : {}),
	});
	// What an earlier rigtop left pending goes out once, collapsed to what is still true (the history says what ended).
	void outbox.recover(options.store === null ? undefined : endFromHistory(options.store)).catch((error: unknown) => {
		options.say('warn', `notifications: recovery failed: ${error instanceof Error ? error.message : String(error)}`);
	});
	const policy = createPolicy(options.settings, (ref, now) => outbox.muted(ref, now));
	return startNotifier({
		troubles: options.troubles,
		policy,
		outbox,
		channels,
		heartbeat: options.heartbeat,
		say: options.say,
		...(options.now === undefined ? {} : {now: options.now}),
	});
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
	close(): Promise<void>;
};

/** The store's mutes (the default history file); store notices go to `warn`. */
export function openMutes(warn: (line: string) => void, file: string = defaultStoreFile()): Mutes {
	const store = HistoryStore.open({file, notify: warn});
	if (!store.enabled) {
		store.close();
		throw new Error(`a mute is remembered in the history store, which cannot be used: ${store.offReason ?? 'off'}`);
	}

	const outbox = new Outbox({store, channels: [], report: warn});
	return {
		mute: (rig, until) => {
			if (!outbox.mute(rig, until)) throw new Error('the mute could not be written to the history store');
		},
		unmute: (rig) => outbox.unmute(rig),
		list: (now) => new Map(outbox.list(now).map((mute) => [mute.rig, mute.until])),
		async close() {
			await outbox.close(0);
			store.close();
		},
	};
}

/** The AlertCenter's trouble changes (its trouble listener), as the notifier subscribes to them. */
export function centerTroubles(center: AlertCenter): NotificationsOptions['troubles'] {
	return (listener) => center.addTroubleListener(listener);
}

/** The policy (notify/policy/), once merged. */
function createPolicy(settings: NotifySettings, muted: (ref: RigRef, now: number) => boolean): NotifierPolicy {
	void settings;
	void muted;
	throw new Error('the notification policy is not merged yet');
}
