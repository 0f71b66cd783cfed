import {useCallback, useLayoutEffect, useRef, useState} from 'react';

/**
 * What a screen's reducer returns: its next state, and the effects to carry out (calls that reach
 * outside the screen: quit, open a rig, pause the miner, apply a config). A reducer stays pure; the
 * view runs the effects.
 */
export type Step<State, Effect> = {readonly state: State; readonly effects: readonly Effect[]};

/** A step that only changes (or keeps) the state. */
export function stateOnly<State>(state: State): Step<State, never> {
	return {state, effects: []};
}

/**
 * The one way the screens handle their keys. Each action is reduced at once against the latest
 * state (held in a ref, so keys pressed back to back never act on a stale one), the state is set
 * when it changed, and the step's effects run right after, in order, each exactly once — with the
 * `reduce` and `run` of the latest render (a new screen size, new callbacks). An effect that is answered (what
 * ran it said no: a refusal to show) gives `run`'s action back, reduced at once like a key.
 */
export function useStepReducer<State, Action, Effect>(
	reduce: (state: State, action: Action) => Step<State, Effect>,
	initial: () => State,
	run: (effect: Effect) => Action | void,
): readonly [State, (action: Action) => void] {
	const [state, setState] = useState(initial);
	const current = useRef(state);
	const latest = useRef({reduce, run});
	// In the commit that draws the frame (a layout effect), not after it: a key read between a frame drawn at a new
	// size and a passive effect would otherwise be reduced for the old size (w applying under 'terminal too small').
	useLayoutEffect(() => {
		latest.current = {reduce, run};
	}, [reduce, run]);
	const dispatch = useCallback(function dispatch(action: Action) {
		const step = latest.current.reduce(current.current, action);
		if (step.state !== current.current) {
			current.current = step.state;
			setState(step.state);
		}

		for (const effect of step.effects) {
			const answer = latest.current.run(effect);
			if (answer !== undefined) dispatch(answer);
		}
	}, []);
	return [state, dispatch];
}
