/**
 * The rig's own readings on the dashboard (issue 28): the System pane says each package's °C against its sensor's own
 * max, the hottest CCD, the clock beside its max, throttling, the package watts and H/W, dropping the least of them
 * where the pane is narrow; toned by the sensor's own limits and said in words too; a rig on another machine (no
 * reading) shows nothing new.
 */
import {describe, expect, test} from 'vitest';
import type {MonitorState} from '../../../source/monitor/types.js';
import type {SensorReading} from '../../../source/sensors/types.js';
import {FixedNowContext} from '../../../source/ui/hooks/use-now.js';
import {SystemPane} from '../../../source/ui/panes/system-pane.js';
import {Dashboard} from '../../../source/ui/screens/dashboard/view.js';
import {sensorPieces, tempLevel, tempTone} from '../../../source/ui/text/sensors.js';
import {createTheme, ThemeContext} from '../../../source/ui/text/theme.js';
import {makeReading, makeTemp, okPower} from '../../helpers/sensor-reading.js';
import {inkTruecolorForTests} from '../helpers/colour.js';
import {createStore, makeSnapshot, makeState, makeThreads, NOW} from '../helpers/state.js';
import {expectFits, linesOf, renderTerminal} from '../helpers/terminal.js';

inkTruecolorForTests();

function stateWith(sensors: SensorReading | undefined, threads = 8): MonitorState {
	const snapshot = makeSnapshot({threads: makeThreads(threads), ...(sensors === undefined ? {} : {sensors})});
	return makeState({snapshot});
}

async function dashboard(state: MonitorState, columns: number, rows: number, color = false) {
	const terminal = await renderTerminal(
		<ThemeContext.Provider value={createTheme({color})}>
			<FixedNowContext.Provider value={NOW}>
				<Dashboard store={createStore(state)} caps={{quit: () => {}}} />
			</FixedNowContext.Provider>
		</ThemeContext.Provider>,
		{columns, rows},
	);
	return terminal;
}

/** The System pane's lines (the right half of the rows between its top edge and its bottom). */
function systemLines(frame: string): string[] {
	const lines = linesOf(frame);
	const top = lines.findIndex((line) => line.includes('╭ System'));
	const left = lines[top]?.indexOf('╭ System') ?? 0;
	const out: string[] = [];
	for (const line of lines.slice(top + 1)) {
		const part = line.slice(left);
		if (part.startsWith('╰')) break;
		out.push(part.replace(/^│ ?|\s*│$/gu, '').trimEnd());
	}

	return out;
}

/** Thread rows shown in the threads pane. */
function threadRows(frame: string): number {
	return linesOf(frame).filter((line) => /^│\s+\d+\s+\d/u.test(line)).length;
}

describe('the System pane with the rig readings', () => {
	test('80×24: °C with the sensor max, W and H/W on one line under the CPU; a thread row gives way, the frame fits', async () => {
		const terminal = await dashboard(stateWith(makeReading()), 80, 24);
		const lines = systemLines(terminal.frame());
		expect(lines[0]).toContain('16C/32T');
		expect(lines[1]).toBe('71°C / max 95°C · 142 W · 70.3 H/W');
		expect(lines[2]).toContain('hugepages 1 168/1 168');
		expect(lines[3]).toContain('load 7.91');
		expectFits(terminal, 80, 24);
		const remote = await dashboard(stateWith(undefined), 80, 24);
		expect(threadRows(terminal.frame())).toBe(threadRows(remote.frame()) - 1);
	});

	test('200×50: every package headline, its hottest CCD, the clock beside its max, W and H/W whole', async () => {
		const terminal = await dashboard(stateWith(makeReading()), 200, 50);
		const lines = systemLines(terminal.frame());
		expect(lines[1]).toBe('71°C / max 95°C · Tccd2 76°C · 3.85 / 4.20 GHz · 142 W · 70.3 H/W');
		expect(lines[2]).toContain('hugepages');
		expectFits(terminal, 200, 50);
	});

	test('two packages at 200×50 are each named, and take two lines where one is too short', async () => {
		const reading = makeReading({
			temps: [
				makeTemp({source: 'coretemp', label: 'Package id 0', celsius: 64, max: 84, crit: 100}),
				makeTemp({source: 'coretemp', label: 'Core 3', celsius: 66, max: 84, crit: 100, headline: false}),
				makeTemp({source: 'coretemp', package: 1, label: 'Package id 1', celsius: 88, max: 84, crit: 100}),
				makeTemp({source: 'coretemp', package: 1, label: 'Core 11', celsius: 90, max: 84, crit: 100, headline: false}),
			],
			throttle: {count: 12, rising: true, file: '/sys/devices/system/cpu/cpu0/thermal_throttle/package_throttle_count'},
			power: okPower(231, 2),
			hashesPerWatt: 61.2,
		});
		const terminal = await dashboard(stateWith(reading), 200, 50);
		const lines = systemLines(terminal.frame());
		expect(lines[1]).toBe('pkg0 64°C / max 84°C · Core 3 66°C · pkg1 88°C / max 84°C at max · Core 11 90°C at max');
		expect(lines[2]).toBe('3.85 / 4.20 GHz · throttling · 231 W · 61.2 H/W');
		expectFits(terminal, 200, 50);
		// At 80×24 the hottest package stays first.
		const narrow = await dashboard(stateWith(reading), 80, 24);
		expect(systemLines(narrow.frame())[1]).toBe('pkg1 88°C / max 84°C at max');
		expectFits(narrow, 80, 24);
	});

	test('a rig on another machine (no reading) shows nothing new: no °C, no W, the same frame as before', async () => {
		const terminal = await dashboard(stateWith(undefined), 80, 24);
		const frame = terminal.frame();
		expect(frame).not.toMatch(/°C|\bW\b|H\/W|GHz/u);
		const lines = systemLines(frame);
		expect(lines).toHaveLength(3);
		expect(lines[1]).toContain('hugepages');
		// A reading with nothing in it (no hwmon, cpufreq or powercap) is the same: never "0°C".
		const empty = await dashboard(
			stateWith(makeReading({temps: [], clock: null, throttle: null, power: {state: 'none'}, hashesPerWatt: null})),
			80,
			24,
		);
		expect(empty.frame()).toBe(frame);
	});

	test('power only root may read: a short "W needs root", no H/W, and not the whole message', async () => {
		const message = 'package power needs root: /sys/class/powercap/intel-rapl:0/energy_uj is readable by root only (kernel 5.10+)';
		const terminal = await dashboard(stateWith(makeReading({power: {state: 'denied', message}, hashesPerWatt: null})), 80, 24);
		const lines = systemLines(terminal.frame());
		expect(lines[1]).toBe('71°C / max 95°C · W needs root');
		expect(terminal.frame()).not.toContain('readable by root only');
	});

	test('before two polls gave watts, W and H/W read "—", never 0', async () => {
		const terminal = await dashboard(stateWith(makeReading({power: okPower(null), hashesPerWatt: null})), 200, 50);
		expect(systemLines(terminal.frame())[1]).toContain('— W · — H/W');
	});
});

