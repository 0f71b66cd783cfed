import type {Notice} from '../../../source/notify/types.js';

/** Notices for the channels' tests. */
export const AT = Date.UTC(2026, 11, 8, 2, 10, 0);

export function troubleNotice(overrides: Partial<Notice> = {}): Notice {
	return {
		key: 'k-down-1',
		kind: 'trouble',
		trouble: 'down',
		severity: 'error',
		priority: 'high',
		title: '2 rigs down: rig-03, rig-07',
		body: 'rig-03: down: connection refused\nrig-07: down: no answer',
		rigs: [
			{rig: 'rig-03', url: 'http://10.0.0.3:8080', since: AT, message: 'down: connection refused'},
			{rig: 'rig-07', url: 'http://10.0.0.7:8080', since: AT + 2000, message: 'down: no answer'},
		],
		at: AT + 30_000,
		...overrides,
	};
}

export function resolvedNotice(overrides: Partial<Notice> = {}): Notice {
	return troubleNotice({
		key: 'k-down-1-resolved',
		kind: 'resolved',
		severity: 'info',
		priority: 'low',
		title: '2 rigs back up',
		body: 'rig-03: was down 30m\nrig-07: was down 29m',
		rigs: [
			{rig: 'rig-03', url: 'http://10.0.0.3:8080', since: AT, until: AT + 1_800_000, message: 'down: connection refused'},
			{rig: 'rig-07', url: 'http://10.0.0.7:8080', since: AT + 2000, until: AT + 1_800_000, message: 'down: no answer'},
		],
		at: AT + 1_800_000,
		...overrides,
	});
}
