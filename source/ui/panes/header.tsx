import {Text} from 'ink';
import {memo} from 'react';
import {minerProduct} from '../../miner/abilities.js';
import type {MonitorState} from '../../monitor/types.js';
import {formatClock, formatDuration} from '../../format.js';
import {formatInterval} from '../../monitor/poll-interval.js';
import {useNow} from '../hooks/use-now.js';
import {SCREEN_KEYMAP} from '../keymap.js';
import {statusBadge, type StatusBadge} from '../status.js';
import {useTheme} from '../theme.js';
import {TitleBar} from './title-bar.js';

export type HeaderProps = {
	readonly state: MonitorState;
	readonly width: number;
	/** The poll interval, where the user can change it (+ -): "every 2s" on the right. */
	readonly intervalMs?: number;
	/** The display is held still (f) since then: the right side says so instead of the link's state. */
	readonly frozenAt?: number;
};

/** Who the miner is, left; how rigtop's link to it stands, right (the right side wins the space). */
function HeaderView({state, width, intervalMs, frozenAt}: HeaderProps) {
	const theme = useTheme();
	const now = useNow(1000);
	const snapshot = state.snapshot;
	const worker = snapshot?.workerId ?? null;
	const name = worker !== null && worker !== state.name ? `${state.name} (${worker})` : state.name;
	const parts = [name];
	if (snapshot) {
		if (snapshot.version !== null) parts.push(minerProduct(snapshot));
		if (snapshot.algo) parts.push(snapshot.algo);
		if (snapshot.uptime !== null) parts.push(`up ${formatDuration(snapshot.uptime)}`);
	}

	const badge: StatusBadge =
		frozenAt === undefined
			? statusBadge(state, now)
			: {word: 'FROZEN', detail: ` at ${formatClock(frozenAt)} · ${SCREEN_KEYMAP.keyOf('freeze', 'dashboard')} goes on`, tone: 'info'};
	// The state takes at most a little over half the line, so the rig name stays readable.
	const room = Math.max(8, Math.min(width - 24, Math.floor(width * 0.55)));
	let detail = intervalMs === undefined ? badge.detail : `${badge.detail} · every ${formatInterval(intervalMs)}`;
	const full = `● ${badge.word}${detail}`;
	if (full.length > room) detail = `${detail.slice(0, Math.max(0, room - badge.word.length - 3))}…`;
	return (
		<TitleBar width={width} title={parts} stateWidth={[...`● ${badge.word}${detail}`].length}>
			<Text bold {...theme.text(badge.tone)}>{`● ${badge.word}`}</Text>
			<Text {...theme.text(badge.tone === 'ok' ? 'muted' : badge.tone)}>{detail}</Text>
		</TitleBar>
	);
}

export const Header = memo(HeaderView);
