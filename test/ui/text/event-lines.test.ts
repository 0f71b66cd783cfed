import {describe, expect, test} from 'vitest';
import {describeEvents, type TimedEvent} from '../../../source/ui/text/event-lines.js';

const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).getTime();
const now = at(14, 9, 30);
const event = (t: number, kind: string, text: string, extra: Partial<TimedEvent> = {}): TimedEvent => ({
	t,
	kind,
	severity: kind === 'down' ? 'error' : 'info',
	text,
	...extra,
});

describe('events as the screens tell them', () => {
	test('times carry their date when not today', () => {
		const lines = describeEvents([event(at(13, 22), 'started', 'watching rig-01'), event(at(14, 8), 'paused', 'paused')], now);
		expect(lines.map((line) => line.when)).toEqual(['Mar 13 22:00', '08:00']);
	});

	test("an 'up' says the outage it ends: its span and length", () => {
		const lines = describeEvents(
			[
				event(at(13, 23, 54), 'down', 'down: connection refused'),
				event(at(13, 23, 58), 'error', 'error: wrong token (403)'),
				event(at(14, 0, 12), 'up', 'back up after 18m 00s'),
			],
			now,
		);
		expect(lines.map((line) => line.text)).toEqual([
			'down: connection refused',
			'error: wrong token (403)',
			'back up · down Mar 13 23:54–00:12, 18m',
		]);
		expect(lines[0]?.severity).toBe('error');
	});

	test('rigs are paired apart, and a rigtop started again forgets an outage it did not see end', () => {
		const lines = describeEvents(
			[
				event(at(14, 1), 'down', 'down: timed out', {rig: 'a'}),
				event(at(14, 2), 'down', 'down: timed out', {rig: 'b'}),
				event(at(14, 3), 'up', 'back up after 1h 00m', {rig: 'b'}),
				event(at(14, 4), 'started', 'watching a', {rig: 'a'}),
				event(at(14, 5), 'up', 'back up after 4h 00m', {rig: 'a'}),
			],
			now,
		);
		expect(lines[2]?.text).toBe('back up · down 02:00–03:00, 1h');
		expect(lines[4]?.text).toBe('back up after 4h 00m');
		expect(new Set(lines.map((line) => line.key)).size).toBe(lines.length);
	});

	test("a rigtop's refused token (watcher) is no outage of the rig: the rig's 'up' spans from its 'down'", () => {
		const lines = describeEvents(
			[
				event(at(14, 8, 37), 'error', 'error: forbidden (HTTP 403)', {watcher: true}),
				event(at(14, 8, 39), 'down', 'down: connection refused'),
				event(at(14, 8, 40), 'up', 'back up after 1m 00s'),
				event(at(14, 8, 50), 'up', 'back up after 13m 00s', {watcher: true}),
			],
			now,
		);
		expect(lines[2]?.text).toBe('back up · down 08:39–08:40, 1m');
		// The watcher's own link back pairs with its own error.
		expect(lines[3]?.text).toBe('back up · down 08:37–08:50, 13m');
	});
});
