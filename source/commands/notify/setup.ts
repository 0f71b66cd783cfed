/**
 * The channels a command notifies, from --notify-file, RIGTOP_NOTIFY and --notify (each URL once), and the heartbeat
 * from --heartbeat or the file's `heartbeat URL` line (notify/channels/sources.ts). Read and checked when the command
 * starts: a channel URL that is no channel, or a file looser than 0600, is bad usage (exit 2) with one line that names
 * the forms known and never the URL's secret.
 */
import type {NotifyPlan} from '../command.js';
import {NotifyUsageError} from '../../notify/channels/errors.js';
import {notifyParts, type NotifyInputs, type NotifyParts, type NotifySettings} from '../../notify/start/notifications.js';
import {UsageError} from '../../session/errors.js';

/** What a command notifies: the channels, the heartbeat, the policy's settings. */
export type LoadedNotify = NotifyParts & {
	readonly settings: NotifySettings;
	/** Where the channels came from, for a worker thread that makes its own (never printed). */
	readonly inputs: NotifyInputs;
};

/** Reads and checks the channels; warnings (a URL on the command line) go to `warn`. UsageError for a bad one. */
export async function loadNotifyChannels(plan: NotifyPlan, warn: (line: string) => void): Promise<LoadedNotify> {
	if (plan.urls.length > 0) {
		warn(
			'--notify puts the channel URL (its token) where every user of this machine can see it (the process list); use --notify-file or RIGTOP_NOTIFY instead',
		);
	}

	if (plan.heartbeat !== undefined) {
		warn(
			'--heartbeat puts its URL where every user of this machine can see it (the process list); put a "heartbeat URL" line in the --notify-file instead',
		);
	}

	const inputs: NotifyInputs = {file: plan.file, env: plan.env, urls: plan.urls, heartbeat: plan.heartbeat};
	let parts: NotifyParts;
	try {
		parts = notifyParts(inputs);
	} catch (error) {
		if (error instanceof NotifyUsageError) throw new UsageError(error.message);
		throw error;
	}

	return {...parts, settings: {groupMs: plan.groupMs, repeatMs: plan.repeatMs, flap: plan.flap}, inputs};
}
