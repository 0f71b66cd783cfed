import {MinerError} from './errors.js';

/**
 * Turning a miner's answer text into a value, safely: nothing but MinerError ever escapes, and a document nested
 * deeper than any XMRig answer is refused before JSON.parse builds it (V8 parses deep nesting iteratively, but the
 * code that walks the value later — diffing, cloning, printing — would recurse).
 */

/** XMRig's deepest document (the config, with per-algorithm thread arrays) is about 5 levels deep. */
export const maxJsonDepth = 64;

/** Deepest array/object nesting in a JSON text, not counting brackets inside strings. Stops counting past `limit`. */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (inString) {
			if (code === 0x5c /* \ */) {
				i++;
			} else if (code === 0x22 /* " */) {
				inString = false;
			}

			continue;
		}

		if (code === 0x22) {
			inString = true;
		} else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
			depth++;
			if (depth > deepest) {
				deepest = depth;
				if (deepest > limit) {
					return deepest;
				}
			}
		} else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
			depth--;
		}
	}

	return deepest;
}

/**
 * Whether `text` holds at most `limit` opening brackets in all (counted with indexOf, which scans natively): then no
 * nesting in it can be deeper than `limit`, and the walk of every character is not needed. A summary holds about 20;
 * brackets inside strings only make the count larger, never the verdict wrong. The walk of a 2.5 KB summary took
 * 30–40 µs (JSON.parse 18), the count 2–3 (docs/performance.md).
 */
export function fewBrackets(text: string, limit: number): boolean {
	let count = 0;
	for (const bracket of ['{', '[']) {
		for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
			count++;
			if (count > limit) return false;
		}
	}

	return true;
}

/** Parse an answer body. Throws MinerError 'bad-payload' (transient) for empty, invalid, truncated or too-deep text. */
export function parseJsonText(text: string, what = 'the answer'): unknown {
	const body = text.charCodeAt(0) === 0xfe_ff ? text.slice(1) : text;
	if (body.trim() === '') {
		throw new MinerError('bad-payload', `${what} was empty`);
	}

	if (!fewBrackets(body, maxJsonDepth) && jsonDepth(body, maxJsonDepth) > maxJsonDepth) {
		throw new MinerError('bad-payload', `${what} is nested too deeply to be from XMRig`, {
			transient: false,
			hint: "no XMRig answer is nested like this; check that the address is the miner's HTTP API",
		});
	}

	try {
		return JSON.parse(body) as unknown;
	} catch (error) {
		const start = body.trimStart()[0];
		if (start === '<') {
			// A web server's page (a router, nginx, a pool's dashboard) at that port: retrying will not change it.
			throw new MinerError('bad-payload', `${what} is an HTML page, not XMRig's API`, {
				cause: error,
				transient: false,
				hint: "is this the miner's HTTP API port? Give the port of http.port in the miner's config (api.port before 2.15)",
			});
		}

		const looksJson = start === '{' || start === '[';
		if (looksJson) {
			throw new MinerError('bad-payload', `${what} was cut short or is not valid JSON`, {
				cause: error,
				transient: true,
				hint: 'older 6.x miners cut an answer short where it holds NaN; rigtop retries',
			});
		}

		throw new MinerError('bad-payload', `${what} is not JSON`, {
			cause: error,
			transient: false,
			hint: "it is not what an XMRig miner sends; check that the address is the miner's HTTP API (http.host and http.port)",
		});
	}
}
