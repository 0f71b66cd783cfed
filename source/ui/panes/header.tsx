import {Text} from 'ink';
import {memo, useMemo} from 'react';
import {minerProduct} from '../../miner/abilities.js';
import type {MonitorState} from '../../monitor/types.js';
import {formatClock, formatDuration} from '../../text/format.js';
import {nameWithWorker} from '../../monitor/name.js';
import {DEFAULT_INTERVAL_MS, formatInterval} from '../../monitor/poll-interval.js';
import {useNowShownOf} from '../hooks/use-now.js';
import type {Store} from '../../monitor/store.js';
import {SCREEN_KEYMAP} from '../keys/bindings.js';
import {statusBadge, type StatusBadge} from '../text/status.js';
import {useTheme} from '../text/theme.js';
import {TitleBar, titleFitsWhole, type TitlePart} from './title-bar.js';
import {cutText} from '../widgets/wrap.js';

/**
 * The widest forms the header makes room for, so parts that change width from poll to poll ("just now", "1s ago";
 * "up 59s", "up 1m 00s") neither move the others nor make them come and go. Under a day the uptime changes width every
 * few minutes at first ("up 9m 59s", "up 10m 00s", "up 1h 00m"): it is shown only where "up 23h 59m" would fit. From a
 * day on ("up 3d 04h") it keeps its width for days, and is given its own. The ticking age goes last on the line, kept
 * "just now" wide.
 */
const UPTIME_ROOM = 'up 23h 59m'.length;
const DAY_SECONDS = 86_400;
const AGE_ROOM = ' · just now'.length;

export type HeaderProps = {
	readonly state: MonitorState;
	readonly width: number;
	/** The poll interval, where the user can change it (+ -): "every 2s" on the right. */
	readonly intervalMs?: number;
	/** The display is held still (f) since then: the right side says so instead of the link's state. */
	readonly frozenAt?: number;
	/**
	 * The monitor the state comes from: the badge's age ("live · 2s ago") reads its last good poll there, so a screen
	 * whose state leaves out the times each poll moves (the dashboard's selection, shown.ts) still dates it right.
	 */
	readonly live?: Store<MonitorState>;
};

/** Who the miner is, left; how rigtop's link to it stands, right (the right side wins the space). */
function HeaderView({state, width, intervalMs, frozenAt, live}: HeaderProps) {
	const theme = useTheme();
	const timed = useMemo<Store<MonitorState>>(() => live ?? {subscribe: () => () => {}, getState: () => state}, [live, state]);
	// Ticks and polls redraw the header only when its state changes ("live · 12s ago" each second, "down since 12:03"
	// never; a poll that leaves it "live · just now" not at all).
	const now = useNowShownOf(timed, 1000, (current, at) => (frozenAt === undefined ? badgeText(statusBadge(current, at)) : ''));
	const snapshot = state.snapshot;
	// The rig's name, its worker id beside it: "127.0.0.1:18081 (rig-01)".
	const parts: TitlePart[] = [nameWithWorker(state.name, snapshot?.workerId)];
	if (snapshot) {
		if (snapshot.version !== null) parts.push(minerProduct(snapshot));
		if (snapshot.algo) parts.push(snapshot.algo);
		if (snapshot.uptime !== null) {
			const uptime = `up ${formatDuration(snapshot.uptime)}`;
			parts.push(snapshot.uptime < DAY_SECONDS ? {text: uptime, room: UPTIME_ROOM} : uptime);
		}

		// An xmrig-proxy's mode (nicehash, simple), where there is room for it.
		if (snapshot.proxy?.mode) parts.push(snapshot.proxy.mode);
	}

	const badge: StatusBadge =
		frozenAt === undefined
			? statusBadge(timed.getState(), now)
			: {word: 'FROZEN', detail: ` at ${formatClock(frozenAt)} · ${SCREEN_KEYMAP.keyOf('freeze', 'dashboard')} goes on`, tone: 'info'};
	// The state takes at most a little over half the line, so the rig name stays readable.
	const room = Math.max(8, Math.min(width - 24, Math.floor(width * 0.55)));
	const every = intervalMs === undefined ? '' : ` · every ${formatInterval(intervalMs)}`;
	// An age goes last, padded to its widest form, so the interval and the word before it stay put as it ticks.
	const arranged = (withEvery: string) =>
		badge.ticks ? `${withEvery}${badge.detail.padEnd(Math.max(AGE_ROOM, agedRoom(intervalMs)))}` : `${badge.detail}${withEvery}`;
	let detail = arranged(every);
	const fits = (text: string) => [...`● ${badge.word}${text}`].length <= room;
	const stateWidth = (text: string) => [...`● ${badge.word}${text}`].length;
	// Narrow: the interval goes first, then the rest is cut. The default interval also gives way to the miner's own
	// parts (the uptime at 80 columns), which say more; one the user chose (+ -, --interval) stays, as they asked for
	// it. Both decided from widest forms, so nothing comes and goes as the age ticks.
	const crowds =
		intervalMs === DEFAULT_INTERVAL_MS &&
		!titleFitsWhole(parts, width, stateWidth(detail)) &&
		titleFitsWhole(parts, width, stateWidth(arranged('')));
	if (!fits(detail) || crowds) detail = arranged('');
	if (!fits(detail)) detail = cutText(detail, Math.max(1, room - badge.word.length - 2));
	return (
		<TitleBar width={width} title={parts} stateWidth={[...`● ${badge.word}${detail}`].length}>
			<Text bold {...theme.text(badge.tone)}>{`● ${badge.word}`}</Text>
			<Text {...theme.text(badge.tone === 'ok' ? 'muted' : badge.tone)}>{detail}</Text>
		</TitleBar>
	);
}

/** What a badge shows, as one string (the header's tick compares it). */
function badgeText(badge: StatusBadge): string {
	return `${badge.word}|${badge.detail}|${badge.tone}`;
}

/** Room for " · 1m 00s ago" where the polls are that far apart (a live rig's age reaches its interval). */
function agedRoom(intervalMs: number | undefined): number {
	return intervalMs === undefined ? 0 : ` · ${formatDuration(intervalMs / 1000)} ago`.length;
}

export const Header = memo(HeaderView);
