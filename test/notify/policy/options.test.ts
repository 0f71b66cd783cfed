import {describe, expect, it} from 'vitest';
import {
	DEFAULT_POLICY,
	parseNotifyFlap,
	parseNotifyGroup,
	parseNotifyRepeat,
	policyOptionsFrom,
} from '../../../source/notify/policy/options.js';

describe('the policy flags', () => {
	it('default to a 30 s group, a 4 h repeat and 3 downs in 10 minutes', () => {
		expect(DEFAULT_POLICY).toEqual({groupMs: 30_000, repeatMs: 4 * 3_600_000, flap: {count: 3, windowMs: 600_000}});
		expect(policyOptionsFrom({})).toEqual({ok: true, options: DEFAULT_POLICY});
	});

	it('read --notify-group, --notify-repeat (0: off) and --notify-flap COUNT/WINDOW (0: off)', () => {
		expect(parseNotifyGroup('30s')).toBe(30_000);
		expect(parseNotifyGroup('1m')).toBe(60_000);
		expect(parseNotifyGroup('0')).toBe(0);
		expect(parseNotifyRepeat('4h')).toBe(4 * 3_600_000);
		expect(parseNotifyRepeat('0')).toBe(0);
		expect(parseNotifyFlap('3/10m')).toEqual({count: 3, windowMs: 600_000});
		expect(parseNotifyFlap('5 / 1h')).toEqual({count: 5, windowMs: 3_600_000});
		expect(parseNotifyFlap('0')?.count).toBe(0);
		expect(policyOptionsFrom({group: '1m', repeat: '0', flap: '4/30m'})).toEqual({
			ok: true,
			options: {groupMs: 60_000, repeatMs: 0, flap: {count: 4, windowMs: 1_800_000}},
		});
	});

	it('refuse what is not one, naming the flag and its form', () => {
		for (const text of ['', 'soon', '-5s', '30']) expect(parseNotifyGroup(text), text).toBeNull();
		for (const text of ['3', '1/10m', '3/', '3/0', 'x/10m', '3/10']) expect(parseNotifyFlap(text), text).toBeNull();
		expect(policyOptionsFrom({group: 'soon'})).toEqual({ok: false, error: '--notify-group "soon": a duration, e.g. 30s or 1m'});
		expect(policyOptionsFrom({repeat: '4'})).toEqual({ok: false, error: '--notify-repeat "4": a duration, e.g. 4h, or 0 for no repeat'});
		expect(policyOptionsFrom({flap: '3'})).toEqual({ok: false, error: '--notify-flap "3": COUNT/WINDOW, e.g. 3/10m, or 0 for off'});
	});
});
