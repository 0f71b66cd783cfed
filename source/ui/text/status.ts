/**
 * What the header says about the miner, in words first (colour only repeats it):
 * "live · 2s ago", "stale · 12s", "down since 12:03 — connection refused", "PAUSED" (the miner's own word),
 * "no pool", "error — <reason>", "connecting".
 */
import type {MonitorState} from '../../monitor/types.js';
import {formatAgo, formatDuration, formatWhen} from '../../text/format.js';
import type {ThemeToken} from './theme.js';

export type StatusBadge = {
	/** The state in one or two words: what someone across the room needs. */
	readonly word: 'connecting' | 'live' | 'PAUSED' | 'no pool' | 'stale' | 'down' | 'error' | 'FROZEN';
	/** The rest of the line ("· 2s ago", "since 12:03 — connection refused"), or "". */
	readonly detail: string;
	readonly tone: ThemeToken;
	/** The detail is an age that changes width as the clock ticks (" · just now", " · 1s ago", " · 12s"). */
	readonly ticks?: true;
};

function reason(state: MonitorState): string {
	return state.error ? state.error.message : '';
}

export function statusBadge(state: MonitorState, now: number): StatusBadge {
	switch (state.status) {
		case 'connecting':
			return {word: 'connecting', detail: '', tone: 'info'};
		case 'stale': {
			const since = state.lastSuccessAt ?? state.failingSince;
			const age = since === null ? '' : ` · ${formatDuration(Math.max(0, (now - since) / 1000))}`;
			return {word: 'stale', detail: age, tone: 'warn', ticks: true};
		}

		case 'down': {
			// Dated when not today: "down since 23:54" is ambiguous after two days.
			const since = state.failingSince === null ? '' : ` since ${formatWhen(state.failingSince, now)}`;
			const why = reason(state);
			return {word: 'down', detail: `${since}${why ? ` — ${why}` : ''}`, tone: 'error'};
		}

		case 'error': {
			const why = reason(state);
			return {word: 'error', detail: why ? ` — ${why}` : '', tone: 'error'};
		}

		case 'live': {
			const ago = ` · ${formatAgo(state.lastSuccessAt, now)}`;
			const snapshot = state.snapshot;
			if (snapshot?.paused === true) return {word: 'PAUSED', detail: ago, tone: 'info', ticks: true};
			if (snapshot && !snapshot.connection.connected) return {word: 'no pool', detail: ago, tone: 'warn', ticks: true};
			return {word: 'live', detail: ago, tone: 'ok', ticks: true};
		}
	}
}

/** Whether the panes show last-known values rather than the miner's present state. */
export function isOutdated(state: MonitorState): boolean {
	return state.snapshot !== null && (state.status === 'stale' || state.status === 'down' || state.status === 'error');
}
