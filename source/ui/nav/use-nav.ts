/**
 * The App's navigation as a hook: the state `reduce` (reduce.ts) gives, and a `dispatch` that reduces an action and
 * runs its effects at once (prefs handed their change, the session told the open rig, quit), as the screens' `run`
 * does theirs. The effects of the start (the rig the App opens on) run once, after the first render.
 */
import {useCallback, useEffect, useRef, useState} from 'react';
import type {Prefs} from '../../prefs/prefs.js';
import {initialNav, reduce, type NavAction, type NavEffect, type NavState} from './reduce.js';

export type NavOptions = {
	readonly fleetMode: boolean;
	readonly prefs?: {readonly initial: Prefs; readonly current: Prefs; update(change: Prefs): void} | undefined;
	/** Told which rig is open (null: none), on start and on each change. */
	readonly onOpenChange?: ((minerIndex: number | null) => void) | undefined;
	readonly onQuit: () => void;
};

export type Dispatch = (action: NavAction) => void;

export function useNav({fleetMode, prefs, onOpenChange, onQuit}: NavOptions): {readonly nav: NavState; readonly dispatch: Dispatch} {
	const [start] = useState(() => ({step: initialNav({fleetMode, prefs}), tell: onOpenChange}));
	const [nav, setNav] = useState(start.step.nav);
	// The state the next action is reduced from: the last one reduced, whether or not React has drawn it yet.
	const latest = useRef(start.step.nav);

	const run = useCallback(
		(effect: NavEffect) => {
			if (effect.type === 'prefs') prefs?.update(effect.change);
			else if (effect.type === 'openRig') onOpenChange?.(effect.rig);
			else onQuit();
		},
		[prefs, onOpenChange, onQuit],
	);
	const dispatch = useCallback(
		(action: NavAction) => {
			const step = reduce(latest.current, action);
			latest.current = step.nav;
			setNav(step.nav);
			for (const effect of step.effects) run(effect);
		},
		[run],
	);
	// At start, the rig the App opens on (the session reads every rig's threads until it is told): once, as given then.
	useEffect(() => {
		for (const effect of start.step.effects) if (effect.type === 'openRig') start.tell?.(effect.rig);
	}, [start]);
	return {nav, dispatch};
}
