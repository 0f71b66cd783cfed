/**
 * Property-based tests (fast-check) of what stands between a miner's bytes and the screen, and of the config
 * document operations.
 *
 * The normalizer over arbitrary JSON and over real payloads with fields deleted or retyped is in
 * test/miner/normalize-property.test.ts; here the whole read path is fuzzed: arbitrary HTTP answers on a real socket →
 * MinerReader.read() gives a MinerSnapshot or rejects with a MinerError, nothing else, and always ends.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ConfigDocument} from '../../source/config/document.js';
import {applyEditsToText} from '../../source/config/edits.js';
import type {ConfigPath, JsonValue} from '../../source/config/types.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerError} from '../../source/miner/errors.js';
import {parseJsonText} from '../../source/miner/json-text.js';
import {MinerReader} from '../../source/miner/reader.js';
import {readCapture} from '../helpers/captures.js';
import {httpAnswer, startRawServer, type RawServer} from '../helpers/raw-server.js';

// ---- the read path ----

const realBodies = [
	'v6.26/get_2_summary.txt',
	'v6.26/get_2_backends.txt',
	'v6.26/get_1_summary.txt',
	'v2.16/get_1_summary.txt',
	'v2.16/get_1_threads.txt',
].map((file) => JSON.parse(readCapture(file).body) as unknown);

/** A real payload with random fields deleted or given a value of another type. */
const mutatedPayload = fc
	.tuple(
		fc.constantFrom(...realBodies),
		fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constant(undefined), fc.jsonValue({maxDepth: 2}))), {maxLength: 8}),
	)
	.map(([document, changes]) => {
		const copy = structuredClone(document);
		for (const [pick, replacement] of changes) {
			const holders: Record<string, unknown>[] = [];
			const walk = (value: unknown): void => {
				if (typeof value !== 'object' || value === null) return;
				holders.push(value as Record<string, unknown>);
				for (const child of Object.values(value)) walk(child);
			};

			walk(copy);
			const holder = holders[pick % holders.length];
			const keys = holder ? Object.keys(holder) : [];
			const key = keys[pick % Math.max(keys.length, 1)];
			if (holder === undefined || key === undefined) continue;
			if (replacement === undefined) delete holder[key];
			else holder[key] = replacement;
		}

		return copy;
	});

const anyBody = fc.oneof(
	mutatedPayload.map((value) => JSON.stringify(value, null, 4)),
	fc.jsonValue({maxDepth: 4}).map((value) => JSON.stringify(value)),
	fc.string({maxLength: 200}),
	// Cut short somewhere, as older 6.x did at a NaN.
	fc.tuple(mutatedPayload, fc.nat()).map(([value, at]) => {
		const text = JSON.stringify(value, null, 4);
		return text.slice(0, at % (text.length + 1));
	}),
);

/** What the server sends back for one request: a status, a body, and sometimes broken framing. */
const anyAnswer = fc.record({
	status: fc.constantFrom(200, 200, 200, 204, 301, 400, 401, 403, 404, 415, 500, 503, 999),
	body: anyBody,
	framing: fc.constantFrom('exact', 'exact', 'short', 'long', 'none', 'garbage-head'),
});

type Answer = {status: number; body: string; framing: string};

function encode(answer: Answer): string {
	// An empty body still announces its length, so the framing faults below apply to it too.
	const raw = httpAnswer(answer.status, answer.body, 'X', answer.body === '' ? ['Content-Length: 0'] : []);
	const length = Buffer.byteLength(answer.body);
	switch (answer.framing) {
		case 'short':
			return raw.replace(`Content-Length: ${length}`, `Content-Length: ${Math.max(0, length - 7)}`);
		case 'long':
			return raw.replace(`Content-Length: ${length}`, `Content-Length: ${length + 7}`);
		case 'none':
			return raw.replace(/Content-Length: \d+\r\n/u, '');
		case 'garbage-head':
			return `HTTP/1.1 ${answer.status}\r\nX: \u0001\r\n${raw}`;
		default:
			return raw;
	}
}

let server: RawServer;
let answers: Answer[] = [];
let served = 0;

beforeAll(async () => {
	server = await startRawServer((_request, socket) => {
		const answer = answers[served++ % Math.max(answers.length, 1)];
		socket.end(answer ? encode(answer) : '');
	});
});

afterAll(async () => {
	await server.close();
});

