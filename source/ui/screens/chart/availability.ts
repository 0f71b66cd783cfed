/**
 * Which of the chart's keys work now (screens/contract.ts): the one source of its footer, its `?` help and its key
 * handler. Every key of the chart works, but End (back to now) only once the chart was moved back in time, and `s`
 * (the series) not on an xmrig-proxy's chart (nothing read on its machine) nor where only the hashrate is recorded; over the help, the help's own keys. The
 * chart refuses nothing.
 */
import {type HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {decide, helpOf, type Availability} from '../contract.js';
import type {ChartEnv} from './state.js';

export type ChartAvailability = Availability<CommandName, Screen>;

const NOTHING_NEEDED = new Set<never>();

export function availability(state: {readonly help: boolean; readonly end: number | null}, env?: Partial<ChartEnv>): ChartAvailability {
	if (state.help) return decide(SCREEN_KEYMAP, 'help', NOTHING_NEEDED);
	const decided = decide(SCREEN_KEYMAP, 'chart', NOTHING_NEEDED);
	const works = new Set(decided.works);
	// Showing now already: End has nothing to do, and is not offered.
	if (state.end === null) works.delete('latest');
	if (!seriesOffered(env)) works.delete('series');
	return {...decided, works};
}

/** s: not on a proxy's chart, nor where nothing but the hashrate is recorded for this rig (no other series to show). */
export function seriesOffered(env?: Partial<ChartEnv>): boolean {
	return !(env?.sensors === false || (env?.recorded !== undefined && env.recorded.filter((has, index) => has && index > 0).length === 0));
}

/**
 * The help's entries: every key of the chart, End too (the help says where it leads, whatever the chart shows now), but
 * `s` only where the footer offers it: the help lists no key that does nothing here.
 */
export function chartHelp(series = true): readonly HelpEntry[] {
	const decided = decide(SCREEN_KEYMAP, 'chart', NOTHING_NEEDED);
	if (series) return helpOf(SCREEN_KEYMAP, ['chart'], decided);
	const works = new Set(decided.works);
	works.delete('series');
	return helpOf(SCREEN_KEYMAP, ['chart'], {...decided, works});
}
