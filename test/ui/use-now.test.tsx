import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {Dashboard} from '../../source/ui/screens/dashboard/view.js';
import {FixedNowContext, useNow} from '../../source/ui/hooks/use-now.js';
import {createStore, makeState} from './helpers/state.js';
import {renderTerminal, tick} from './helpers/terminal.js';

const START = new Date(2026, 2, 14, 12, 0, 0).getTime();

function Clock({label}: {readonly label: string}) {
	const now = useNow(1000);
	return <Text>{`${label}=${(now - START) / 1000}`}</Text>;
}

function Three() {
	return (
		<>
			<Clock label="a" />
			<Clock label="b" />
			<Clock label="c" />
		</>
	);
}

describe('useNow', () => {
	beforeEach(() => {
		vi.useFakeTimers({toFake: ['setInterval', 'clearInterval', 'Date']});
		vi.setSystemTime(START);
	});

	afterEach(() => {
		vi.useRealTimers();
	});

	test('one timer serves every label, ticks them together, and stops with the last one', async () => {
		const {lastFrame, unmount} = render(<Three />);
		await tick();
		expect(vi.getTimerCount()).toBe(1);
		expect(lastFrame()).toBe('a=0\nb=0\nc=0');
		await vi.advanceTimersByTimeAsync(1000);
		await tick();
		expect(lastFrame()).toBe('a=1\nb=1\nc=1');
		await vi.advanceTimersByTimeAsync(2000);
		await tick();
		expect(lastFrame()).toBe('a=3\nb=3\nc=3');
		unmount();
		expect(vi.getTimerCount()).toBe(0);
	});

	test('a fixed time starts no timer', async () => {
		const {lastFrame} = render(
			<FixedNowContext.Provider value={START + 42_000}>
				<Clock label="x" />
			</FixedNowContext.Provider>,
		);
		await tick();
		expect(lastFrame()).toBe('x=42');
		expect(vi.getTimerCount()).toBe(0);
	});

	test('the dashboard\'s "ago" labels run on that one clock', async () => {
		const store = createStore(makeState({lastSuccessAt: START - 2000}));
		const {lastFrame, unmount} = render(<Dashboard store={store} onQuit={() => {}} />);
		await tick();
		expect(lastFrame()).toContain('● live · 2s ago');
		expect(vi.getTimerCount()).toBe(1);
		await vi.advanceTimersByTimeAsync(3000);
		await tick();
		expect(lastFrame()).toContain('● live · 5s ago');
		unmount();
		expect(vi.getTimerCount()).toBe(0);
	});

	test('a poll every second draws one frame per poll: the clock moves with the data, its ticks in between are skipped', async () => {
		const store = createStore(makeState({lastSuccessAt: START, snapshot: makeState().snapshot}));
		const terminal = await renderTerminal(<Dashboard store={store} onQuit={() => {}} />);
		await tick();
		const first = terminal.frames.length;
		// Polls land 10 ms before each of the clock's ticks (the worst case for drawing twice).
		for (let second = 1; second <= 5; second++) {
			await vi.advanceTimersByTimeAsync(990);
			store.set({lastSuccessAt: Date.now(), lastAttemptAt: Date.now()});
			await tick();
			await vi.advanceTimersByTimeAsync(10);
			await tick();
		}

		expect(terminal.frames.length - first).toBe(5);
		expect(terminal.frame()).toContain('● live · just now');
		// The data stops: the ticks take over, the label at most 1.5 s late.
		await vi.advanceTimersByTimeAsync(2000);
		await tick();
		expect(terminal.frame()).toContain('● live · 2s ago');
		await vi.advanceTimersByTimeAsync(1000);
		await tick();
		expect(terminal.frame()).toContain('● live · 3s ago');
		expect(terminal.frames.length - first).toBe(7);
	});

	test('a store change draws the "ago" labels against the present, not the last tick', async () => {
		const store = createStore(makeState({lastSuccessAt: START}));
		const terminal = await renderTerminal(<Dashboard store={store} onQuit={() => {}} />);
		await tick();
		await vi.advanceTimersByTimeAsync(700);
		// The last tick said START (4.5 s after the success); the change moves the clock to START + 0.7 s.
		store.set({lastSuccessAt: START - 4500});
		await tick();
		expect(terminal.frame()).toContain('● live · 5s ago');
	});
});