describe('the read path on arbitrary answers', () => {
	it('MinerReader.read() gives a snapshot or a MinerError with a one-line message, whatever the server sends, and ends', async () => {
		const client = new MinerClient({url: server.url, token: null}, {deadlineMs: 1000});
		try {
			await fc.assert(
				fc.asyncProperty(fc.array(anyAnswer, {minLength: 1, maxLength: 4}), async (list) => {
					answers = list;
					served = 0;
					const reader = new MinerReader(client);
					const started = Date.now();
					try {
						const snapshot = await reader.read();
						expect(typeof snapshot.connection.connected).toBe('boolean');
						expect(() => JSON.stringify(snapshot)).not.toThrow();
					} catch (error) {
						expect(error).toBeInstanceOf(MinerError);
						expect((error as MinerError).oneLine()).not.toMatch(/\n/);
					}

					expect(Date.now() - started).toBeLessThan(3000);
				}),
				{numRuns: 120},
			);
		} finally {
			await client.close();
		}
	});

	it('parseJsonText: any text → a value or a MinerError (bad-payload), never another throw', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string(),
					fc.jsonValue().map((value) => JSON.stringify(value)),
					anyBody,
				),
				(text) => {
					try {
						parseJsonText(text);
					} catch (error) {
						expect(error).toBeInstanceOf(MinerError);
						expect((error as MinerError).kind).toBe('bad-payload');
					}
				},
			),
			{numRuns: 2000},
		);
	});
});

// ---- config documents ----

const configsDir = path.resolve(import.meta.dirname, '../fixtures/xmrig-configs');
const realConfigs = readdirSync(configsDir).flatMap((version) =>
	readdirSync(path.join(configsDir, version)).map((name) => readFileSync(path.join(configsDir, version, name), 'utf8')),
);

/** Real config files as written by 2.14, 2.16 and 6.26, and the same documents laid out as other editors would. */
const configText = fc
	.tuple(fc.constantFrom(...realConfigs), fc.constantFrom('as-is', 'tabs', 'two', 'one-line', 'crlf'))
	.map(([text, layout]) => {
		const value = JSON.parse(text) as unknown;
		switch (layout) {
			case 'tabs':
				return JSON.stringify(value, null, '\t');
			case 'two':
				return `${JSON.stringify(value, null, 2)}\n`;
			case 'one-line':
				return JSON.stringify(value);
			case 'crlf':
				return text.replaceAll(/\r?\n/gu, '\r\n');
			default:
				return text;
		}
	});

function booleanPaths(document: ConfigDocument): ConfigPath[] {
	return document
		.entries()
		.filter((entry) => entry.kind === 'boolean')
		.map((entry) => entry.path);
}

function scalarPaths(document: ConfigDocument): ConfigPath[] {
	return document
		.entries()
		.filter((entry) => entry.kind === 'number' || entry.kind === 'string' || entry.kind === 'boolean' || entry.kind === 'null')
		.map((entry) => entry.path);
}

function setAt(value: JsonValue, at: ConfigPath, next: JsonValue): JsonValue {
	if (at.length === 0) return next;
	const [head, ...rest] = at;
	if (Array.isArray(value)) return value.map((item: JsonValue, index) => (index === head ? setAt(item, rest, next) : item));
	const object = value as Record<string, JsonValue>;
	return {...object, [head as string]: setAt(object[head as string]!, rest, next)};
}

describe('config document operations on real-config-derived documents', () => {
	it('toggling keys and toggling them back, in any order, gives the identical text', () => {
		fc.assert(
			fc.property(configText, fc.array(fc.nat(), {minLength: 1, maxLength: 8}), fc.infiniteStream(fc.nat()), (text, picks, order) => {
				const document = new ConfigDocument(text);
				const paths = booleanPaths(document);
				if (paths.length === 0) return;
				const chosen = [
					...new Map(
						picks.map((pick) => {
							const at = paths[pick % paths.length]!;
							return [at.join('\u0000'), at] as const;
						}),
					).values(),
				];
				let current = text;
				for (const at of chosen) current = new ConfigDocument(current).set(at, !(new ConfigDocument(current).get(at) as boolean));
				expect(current).not.toBe(text);
				// Back, in another order.
				const back = [...chosen].sort(() => (order.next().value % 2 === 0 ? -1 : 1));
				for (const at of back) current = new ConfigDocument(current).set(at, !(new ConfigDocument(current).get(at) as boolean));
				expect(current).toBe(text);
			}),
			{numRuns: 300},
		);
	});

	it('the text sent is the text read plus exactly the edits: same meaning as the edited value, and undoing them restores every byte', () => {
		const newValue = fc.oneof(fc.boolean(), fc.integer({min: -5, max: 100_000}), fc.string({maxLength: 20}), fc.constant(null));
		fc.assert(
			fc.property(configText, fc.array(fc.tuple(fc.nat(), newValue), {minLength: 1, maxLength: 6}), (text, wanted) => {
				const document = new ConfigDocument(text);
				const paths = scalarPaths(document);
				const edits = new Map<string, {path: ConfigPath; after: JsonValue; before: JsonValue}>();
				for (const [pick, after] of wanted) {
					const at = paths[pick % paths.length]!;
					edits.set(at.join('\u0000'), {path: at, after, before: document.get(at)!});
				}

				const list = [...edits.values()];
				const sent = applyEditsToText(text, list);
				let expected: JsonValue = document.value;
				for (const edit of list) expected = setAt(expected, edit.path, edit.after);
				expect(JSON.parse(sent)).toEqual(expected);
				expect(
					applyEditsToText(
						sent,
						list.map((edit) => ({path: edit.path, after: edit.before})),
					),
				).toBe(text);
			}),
			{numRuns: 300},
		);
	});
});
