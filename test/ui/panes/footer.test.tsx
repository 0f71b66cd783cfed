/**
 * The footer at 80 columns (issue 35): when every key the screen offers does not fit, the keys users find anyway
 * (moving, sorting, polling now, the interval, freeze: the keymap's footerRank 'low') give way first, so the keys that
 * open or change something — c config, g chart, e events, p pause — stay on the line.
 */
import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP} from '../../../source/ui/keys/bindings.js';
import type {Capability} from '../../../source/ui/keys/matcher.js';
import {fitHints, Footer} from '../../../source/ui/panes/footer.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

const EVERYTHING = new Set<Capability>([
	'config',
	'pause',
	'resume',
	'refresh',
	'fleet',
	'interval',
	'chart',
	'events',
	'threads',
	'marks',
	'fleetConfig',
	'write',
]);

/** Every key the context offers with everything given (no filter in force: the fleet and proxy offer no Esc then). */
function footerOf(context: 'dashboard' | 'fleet' | 'proxy') {
	const shown = new Set(SCREEN_KEYMAP.available(context, EVERYTHING));
	shown.delete('clearFilter');
	return SCREEN_KEYMAP.footer(context, shown);
}

describe('the footer at 80 columns', () => {
	for (const context of ['dashboard', 'fleet', 'proxy'] as const) {
		test(`the ${context}'s keys that open or change something stay; the low-ranked give way first`, async () => {
			const hints = footerOf(context);
			const {shown} = fitHints(hints, 78);
			expect(shown.length).toBeLessThan(hints.length);
			const kept = shown.map((hint) => `${hint.keys} ${hint.label}`);
			const wanted = hints.filter((hint) => ['quit', 'help', 'config', 'chart', 'events', 'pause'].includes(hint.label));
			expect(wanted.length).toBeGreaterThanOrEqual(context === 'proxy' ? 5 : 6);
			for (const hint of wanted) expect(kept).toContain(`${hint.keys} ${hint.label}`);
			// Nothing that is not low-ranked was given up while a low-ranked one stayed.
			const dropped = hints.filter((hint) => !shown.includes(hint));
			if (dropped.some((hint) => hint.low !== true)) expect(shown.some((hint) => hint.low === true)).toBe(false);
			// Drawn: one line of at most 80 columns, the kept keys in the keymap's order.
			const terminal = await renderTerminal(<Footer hints={hints} width={80} />, {columns: 80, rows: 3});
			const line = linesOf(terminal.frame())[0] ?? '';
			expect([...line].length).toBeLessThanOrEqual(80);
			expect(line.trim()).toBe(kept.join(' '));
		});
	}

	test('at 200 columns every hint is shown, two spaces apart', () => {
		const hints = footerOf('fleet');
		expect(fitHints(hints, 198)).toEqual({shown: hints, gap: '  '});
	});
});
