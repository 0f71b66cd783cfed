/**
 * Notifications started for a session's alert center: the policy (notify/policy/), the outbox in the store
 * (notify/outbox/) and the channels (notify/channels/) put together under the notifier (notifier.ts). The live view,
 * `rigtop watch` and the exporter's worker all start them here.
 */
import type {AlertCenter} from '../../alerts/center.js';
import {defaultStoreFile} from '../../history/attach.js';
import {HistoryStore} from '../../history/store.js';
import type {Channel, Notice, TroubleChange} from '../types.js';
import type {Heartbeat} from '../channels/heartbeat.js';
import {readNotifySources} from '../channels/sources.js';
import {endFromHistory} from '../outbox/history-end.js';
import {Outbox} from '../outbox/outbox.js';
import type {RetryLimits} from '../outbox/retry.js';
import {NoticePolicy} from '../policy/engine.js';
import type {PolicyOptions} from '../policy/options.js';
import {reportingChannels, startNotifier, type DeliveryReport, type Notifier} from '../notifier.js';

/** Where the channels come from, as the command line gave them (secrets: never printed; in memory only). */
export type NotifyInputs = {
	/** --notify-file PATH. */
	readonly file: string | undefined;
	/** RIGTOP_NOTIFY. */
	readonly env: string | undefined;
	/** --notify URL, each. */
	readonly urls: readonly string[];
	/** --heartbeat URL. */
	readonly heartbeat: string | undefined;
};

/** The channels and the heartbeat made of their URLs. */
export type NotifyParts = {
	readonly channels: readonly Channel[];
	readonly heartbeat: Heartbeat | null;
};

/** The policy's settings (--notify-group, --notify-repeat, --notify-flap). */
export type NotifySettings = PolicyOptions;

/**
 * The channels and the heartbeat of these sources (the notify file read and its mode checked); throws a
 * NotifyUsageError of one line (no secret) for a URL that is none, or a file looser than 0600.
 */
export function notifyParts(inputs: NotifyInputs): NotifyParts {
	const read = readNotifySources({
		...(inputs.file === undefined ? {} : {file: inputs.file}),
		...(inputs.env === undefined ? {} : {env: {RIGTOP_NOTIFY: inputs.env}}),
		urls: inputs.urls,
		...(inputs.heartbeat === undefined ? {} : {heartbeat: inputs.heartbeat}),
	});
	return {channels: read.channels, heartbeat: read.heartbeat ?? null};
}

export type NotificationsOptions = NotifyParts & {
	/** Subscribes to the AlertCenter's trouble changes. */
	readonly troubles: (listener: (change: TroubleChange) => void) => () => void;
	readonly settings: NotifySettings;
	/** The history's store (the outbox's table lives in it), or null: the outbox keeps its notices in memory. */
	readonly store: HistoryStore | null;
	readonly say: (severity: 'info' | 'warn' | 'error', line: string) => void;
	readonly onDelivery?: (report: DeliveryReport) => void;
	readonly now?: () => number;
	/** The Alertmanager refresh and the heartbeat's interval (tests; default 60 s each). */
	readonly refreshMs?: number;
	readonly heartbeatMs?: number;
	/** The outbox's retry limits (tests; default 10 s doubling, 12 tries). */
	readonly retry?: Partial<RetryLimits>;
};

export function startNotifications(options: NotificationsOptions): Notifier {
	const channels = reportingChannels(options.channels, options.onDelivery);
	const outbox = new Outbox({
		store: options.store,
		channels,
		report: (line) => options.say('warn', line),
		...(options.store === null ? {offReason: 'history is off'} : {}),
		...(options.retry === undefined ? {} : {retry: options.retry}),
	});
	// What an earlier rigtop left pending goes out once, collapsed to what is still true (the history says what ended).
	void outbox.recover(options.store === null ? undefined : endFromHistory(options.store)).catch((error: unknown) => {
		options.say('warn', `notifications: recovery failed: ${error instanceof Error ? error.message : String(error)}`);
	});
	const policy = new NoticePolicy({...options.settings, muted: (ref, now) => outbox.muted(ref, now)});
	return startNotifier({
		troubles: options.troubles,
		policy,
		outbox,
		channels,
		heartbeat: options.heartbeat,
		say: options.say,
		...(options.now === undefined ? {} : {now: options.now}),
		...(options.refreshMs === undefined ? {} : {refreshMs: options.refreshMs}),
		...(options.heartbeatMs === undefined ? {} : {heartbeatMs: options.heartbeatMs}),
	});
}

/** The AlertCenter's trouble changes (its trouble listener), as the notifier subscribes to them. */
export function centerTroubles(center: AlertCenter): NotificationsOptions['troubles'] {
	return (listener) => center.addTroubleListener(listener);
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
	mute(rig: string, until: number): void;
	/** false when the rig was not muted. */
	unmute(rig: string): boolean;
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
		mute(rig, until) {
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
