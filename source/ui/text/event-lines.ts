/**
 * Events as every screen shows them (the dashboard's events pane, the fleet's, the event view): the time with its
 * date when it is not today ("Mar 13 23:54": "down since 23:54" is ambiguous after two days), and an outage with its
 * span and length where the miner came back ("back up · down 23:54–00:12, 18m").
 */
import {formatDuration, formatTimeSpan, formatWhen} from '../../text/format.js';
import {kindRow} from '../../monitor/event-kinds.js';
import type {Severity} from '../../monitor/types.js';

/** The name the fleet's events give the session's own notices. */
export const SESSION_LABEL = 'rigtop';

/** An event from the monitor's log or the history store. */
export type TimedEvent = {
	/** Epoch ms. */
	readonly t: number;
	readonly kind: string;
	readonly severity: string;
	readonly text: string;
	/** The rig's name, where events of several rigs are shown together. */
	readonly rig?: string;
	/** About this rigtop's own access (its token refused), not the rig: pairs only with another such (MinerEvent's `watcher`). */
	readonly watcher?: boolean;
};

export type EventLine = {
	/** Stable within one list (a React key). */
	readonly key: string;
	readonly t: number;
	/** "23:54" today, "Mar 13 23:54" another day. */
	readonly when: string;
	readonly severity: Severity;
	readonly text: string;
	readonly rig?: string;
	/** A notice of the session's own (rigtop's), not of a rig. */
	readonly own?: true;
};

function severityOf(value: string): Severity {
	return value === 'error' || value === 'warn' ? value : 'info';
}

/**
 * The lines for events given oldest first (in the same order). A rig's 'up' is told with the outage it ends: from
 * its first 'down' or 'error' since it was last up (a rigtop started again in between does not know when the outage
 * it saw began, so a 'started' forgets it); which kinds begin, end and forget one is their rows' `outage`
 * (monitor/event-kinds.ts). A rigtop's own access trouble (`watcher`: its token refused) is no
 * outage of the rig: it pairs only with the 'up' of that link coming back, never with the rig's.
 */
export function describeEvents(events: readonly TimedEvent[], now: number): EventLine[] {
	const downSince = new Map<string, number>();
	const seen = new Map<string, number>();
	return events.map((event) => {
		const rig = event.rig ?? '';
		const outage = event.watcher === true ? `${rig}\0watcher` : rig;
		let text = event.text;
		const told = kindRow(event.kind)?.outage;
		if (told === 'begins') {
			if (!downSince.has(outage)) downSince.set(outage, event.t);
		} else if (told === 'ends') {
			const since = downSince.get(outage);
			if (since !== undefined && since <= event.t) {
				text = `back up · down ${formatTimeSpan(since, event.t, now)}, ${formatDuration((event.t - since) / 1000)}`;
			}

			downSince.delete(outage);
		} else if (told === 'forgets') {
			downSince.delete(rig);
			downSince.delete(`${rig}\0watcher`);
		}

		const base = `${rig}:${event.t}`;
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		return {
			key: `${base}:${count}`,
			t: event.t,
			when: formatWhen(event.t, now),
			severity: severityOf(event.severity),
			text,
			...(event.rig === undefined ? {} : {rig: event.rig}),
		};
	});
}
