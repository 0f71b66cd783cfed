/**
 * Text a pane gives fewer lines or columns than it takes ends in "…" (wrap.tsx's cutText and cutLines): a frame's
 * title, a message in the footer's place, an events pane's notice. Text that fits has no "…".
 */
import {describe, expect, test} from 'vitest';
import {EventsPane} from '../../../source/ui/panes/events-pane.js';
import {MessageLine} from '../../../source/ui/panes/footer.js';
import {Pane} from '../../../source/ui/panes/pane.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

const FIX = 'cannot reach the miner: connection refused — fix: start XMRig with --http-port 18081 or give its address';

describe('text cut short in a pane ends in "…"', () => {
	test("a frame's title too long for its top edge", async () => {
		const terminal = await renderTerminal(<Pane title="Hashrate" note="· every 10 s, last 15 min" width={20} height={3} />, {
			columns: 20,
			rows: 5,
		});
		const top = linesOf(terminal.frame())[0] ?? '';
		expect(top).toMatch(/^╭ Hashrate .*…╮$/);
		expect([...top].length).toBe(20);
	});

	test('a message in the footer’s place, on its one line', async () => {
		const terminal = await renderTerminal(<MessageLine message={{text: FIX, tone: 'warn'}} width={40} lines={1} />, {columns: 40, rows: 3});
		const [line = ''] = linesOf(terminal.frame());
		expect(line.trimEnd()).toMatch(/^ cannot reach the miner: connection.*…$/);
		expect([...line].length).toBeLessThanOrEqual(40);
	});

	test("an events pane's notice on the lines the pane has; with more lines, whole", async () => {
		const cut = await renderTerminal(<EventsPane events={[]} lines={2} width={40} notice={{text: FIX, tone: 'error'}} />, {
			columns: 40,
			rows: 4,
		});
		const lines = linesOf(cut.frame()).map((line) => line.trimEnd());
		expect(lines).toHaveLength(2);
		expect(lines[1]).toMatch(/…$/);
		const whole = await renderTerminal(<EventsPane events={[]} lines={6} width={40} notice={{text: FIX, tone: 'error'}} />, {
			columns: 40,
			rows: 8,
		});
		expect(whole.frame()).not.toContain('…');
		expect(whole.frame()).toContain('give its');
	});
});
