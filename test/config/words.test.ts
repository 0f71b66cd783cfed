/**
 * The one table that says the config engine's messages of an xmrig-proxy (source/config/words.ts): the values a
 * message quotes are the config's own words and stay as they are; a miner's words are never touched.
 */
import {describe, expect, it} from 'vitest';
import {wordsFor} from '../../source/config/words.js';

describe('wordsFor', () => {
	it('rewords the message and leaves the JSON strings it quotes as they are', () => {
		expect(wordsFor('proxy', 'user: "the miner" → "this miner"  NOT applied (the miner has "the miner")')).toBe(
			'user: "the miner" → "this miner"  NOT applied (the proxy has "the miner")',
		);
		expect(wordsFor('proxy', 'worker-id: "a \\"the miner\\" b" → null (changed on the miner)')).toBe(
			'worker-id: "a \\"the miner\\" b" → null (changed on the proxy)',
		);
		expect(wordsFor('proxy', "the miner's config changed since rigtop read it")).toBe("the proxy's config changed since rigtop read it");
		expect(wordsFor('miner', 'user: "x" (the miner has "y")')).toBe('user: "x" (the miner has "y")');
	});
});
