import {describe, expect, it} from 'vitest';
import {batchHelp} from '../../../source/commands/batch/help.js';

describe('rigtop pause --help', () => {
	it('fits an 80-column terminal, as rigtop --help does', () => {
		const help = batchHelp();
		expect(help).toContain('--dry-run');
		for (const line of help.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
	});
});
