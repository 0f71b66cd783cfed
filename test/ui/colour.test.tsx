/**
 * With colour off the dashboard must emit no colour at all, even where the terminal supports
 * it. The test setup pins FORCE_COLOR=0, so Ink's chalk would print no colour either way and the
 * check could not fail; here Ink's own chalk instance is switched to truecolor first, and a
 * colour-on render proves the switch works before the colour-off renders are checked.
 */
import {describe, expect, test} from 'vitest';
import type {MonitorState} from '../../source/monitor/types.js';
import {App} from '../../source/ui/app.js';
import {inkTruecolorForTests} from './helpers/colour.js';
import {createStore, makeSnapshot, makeState, makeThreads, NOW, refused, wrongToken} from './helpers/state.js';
import {renderTerminal} from './helpers/terminal.js';

inkTruecolorForTests();

/** SGR sequences that set or reset a foreground or background colour (30–49, 90–107). */
function colourSequences(text: string): string[] {
	const found: string[] = [];
	for (const chunk of text.split('\u001B[').slice(1)) {
		const parameters = /^([\d;]*)m/.exec(chunk)?.[1];
		if (parameters === undefined) continue;
		const codes = parameters.split(';').map(Number);
		if (codes.some((code) => (code >= 30 && code <= 49) || (code >= 90 && code <= 107))) found.push(`ESC[${parameters}m`);
	}

	return found;
}

const states: Record<string, MonitorState> = {
	live: makeState(),
	stale: makeState({status: 'stale', lastSuccessAt: NOW - 12_000, error: refused()}),
	down: makeState({status: 'down', failingSince: NOW - 60_000, error: refused()}),
	error: makeState({status: 'error', error: wrongToken()}),
	paused: makeState({snapshot: makeSnapshot({paused: true, hugepages: {kind: 'pages', allocated: 10, total: 1168}})}),
	noPool: makeState({snapshot: makeSnapshot({connection: {connected: false}, threads: makeThreads(3)})}),
	connecting: makeState({status: 'connecting', snapshot: null}),
	errorFirst: makeState({status: 'error', snapshot: null, error: wrongToken()}),
};

async function renderAll(color: boolean, state: MonitorState, withHelp: boolean) {
	const terminal = await renderTerminal(
		<App miners={[{store: createStore(state), onPause: () => {}}]} onQuit={() => {}} now={NOW} color={color} />,
	);
	if (withHelp) await terminal.press('?', 'Keys');
	return terminal;
}

describe('colour switch', () => {
	test('control: with colour on, states are coloured (so the check below can fail)', async () => {
		const terminal = await renderAll(true, states['down'] ?? makeState(), false);
		expect(colourSequences(terminal.rawFrame()).length).toBeGreaterThan(0);
		expect(terminal.rawFrame()).toContain('\u001B[31m'); // red for down
	});

	test.each(Object.keys(states))('with colour off, %s has no colour codes and still says its state in words', async (name) => {
		const state = states[name] ?? makeState();
		const terminal = await renderAll(false, state, false);
		for (const frame of terminal.frames) expect(colourSequences(frame)).toEqual([]);
		const header = terminal.frame().split('\n')[0] ?? '';
		const word = {
			live: 'live',
			stale: 'stale',
			down: 'down',
			error: 'error',
			paused: 'PAUSED',
			noPool: 'no pool',
			connecting: 'connecting',
			errorFirst: 'error',
		}[name];
		expect(header).toContain(`● ${word}`);
	});

	test('with colour off, the help overlay has no colour codes', async () => {
		const terminal = await renderAll(false, makeState(), true);
		for (const frame of terminal.frames) expect(colourSequences(frame)).toEqual([]);
	});
});
