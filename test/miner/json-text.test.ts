import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import {fewBrackets, jsonDepth, maxJsonDepth, parseJsonText} from '../../source/miner/json-text.js';

function parseError(text: string): MinerError {
	try {
		parseJsonText(text);
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected a MinerError');
}

describe('parseJsonText', () => {
	it('parses JSON, with or without a byte-order mark', () => {
		expect(parseJsonText('{"a": [1, 2]}')).toEqual({a: [1, 2]});
		expect(parseJsonText('\uFEFF[true]')).toEqual([true]);
	});

	it('reports an empty body', () => {
		const error = parseError(' \n');
		expect(error.kind).toBe('bad-payload');
		expect(error.message).toMatch(/empty/u);
	});

	it('tells HTML from a truncated document', () => {
		const page = parseError('<html><body>Welcome to nginx</body></html>');
		expect(page.oneLine()).toBe(
			"the answer is an HTML page, not XMRig's API — is this the miner's HTTP API port? Give the port of http.port in the miner's config (api.port before 2.15)",
		);
		expect(page.transient).toBe(false);
		expect(parseError('\n  <?xml version="1.0"?><error/>').message).toMatch(/an HTML page/u);
		const text = parseError('It works!');
		expect(text.message).toBe('the answer is not JSON');
		expect(text.hint).not.toMatch(/NaN/u);
		const truncated = parseError('{"hashrate": {"total": [812.4, ');
		expect(truncated.kind).toBe('bad-payload');
		expect(truncated.message).toMatch(/cut short/u);
		expect(truncated.transient).toBe(true);
		expect(truncated.hint).toBe('older 6.x miners cut an answer short where it holds NaN; rigtop retries');
		expect(parseError(' ').hint).not.toMatch(/NaN/u);
		expect(parseError('['.repeat(100) + ']'.repeat(100)).hint).toMatch(/check that the address is the miner's HTTP API/u);
	});

	it('refuses NaN and Infinity as written by older 6.x', () => {
		expect(parseError('{"hashrate": NaN}').kind).toBe('bad-payload');
		expect(parseError('[Infinity]').kind).toBe('bad-payload');
	});

	it('refuses a 100,000-deep nesting without touching the stack', () => {
		const deep = '['.repeat(100_000) + ']'.repeat(100_000);
		const error = parseError(deep);
		expect(error.kind).toBe('bad-payload');
		expect(error.message).toMatch(/nested too deeply/u);
		const deepObject = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
		expect(parseError(deepObject).kind).toBe('bad-payload');
	});

	it('accepts nesting up to the limit and ignores brackets inside strings', () => {
		const ok = '['.repeat(maxJsonDepth) + ']'.repeat(maxJsonDepth);
		expect(() => parseJsonText(ok)).not.toThrow();
		const inString = JSON.stringify({text: '[[[[{{{{'.repeat(100), quote: 'a \\" [[[ "'});
		expect(jsonDepth(inString)).toBe(1);
		expect(() => parseJsonText(inString)).not.toThrow();
	});

	it('counts brackets before it walks the text, and the count never lets a deep text through', () => {
		// Few brackets in all: the walk is skipped. One more than the limit: the text is walked.
		expect(fewBrackets('{"a":[1,2],"b":{"c":[]}}', 4)).toBe(true);
		expect(fewBrackets('{"a":[1,2],"b":{"c":[]}}', 3)).toBe(false);
		expect(fewBrackets('"[[[{{{"', 5)).toBe(false);
		// Shallow but with many brackets (a proxy's worker list): walked, accepted.
		const wide = JSON.stringify(Array.from({length: 500}, (_, i) => [i, {n: [i]}]));
		expect(fewBrackets(wide, maxJsonDepth)).toBe(false);
		expect(() => parseJsonText(wide)).not.toThrow();
		// Any nesting: the verdict is the walk's.
		fc.assert(
			fc.property(fc.integer({min: 0, max: 2 * maxJsonDepth}), fc.integer({min: 0, max: 40}), fc.boolean(), (depth, siblings, objects) => {
				const open = objects ? '{"k":' : '[';
				const close = objects ? '}' : ']';
				const text = `[${'[],'.repeat(siblings)}${open.repeat(depth)}1${close.repeat(depth)}]`;
				const deep = jsonDepth(text) > maxJsonDepth;
				let refused = false;
				try {
					parseJsonText(text);
				} catch {
					refused = true;
				}

				expect(refused).toBe(deep);
			}),
		);
	});
});
