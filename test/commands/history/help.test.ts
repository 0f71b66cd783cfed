import {describe, expect, it} from 'vitest';
import {historyHelp} from '../../../source/commands/history/help.js';

describe('rigtop history --help', () => {
	it('fits an 80-column terminal, as rigtop --help does', () => {
		const help = historyHelp();
		expect(help).toContain('--worker NAME');
		for (const line of help.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
	});
});
