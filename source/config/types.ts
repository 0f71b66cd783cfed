/**
 * Types shared by the config engine: JSON values, key paths, and the slice of the miner client the
 * engine uses (source/miner/client.ts's MinerClient has this shape; the engine only needs these calls).
 */

export type JsonScalar = null | boolean | number | string;
export type JsonValue = JsonScalar | readonly JsonValue[] | {readonly [key: string]: JsonValue};
export type JsonObject = {readonly [key: string]: JsonValue};

/** One step of a key path: an object key, or an array index. */
export type PathSegment = string | number;
/** A key path such as ['pools', 0, 'tls'] (shown as `pools.0.tls`). */
export type ConfigPath = readonly PathSegment[];

export type ValueKind = 'boolean' | 'number' | 'string' | 'null' | 'object' | 'array';

/** What the engine needs from the miner client (MinerClient satisfies it). */
export type ConfigClient = {
	readonly url: string;
	getText(path: string, signal?: AbortSignal): Promise<string>;
	getJson(path: string, signal?: AbortSignal): Promise<unknown>;
	putJsonText(path: string, body: string, signal?: AbortSignal): Promise<void>;
	setToken(token: string | null): void;
};

/** What a secret looks like wherever rigtop shows one. */
export const SECRET_MASK = '••••••••';

/** The miner's config endpoint: served from 2.6 to 6.x (6.x also serves /2/config, the same document). */
export const CONFIG_ENDPOINT = '/1/config';
/** The summary endpoint every miner with a config endpoint serves. */
export const SUMMARY_ENDPOINT = '/1/summary';

/**
 * A whole config document as text. It holds the access token and pool passwords, so it stays out of
 * JSON, logs, string conversion and util.inspect: only `reveal()` gives the text.
 */
export class SealedText {
	readonly #text: string;

	constructor(text: string) {
		this.#text = text;
	}

	/** The document text, byte for byte (secrets included: never show it). */
	reveal(): string {
		return this.#text;
	}

	toJSON(): string {
		return '[config document]';
	}

	toString(): string {
		return '[config document]';
	}

	[Symbol.for('nodejs.util.inspect.custom')](): string {
		return 'SealedText [config document]';
	}
}
