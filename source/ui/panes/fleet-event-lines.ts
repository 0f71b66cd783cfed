/**
 * The fleet's events as its events pane tells them (the fleet and the proxy's screen both draw it): the newest of every
 * rig's log and the session's notices, newest first, each with its rig.
 */
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import {formatWhen} from '../../text/format.js';
import {describeEvents, SESSION_LABEL, type EventLine} from '../text/event-lines.js';

/** minerIndex -1: a notice of the session's own (rig "rigtop"). */
export type FleetEvent = MinerEvent & {readonly rig: string; readonly minerIndex: number};

/**
 * The newest `limit` events as the fleet's events pane tells them (event-lines.ts: dated when not today; an 'up' with
 * the outage it ends, found in its rig's log), the session's notices among them; `options` as for fleetEvents.
 */
export function fleetEventLines(
	states: readonly MonitorState[],
	limit: number,
	now: number,
	options: Parameters<typeof fleetEvents>[2] = {},
): readonly EventLine[] {
	const shown = fleetEvents(states, limit, options);
	const told = new Map<string, EventLine>();
	for (const index of new Set(shown.map((event) => event.minerIndex))) {
		if (index < 0) continue;
		const events = states[index]?.events ?? [];
		const lines = describeEvents(
			events.map((event) => ({
				t: event.at,
				kind: event.kind,
				severity: event.severity,
				text: event.message,
				watcher: event.watcher === true,
			})),
			now,
		);
		events.forEach((event, i) => {
			const line = lines[i];
			if (line) told.set(`${index}:${event.seq}`, line);
		});
	}

	return shown.map((event) => {
		const key = `${event.minerIndex}:${event.seq}`;
		const line = told.get(key);
		return {
			key,
			t: event.at,
			when: line?.when ?? formatWhen(event.at, now),
			severity: event.severity,
			text: line?.text ?? event.message,
			rig: event.rig,
			...(event.minerIndex < 0 ? {own: true as const} : {}),
		};
	});
}

/**
 * The newest `limit` events of the miners (those in `only`, when given), newest first, each with its rig's name (its
 * label, where `labels` gives one: "attic :18082" for one of two attics). Reads only the tail of each miner's log.
 */
export function fleetEvents(
	states: readonly MonitorState[],
	limit: number,
	options: {readonly labels?: readonly string[]; readonly only?: ReadonlySet<number>; readonly notices?: readonly MinerEvent[]} = {},
): readonly FleetEvent[] {
	if (limit <= 0) return [];
	const merged: FleetEvent[] = [];
	// The session's own notices, as rigtop's (minerIndex -1).
	const notices = options.notices ?? [];
	for (let i = notices.length - 1; i >= Math.max(0, notices.length - limit); i--) {
		const notice = notices[i];
		if (notice) merged.push({...notice, rig: SESSION_LABEL, minerIndex: -1});
	}

	states.forEach((state, minerIndex) => {
		if (options.only && !options.only.has(minerIndex)) return;
		const {events} = state;
		const rig = options.labels?.[minerIndex] ?? state.name;
		for (let i = events.length - 1; i >= Math.max(0, events.length - limit); i--) {
			const event = events[i];
			if (event) merged.push({...event, rig, minerIndex});
		}
	});
	merged.sort((a, b) => b.at - a.at || a.minerIndex - b.minerIndex || b.seq - a.seq);
	return merged.slice(0, limit);
}
