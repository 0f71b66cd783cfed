import {describe, expect, test} from 'vitest';
import {noteSensorMessages} from '../../../source/commands/live/sensor-notices.js';
import {NoticeLog} from '../../../source/monitor/notices.js';
import {makeReading} from '../../helpers/sensors.js';
import {createStore, makeSnapshot, makeState} from '../../ui/helpers/state.js';

const MESSAGE = 'power: /sys/class/powercap/intel-rapl:0/energy_uj is root-only; run rigtop as root, or sudo chmod o+r it';

describe('the power reading only root may read', () => {
	test('is said once among the notices, however many polls and local miners carry it; an ok reading says nothing', () => {
		const denied = makeState({
			snapshot: makeSnapshot({sensors: makeReading({power: {state: 'denied', message: MESSAGE}, hashesPerWatt: null})}),
		});
		const a = createStore(makeState());
		const b = createStore(makeState());
		const notices = new NoticeLog();
		const stop = noteSensorMessages([a, b], notices);
		expect(notices.getState()).toHaveLength(0);
		a.set({snapshot: denied.snapshot});
		a.set({polls: 2});
		b.set({snapshot: denied.snapshot});
		a.set({polls: 3});
		expect(notices.getState().map((notice) => notice.message)).toEqual([MESSAGE]);
		expect(notices.getState()[0]?.severity).toBe('info');
		stop();
		// Stopped: a new line is not followed any more.
		a.set({snapshot: makeSnapshot({sensors: makeReading({power: {state: 'denied', message: 'other'}})})});
		expect(notices.getState()).toHaveLength(1);
	});
});
