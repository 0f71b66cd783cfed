/** The title bar: one row whatever its right side holds. */
import {Box, Text} from 'ink';
import {describe, expect, test} from 'vitest';
import {fitTitle, TitleBar} from '../../../source/ui/panes/title-bar.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

describe('the title bar', () => {
	test('a state longer than the line is cut on its row, never wrapped into the next', async () => {
		const terminal = await renderTerminal(
			<Box flexDirection="column" width={30}>
				<TitleBar width={30} title="rig-one · 24h">
					<Text>min 4.91 avg 5.02 max 5.12 kH/s · history off</Text>
				</TitleBar>
				<Text>next row</Text>
			</Box>,
			{columns: 30, rows: 6},
		);
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toMatch(/…\s*$/u);
		expect(lines[0]?.includes('min 4.91')).toBe(true);
		expect(lines[1]?.trimEnd()).toBe('next row');
	});

	test('styled runs in the state keep their order on the one row', async () => {
		const terminal = await renderTerminal(
			<TitleBar width={60} title="rig">
				<Text bold>● live</Text>
				<Text> · just now</Text>
			</TitleBar>,
			{columns: 60, rows: 4},
		);
		expect(linesOf(terminal.frame())[0]).toMatch(/rig\s+● live · just now$/u);
	});

	test('a title in parts drops the parts that do not fit whole, never cutting one into another value', async () => {
		const parts = ['rig-01', 'XMRig 6.26.0', 'rx/0', 'up 3d 04h'];
		expect(fitTitle(parts, 100)).toBe('rig-01 · XMRig 6.26.0 · rx/0 · up 3d 04h');
		expect(fitTitle(parts, 28)).toBe('rig-01 · XMRig 6.26.0 · rx/0');
		expect(fitTitle(parts, 20)).toBe('rig-01');
		expect(fitTitle(parts, 3)).toBe('rig-01');
		for (const width of [40, 50, 60, 70, 80]) {
			const terminal = await renderTerminal(
				<TitleBar width={width} title={parts} stateWidth={28}>
					<Text>● live · just now · every 1s</Text>
				</TitleBar>,
				{columns: width, rows: 3},
			);
			const line = linesOf(terminal.frame())[0] ?? '';
			expect(line, `at ${width}`).not.toMatch(/XMRig 6\.2?…|XMRig …|up 3d…/u);
			expect(line).toContain('● live');
			terminal.unmount();
		}
	});
});
