/**
 * The channels a command notifies, from --notify-file, RIGTOP_NOTIFY and --notify (in that order, each URL once), and
 * the heartbeat from --heartbeat or the file's `heartbeat URL` line. Read and checked when the command starts: a channel
 * URL that is no channel, or a file looser than 0600, is bad usage (exit 2) with one line that names the forms known and
 * never the URL's secret.
 */
import type {NotifyPlan} from '../command.js';
import {notifyParts, type NotifyParts, type NotifySettings, type NotifySources} from '../../notify/start.js';
import {UsageError} from '../../session/errors.js';

/** What a command notifies: the channels, the heartbeat, the policy's settings. */
export type LoadedNotify = NotifyParts & {
	readonly settings: NotifySettings;
	/** The channels' URLs and the heartbeat's, for a worker thread that makes its own channels (never printed). */
	readonly sources: NotifySources;
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
			'--heartbeat puts its URL where every user of this machine can see it (the process list); put a "heartbeat URL" line in --notify-file instead',
		);
	}

	const sources = await readSources(plan);
	let parts: NotifyParts;
	try {
		parts = notifyParts(sources);
	} catch (error) {
		throw new UsageError(error instanceof Error ? error.message : String(error));
	}

	return {...parts, settings: {groupMs: plan.groupMs, repeatMs: plan.repeatMs, flap: plan.flap}, sources};
}

async function readSources(plan: NotifyPlan): Promise<NotifySources> {
	if (plan.file !== undefined) throw new UsageError('--notify-file is not merged yet');
	const fromEnv = plan.env === undefined ? [] : plan.env.split(/[\s,]+/).filter((url) => url !== '');
	return {urls: [...fromEnv, ...plan.urls], heartbeat: plan.heartbeat ?? null};
}
