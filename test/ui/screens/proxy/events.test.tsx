import {describe, expect, test} from 'vitest';
import {formatWhen} from '../../../../source/text/format.js';
import type {MinerEvent} from '../../../../source/monitor/types.js';
import {App} from '../../../../source/ui/app.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';
import {startSimProxy} from './helpers/sim-proxy.js';

/** 40 events a minute apart, oldest first: every fifth the proxy's own, the others of its workers rig-01…rig-06. */
function proxyEvents(now: number): MinerEvent[] {
	return Array.from({length: 40}, (_, index): MinerEvent => {
		const at = now - (40 - index) * 60_000;
		if (index % 5 === 0)
			return {seq: index + 1, at, kind: 'upstream-error', severity: 'error', message: `upstreams in error: 1 of 2 (#${index})`};
		const worker = `rig-0${(index % 6) + 1}`;
		return {seq: index + 1, at, kind: 'worker-gone', severity: 'warn', message: `worker ${worker} gone (#${index})`, worker};
	});
}

/** The lines between the totals' note and the footer. */
function eventLinesOf(frame: string): string[] {
	const lines = linesOf(frame);
	const note = lines.findIndex((line) => line.includes('totals: '));
	expect(note).toBeGreaterThan(0);
	return lines.slice(note + 1, -1);
}

describe("the proxy screen's spare lines", () => {
	test("200×50: the lines the workers leave hold the newest events, the proxy's own and its workers', without its name", async () => {
		const proxy = await startSimProxy({workers: 6});
		const store = await proxy.store();
		const events = proxyEvents(proxy.now());
		store.set({events});
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />, {
			columns: 200,
			rows: 50,
		});
		const lines = linesOf(terminal.frame());
		// The frame fills the terminal (rows - 1), the key help on its last line.
		expect(lines).toHaveLength(49);
		expect(lines.at(-1)).toMatch(/^ q quit {2}\? help/);
		const shown = eventLinesOf(terminal.frame());
		expect(shown.length).toBeGreaterThan(20);
		const newest = [...events].reverse().slice(0, shown.length);
		for (const [index, line] of shown.entries()) {
			const event = newest[index]!;
			expect(line.trimEnd()).toBe(` ${formatWhen(event.at, proxy.now())} ${event.message}`);
		}

		expect(terminal.frame()).not.toContain('proxy-a upstreams');
		// The oldest do not fit.
		expect(terminal.frame()).not.toContain('(#0)');
	});

	test("200×50: with a filter, the events of the workers shown and the proxy's own", async () => {
		const proxy = await startSimProxy({workers: 6});
		const store = await proxy.store();
		store.set({events: proxyEvents(proxy.now())});
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />, {
			columns: 200,
			rows: 50,
		});
		await terminal.press('/rig-02\r', /totals: the 1 worker shown of 6/);
		const shown = eventLinesOf(terminal.frame()).filter((line) => line.trim() !== '');
		expect(shown.some((line) => line.includes('worker rig-02 gone'))).toBe(true);
		expect(shown.some((line) => line.includes('upstreams in error'))).toBe(true);
		for (const line of shown) expect(line).toMatch(/worker rig-02 gone|upstreams in error/);
	});

	test('80×24: the workers keep every line they need; events only in lines the table leaves', async () => {
		const proxy = await startSimProxy();
		const store = await proxy.store();
		const events = proxyEvents(proxy.now());
		store.set({events});
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		const frame = terminal.frame();
		expect(frame).toMatch(/workers 1–\d+ of 29/);
		expect(frame).not.toMatch(/\(#\d+\)/);
		expect(linesOf(frame).length).toBeLessThanOrEqual(23);
		// Nine workers leave lines spare: the newest events fill them.
		await terminal.press('/rig-0\r', /totals: the 9 workers shown of 29/);
		const filtered = linesOf(terminal.frame());
		expect(filtered).toHaveLength(23);
		const shown = eventLinesOf(terminal.frame());
		expect(shown.length).toBeGreaterThan(0);
		expect(shown[0]).toContain(events.at(-1)!.message);
		for (const line of filtered) expect([...line].length).toBeLessThanOrEqual(80);
	});
});