describe('limits: colour by the sensor own max and crit, and words without colour', () => {
	const atMax = makeReading({temps: [makeTemp({celsius: 96, max: 95, crit: 105})]});
	const critical = makeReading({temps: [makeTemp({celsius: 106, max: 95, crit: 105})]});
	const noLimits = makeReading({temps: [makeTemp({celsius: 99, max: null, crit: null})]});
	const throttling = makeReading({throttle: {count: 3, rising: true, file: 'x'}});

	async function pane(reading: SensorReading, color: boolean) {
		return renderTerminal(
			<ThemeContext.Provider value={createTheme({color})}>
				<SystemPane
					cpu={makeSnapshot().cpu}
					hugepages={null}
					resources={null}
					sensors={sensorPieces(reading)}
					sensorLines={1}
					width={80}
					height={6}
					outdated={false}
				/>
			</ThemeContext.Provider>,
			{columns: 80, rows: 8},
		);
	}

	test('levels and tones: at max warn, at crit error, below or with no limit plain', () => {
		expect(tempLevel({celsius: 95, max: 95, crit: 105})).toBe('max');
		expect(tempLevel({celsius: 105, max: 95, crit: 105})).toBe('critical');
		expect(tempLevel({celsius: 94.9, max: 95, crit: 105})).toBe('normal');
		expect(tempLevel({celsius: 120, max: null, crit: null})).toBe('unknown');
		expect(tempTone('max')).toBe('warn');
		expect(tempTone('critical')).toBe('error');
		expect(tempTone('normal')).toBeNull();
		expect(tempTone('unknown')).toBeNull();
	});

	test('with colour: yellow at max, red at crit, no colour on a sensor without limits', async () => {
		expect((await pane(atMax, true)).rawFrame()).toContain('\u001B[33m96°C / max 95°C at max');
		expect((await pane(critical, true)).rawFrame()).toContain('\u001B[31m106°C / max 95°C critical');
		const plain = (await pane(noLimits, true)).rawFrame();
		expect(plain).toContain(' 99°C\u001B[90m · ');
		expect((await pane(throttling, true)).rawFrame()).toContain('\u001B[33mthrottling');
	});

	test('under NO_COLOR the words say it: "at max", "critical", "throttling", and no colour code at all', async () => {
		for (const [reading, word] of [
			[atMax, '96°C / max 95°C at max'],
			[critical, '106°C / max 95°C critical'],
			[throttling, 'throttling'],
		] as const) {
			const terminal = await pane(reading, false);
			expect(terminal.frame()).toContain(word);
			// eslint-disable-next-line no-control-regex -- a colour is ESC [ 3n m or ESC [ 9n m.
			expect(terminal.rawFrame()).not.toMatch(/\u001B\[(?:3\d|9\d)m/u);
		}
	});
});
