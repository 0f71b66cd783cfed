/**
 * `rigtop notify test`: one test notice to each channel, each one's answer printed (service, shown address, status,
 * time; exit 1 if any failed). `rigtop notify mute RIG DURATION`, `unmute RIG`, `mutes`: a rig's notices held back for
 * a while, remembered in the store (its troubles still show on every screen). Never prints a channel's URL: only its
 * `shown` (scheme and host).
 */
import process from 'node:process';
import type {Command, NotifyPlan} from '../command.js';
import {loadNotifyChannels} from './setup.js';
import {openMutes, testNotice} from '../../notify/start/notifications.js';
import type {Delivery} from '../../notify/types.js';
import {formatDuration, formatWhen} from '../../text/format.js';
import {cleanText} from '../../text/clean.js';
import {UsageError} from '../../session/errors.js';

export type NotifyCommandPlan = {
	readonly notify: NotifyPlan | null;
	/** false with --no-history: no store, so no mute can be remembered. */
	readonly history: boolean;
} & (
	| {readonly action: 'test'}
	| {readonly action: 'mute'; readonly rig: string; readonly durationMs: number}
	| {readonly action: 'unmute'; readonly rig: string}
	| {readonly action: 'mutes'}
);

/** How long `notify test` waits for each channel. */
const TEST_TIMEOUT_MS = 15_000;

export const run: Command<NotifyCommandPlan> = async (plan, context) => {
	const out = (line: string) => process.stdout.write(`${line}\n`);
	if (plan.action === 'test') {
		if (plan.notify === null) throw new UsageError('rigtop notify test needs a channel: --notify-file PATH, RIGTOP_NOTIFY or --notify URL');
		const loaded = await loadNotifyChannels(plan.notify, context.warn);
		if (loaded.channels.length === 0 && loaded.heartbeat === null) throw new UsageError('no channel to test');
		const notice = testNotice(Date.now());
		let failed = 0;
		const answers = await Promise.all([
			...loaded.channels.map(async (channel) => {
				const delivery = await sendSafely(async (signal) => channel.send(notice, signal));
				return {service: channel.service, shown: channel.shown, delivery};
			}),
			...(loaded.heartbeat === null
				? []
				: [
						(async () => {
							const heartbeat = loaded.heartbeat;
							const delivery = await sendSafely(async (signal) => heartbeat!.ping({well: true}, signal));
							return {service: 'heartbeat', shown: heartbeat!.shown, delivery};
						})(),
					]),
		]);
		const width = Math.max(...answers.map((answer) => answer.service.length));
		const shownWidth = Math.max(...answers.map((answer) => answer.shown.length));
		for (const {service, shown, delivery} of answers) {
			if (!delivery.ok) failed += 1;
			// The reason names its service first ("ntfy: 403 forbidden: …"): the line has it already.
			const reason = delivery.ok ? '' : delivery.reason.replace(new RegExp(`^${service}: `), '');
			const status = delivery.ok
				? `ok ${delivery.status}`
				: `failed${delivery.status === undefined ? '' : ` ${delivery.status}`}: ${reason}`;
			out(`${service.padEnd(width)}  ${shown.padEnd(shownWidth)}  ${status}  ${Math.round(delivery.ms)} ms`);
		}

		out(`${answers.length} channel${answers.length === 1 ? '' : 's'}: ${answers.length - failed} ok, ${failed} failed`);
		return failed > 0 ? 1 : 0;
	}

	if (!plan.history) throw new UsageError('a mute is remembered in the history store: drop --no-history');
	const mutes = openMutes(context.warn);
	try {
		const now = Date.now();
		switch (plan.action) {
			case 'mute': {
				mutes.mute(plan.rig, now + plan.durationMs);
				out(`${cleanText(plan.rig)}: muted for ${formatDuration(plan.durationMs / 1000)}, until ${formatWhen(now + plan.durationMs, now)}`);
				out('its troubles still show on screen and in the history; rigtop notify unmute ends it');
				return 0;
			}

			case 'unmute': {
				const was = mutes.unmute(plan.rig);
				out(`${cleanText(plan.rig)}: ${was ? 'unmuted' : 'was not muted'}`);
				return 0;
			}

			case 'mutes': {
				const list = [...mutes.list(now)].sort((a, b) => a[1] - b[1]);
				if (list.length === 0) out('no rig is muted');
				for (const [rig, until] of list)
					out(`${cleanText(rig)}  until ${formatWhen(until, now)} (${formatDuration((until - now) / 1000)} more)`);
				return 0;
			}
		}
	} finally {
		await mutes.close();
	}
};

/** A send that resolves, whatever happens, within the test's deadline. */
async function sendSafely(send: (signal: AbortSignal) => Promise<Delivery>): Promise<Delivery> {
	const started = performance.now();
	try {
		return await send(AbortSignal.timeout(TEST_TIMEOUT_MS));
	} catch (error) {
		return {ok: false, retry: false, ms: performance.now() - started, reason: error instanceof Error ? error.message : String(error)};
	}
}
