/** `rigtop --where`: the miners a session with these options would watch, and where each setting came from. */
import {formatWhere} from '../../discovery/where.js';
import {whereResult} from '../../session/build.js';
import type {Command, RunPlan} from '../command.js';
import {loadNotifyChannels, type LoadedNotify} from '../notify/setup.js';

export const run: Command<RunPlan> = async (plan, context) => {
	for (const notice of plan.notices) context.warn(notice);
	const notify = plan.notify === null ? null : await loadNotifyChannels(plan.notify, context.warn);
	const result = await whereResult(plan);
	process.stdout.write(`${[...formatWhere(result), ...notifyLines(notify)].join('\n')}\n`);
	return result.targets.length > 0 ? 0 : 1;
};

/** The channels notified, each by its service and `shown` (scheme and host): never its URL, which holds a secret. */
export function notifyLines(notify: LoadedNotify | null): string[] {
	if (notify === null) return [];
	const lines = [`rigtop will notify ${notify.channels.length} channel${notify.channels.length === 1 ? '' : 's'}:`];
	for (const channel of notify.channels) lines.push(`  ${channel.service}  ${channel.shown}`);
	if (notify.heartbeat !== null) lines.push(`  heartbeat  ${notify.heartbeat.shown}`);
	return lines;
}
