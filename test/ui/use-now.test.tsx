import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {Dashboard} from '../../source/ui/dashboard.js';
import {FixedNowContext, useNow} from '../../source/ui/hooks/use-now.js';
import {createStore, makeState} from './helpers/state.js';
import {tick} from './helpers/terminal.js';

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
});
