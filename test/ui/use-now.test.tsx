import {Text} from 'ink';
import {render} from './helpers/ink-testing.js';
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {Dashboard} from '../../source/ui/screens/dashboard/view.js';
import {FixedNowContext, syncClocks, useNow} from '../../source/ui/hooks/use-now.js';
import {SharesPane} from '../../source/ui/panes/shares-pane.js';
import {createStore, makeState, refused} from './helpers/state.js';
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
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date']});
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

	test('polls that sync the clock every interval wake no timer between them; when they stop, it ticks 1.5 intervals on', async () => {
		// Every timer callback that runs is a wake of the process: counted around the fake timers.
		let wakes = 0;
		const {setTimeout: fakeTimeout, setInterval: fakeInterval} = globalThis;
		const counted =
			<A extends unknown[]>(callback: (...args: A) => void) =>
			(...args: A) => {
				wakes++;
				callback(...args);
			};
		vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) =>
			fakeTimeout(counted(callback), ms)) as typeof setTimeout);
		vi.spyOn(globalThis, 'setInterval').mockImplementation(((callback: () => void, ms?: number) =>
			fakeInterval(counted(callback), ms)) as typeof setInterval);
		try {
			const {lastFrame, unmount} = render(<Clock label="p" />);
			await tick();
			// The poll that brought the screen its data.
			syncClocks();
			// A poll a second, each a little late (its round trip), for 20 s: the labels move with the polls alone.
			for (let second = 1; second <= 20; second++) {
				await vi.advanceTimersByTimeAsync(1000 + (second % 3) * 20);
				syncClocks();
				await tick();
			}

			expect(wakes).toBe(0);
			const synced = lastFrame();
			// The polls stop: the clock takes over 1.5 s after the last, then ticks every second.
			await vi.advanceTimersByTimeAsync(1499);
			await tick();
			expect(lastFrame()).toBe(synced);
			expect(wakes).toBe(0);
			await vi.advanceTimersByTimeAsync(1);
			await tick();
			expect(lastFrame()).not.toBe(synced);
			expect(wakes).toBe(1);
			await vi.advanceTimersByTimeAsync(3000);
			expect(wakes).toBe(4);
			unmount();
			expect(vi.getTimerCount()).toBe(0);
		} finally {
			vi.restoreAllMocks();
		}
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
		const {lastFrame, unmount} = render(<Dashboard store={store} caps={{quit: () => {}}} />);
		await tick();
		expect(lastFrame()).toContain('● live · 2s ago');
		expect(vi.getTimerCount()).toBe(1);
		await vi.advanceTimersByTimeAsync(3000);
		await tick();
		expect(lastFrame()).toContain('● live · 5s ago');
		unmount();
		expect(vi.getTimerCount()).toBe(0);
	});

	test('a poll every second that leaves the label "just now" draws no frame, nor do the ticks in between', async () => {
		const store = createStore(makeState({lastSuccessAt: START, snapshot: makeState().snapshot}));
		const terminal = await renderTerminal(<Dashboard store={store} caps={{quit: () => {}}} />);
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

		// Each poll moves only the times, and the label still reads "just now": nothing on screen changed.
		expect(terminal.frames.length - first).toBe(0);
		expect(terminal.frame()).toContain('● live · just now');
		// The data stops: the ticks take over 1.5 s after the last poll, then one a second.
		await vi.advanceTimersByTimeAsync(1500);
		await tick();
		expect(terminal.frame()).toContain('● live · 1s ago');
		await vi.advanceTimersByTimeAsync(1000);
		await tick();
		expect(terminal.frame()).toContain('● live · 2s ago');
		expect(terminal.frames.length - first).toBe(2);
	});

	test('a store change draws the "ago" labels against the present, not the last tick', async () => {
		const store = createStore(makeState({lastSuccessAt: START}));
		const terminal = await renderTerminal(<Dashboard store={store} caps={{quit: () => {}}} />);
		await tick();
		await vi.advanceTimersByTimeAsync(700);
		// The last tick said START (4.5 s after the success); the change moves the clock to START + 0.7 s.
		store.set({lastSuccessAt: START - 4500});
		await tick();
		expect(terminal.frame()).toContain('● live · 5s ago');
	});

	test('a tick that changes no label on screen draws no frame ("down since 12:03")', async () => {
		const snapshot = makeState().snapshot;
		const store = createStore(
			makeState({status: 'down', snapshot, lastSuccessAt: START - 3_600_000, failingSince: START - 3_600_000, error: refused()}),
		);
		const terminal = await renderTerminal(<Dashboard store={store} caps={{quit: () => {}}} />);
		await tick();
		expect(terminal.frame()).toContain('● down since');
		const first = terminal.frames.length;
		await vi.advanceTimersByTimeAsync(5000);
		await tick();
		expect(terminal.frames.length - first).toBe(0);
	});

	test('"last share 2h 05m ago" is redrawn when it changes, once a minute, not at each tick', async () => {
		const results = makeState().snapshot!.results;
		// 2 h 05 m 30 s ago: the label turns to "2h 06m ago" 30 s from now.
		const terminal = await renderTerminal(
			<SharesPane results={results} lastShare={{at: START - 7_530_000, atLeast: false}} width={40} height={5} outdated={false} />,
			{columns: 40, rows: 6},
		);
		await tick();
		expect(terminal.frame()).toContain('last share 2h 05m ago');
		const first = terminal.frames.length;
		await vi.advanceTimersByTimeAsync(20_000);
		await tick();
		expect(terminal.frames.length - first).toBe(0);
		await vi.advanceTimersByTimeAsync(15_000);
		await tick();
		expect(terminal.frame()).toContain('last share 2h 06m ago');
		expect(terminal.frames.length - first).toBe(1);
	});

	test('"12s ago" still moves every second on the same clock', async () => {
		const results = makeState().snapshot!.results;
		const terminal = await renderTerminal(
			<SharesPane results={results} lastShare={{at: START - 12_000, atLeast: false}} width={40} height={5} outdated={false} />,
			{columns: 40, rows: 6},
		);
		await tick();
		// Past any sync an earlier test left on the shared clock (a tick within 1.5 s of one is skipped).
		await vi.advanceTimersByTimeAsync(3000);
		await tick();
		expect(terminal.frame()).toContain('last share 15s ago');
		const first = terminal.frames.length;
		for (let second = 16; second <= 18; second++) {
			await vi.advanceTimersByTimeAsync(1000);
			await tick();
			expect(terminal.frame()).toContain(`last share ${second}s ago`);
		}

		expect(terminal.frames.length - first).toBe(3);
	});
});
