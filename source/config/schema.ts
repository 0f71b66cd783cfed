/**
 * What rigtop knows about XMRig config keys: allowed values and ranges, which values a key cycles
 * through, which keys are secrets, and which changes can cut rigtop off from the miner's API.
 *
 * Covers the 6.x layout (api + http sections, cpu/randomx/opencl/cuda objects), xmrig-proxy's own keys, the 2.15–2.16 layout
 * (api + http, top-level cpu keys) and the older layout before 2.15 (one `api` section with port,
 * access-token, ipv6, restricted). Keys rigtop does not know keep the type they have.
 */
import {kindOf, showPath} from './json-values.js';
import type {ConfigPath, JsonValue, ValueKind} from './types.js';
import {jsonText} from '../text/json-out.js';

/** One form a value may take. */
export type Alternative =
	| {readonly type: 'boolean'}
	| {readonly type: 'null'}
	| {readonly type: 'integer'; readonly min?: number; readonly max?: number}
	| {readonly type: 'number'; readonly min?: number; readonly max?: number}
	| {readonly type: 'string'; readonly oneOf?: readonly string[]; readonly nonEmpty?: boolean}
	| {readonly type: 'array'}
	| {readonly type: 'object'};

export type KeySpec = {
	/** Dotted pattern; `*` stands for an array index (`pools.*.tls`). */
	readonly pattern: string;
	readonly alternatives: readonly Alternative[];
	/** The values Space / the cycle keys step through, in order. */
	readonly cycle?: readonly JsonValue[];
	/** When the change takes effect, where that is not "at once". */
	readonly note?: string;
};

const BOOL: Alternative = {type: 'boolean'};
const NULL: Alternative = {type: 'null'};
const STRING: Alternative = {type: 'string'};
const NON_EMPTY: Alternative = {type: 'string', nonEmpty: true};
const ARRAY: Alternative = {type: 'array'};
const int = (min?: number, max?: number): Alternative => ({
	type: 'integer',
	...(min === undefined ? {} : {min}),
	...(max === undefined ? {} : {max}),
});
const oneOf = (...values: string[]): Alternative => ({type: 'string', oneOf: values});
const range = (from: number, to: number): number[] => Array.from({length: to - from + 1}, (_, index) => from + index);

const RESTART = 'takes effect after the miner restarts';
const NEXT_INIT = 'takes effect at the next RandomX dataset init (new seed or algorithm)';
const ASM_CYCLE: readonly JsonValue[] = [true, false, 'intel', 'ryzen', 'bulldozer'];
const ASM: readonly Alternative[] = [BOOL, oneOf('auto', 'none', 'intel', 'ryzen', 'bulldozer')];
const PRIORITY_CYCLE: readonly JsonValue[] = [null, ...range(0, 5)];

const SPECS: readonly KeySpec[] = [
	// api + http (2.15.1+)
	{pattern: 'api.id', alternatives: [NULL, STRING]},
	{pattern: 'api.worker-id', alternatives: [NULL, STRING]},
	{pattern: 'http.enabled', alternatives: [BOOL]},
	{pattern: 'http.host', alternatives: [NON_EMPTY]},
	{pattern: 'http.port', alternatives: [int(0, 65_535)]},
	{pattern: 'http.access-token', alternatives: [NULL, NON_EMPTY]},
	{pattern: 'http.restricted', alternatives: [BOOL]},
	// older layout (before 2.15)
	{pattern: 'api.port', alternatives: [int(0, 65_535)]},
	{pattern: 'api.access-token', alternatives: [NULL, NON_EMPTY]},
	{pattern: 'api.ipv6', alternatives: [BOOL]},
	{pattern: 'api.restricted', alternatives: [BOOL]},
	// top level (all versions)
	{pattern: 'autosave', alternatives: [BOOL]},
	{pattern: 'background', alternatives: [BOOL], note: RESTART},
	{pattern: 'colors', alternatives: [BOOL]},
	{pattern: 'title', alternatives: [BOOL, STRING], note: RESTART},
	{pattern: 'syslog', alternatives: [BOOL], note: RESTART},
	{pattern: 'watch', alternatives: [BOOL], note: RESTART},
	{pattern: 'dmi', alternatives: [BOOL]},
	{pattern: 'log-file', alternatives: [NULL, STRING], note: RESTART},
	{pattern: 'user-agent', alternatives: [NULL, STRING], note: RESTART},
	{pattern: 'donate-level', alternatives: [int(0, 99)], note: 'the miner shows it at once; the donation time changes after a restart'},
	{pattern: 'donate-over-proxy', alternatives: [int(0, 2)], cycle: [0, 1, 2]},
	{pattern: 'retries', alternatives: [int(1, 1000)]},
	{pattern: 'retry-pause', alternatives: [int(1, 3600)]},
	{pattern: 'print-time', alternatives: [int(0, 3600)]},
	{pattern: 'health-print-time', alternatives: [int(0, 3600)]},
	{pattern: 'verbose', alternatives: [BOOL, int(0, 5)]},
	{pattern: 'pause-on-battery', alternatives: [BOOL]},
	{pattern: 'pause-on-active', alternatives: [BOOL, int(1)]},
	// xmrig-proxy's own (XMRig has no top-level mode)
	{
		pattern: 'mode',
		alternatives: [oneOf('nicehash', 'simple', 'extra_nonce')],
		cycle: ['nicehash', 'simple', 'extra_nonce'],
		note: RESTART,
	},
	// how the proxy groups its miners into workers: true is rig_id, false none (Workers.cpp of xmrig-proxy)
	{
		pattern: 'workers',
		alternatives: [BOOL, oneOf('none', 'rig_id', 'user', 'password', 'agent', 'ip')],
		cycle: [true, 'user', 'agent', 'ip', false],
	},
	// randomx (3.x+)
	{pattern: 'randomx.mode', alternatives: [oneOf('auto', 'fast', 'light')], cycle: ['auto', 'fast', 'light'], note: NEXT_INIT},
	{pattern: 'randomx.1gb-pages', alternatives: [BOOL], note: NEXT_INIT},
	{pattern: 'randomx.init', alternatives: [int(-1, 1024)], note: NEXT_INIT},
	{pattern: 'randomx.init-avx2', alternatives: [int(-1, 1)], cycle: [-1, 0, 1], note: NEXT_INIT},
	{pattern: 'randomx.rdmsr', alternatives: [BOOL], note: RESTART},
	{pattern: 'randomx.wrmsr', alternatives: [BOOL, int(-1, 15), ARRAY], note: RESTART},
	{pattern: 'randomx.cache_qos', alternatives: [BOOL], note: RESTART},
	{pattern: 'randomx.numa', alternatives: [BOOL, ARRAY], note: NEXT_INIT},
	{pattern: 'randomx.scratchpad_prefetch_mode', alternatives: [int(0, 3)], cycle: range(0, 3)},
	// cpu (3.x+)
	{pattern: 'cpu.enabled', alternatives: [BOOL]},
	{pattern: 'cpu.huge-pages', alternatives: [BOOL, int(1)]},
	{pattern: 'cpu.huge-pages-jit', alternatives: [BOOL]},
	{pattern: 'cpu.hw-aes', alternatives: [NULL, BOOL], cycle: [null, true, false]},
	{pattern: 'cpu.priority', alternatives: [NULL, int(0, 5)], cycle: PRIORITY_CYCLE},
	{pattern: 'cpu.memory-pool', alternatives: [BOOL, int(0)], note: RESTART},
	{pattern: 'cpu.yield', alternatives: [BOOL], note: 'takes effect when the mining threads next restart'},
	{pattern: 'cpu.max-threads-hint', alternatives: [int(1, 100)], note: 'only used while the cpu section has no thread profiles'},
	{pattern: 'cpu.asm', alternatives: ASM, cycle: ASM_CYCLE},
	{pattern: 'cpu.argon2-impl', alternatives: [NULL, STRING]},
	// GPU backends
	{pattern: 'opencl.enabled', alternatives: [BOOL]},
	{pattern: 'opencl.cache', alternatives: [BOOL]},
	{pattern: 'opencl.adl', alternatives: [BOOL]},
	{pattern: 'opencl.loader', alternatives: [NULL, STRING], note: RESTART},
	{pattern: 'cuda.enabled', alternatives: [BOOL]},
	{pattern: 'cuda.loader', alternatives: [NULL, STRING], note: RESTART},
	{pattern: 'cuda.nvml', alternatives: [BOOL, STRING]},
	{pattern: 'cuda.bfactor-hint', alternatives: [int(0, 12)]},
	{pattern: 'cuda.bsleep-hint', alternatives: [int(0)]},
	// dns, tls (6.x)
	{pattern: 'dns.ip_version', alternatives: [int(0, 6)], cycle: [0, 4, 6]},
	{pattern: 'dns.ttl', alternatives: [int(1)]},
	{pattern: 'tls.enabled', alternatives: [BOOL]},
	// pools
	{pattern: 'pools.*.url', alternatives: [NON_EMPTY]},
	{pattern: 'pools.*.user', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.pass', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.rig-id', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.algo', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.coin', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.enabled', alternatives: [BOOL]},
	{pattern: 'pools.*.nicehash', alternatives: [BOOL]},
	{pattern: 'pools.*.keepalive', alternatives: [BOOL, int(1)]},
	{pattern: 'pools.*.tls', alternatives: [BOOL]},
	{pattern: 'pools.*.sni', alternatives: [BOOL]},
	{pattern: 'pools.*.tls-fingerprint', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.daemon', alternatives: [BOOL]},
	{pattern: 'pools.*.daemon-poll-interval', alternatives: [int(1)]},
	{pattern: 'pools.*.socks5', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.self-select', alternatives: [NULL, STRING]},
	{pattern: 'pools.*.submit-to-origin', alternatives: [BOOL]},
	{pattern: 'pools.*.variant', alternatives: [int(-1), STRING]},
	// xmrig-proxy's other keys (6.x; mode and workers are above): the miners' side (bind) and the password they log in with.
	{pattern: 'access-password', alternatives: [NULL, STRING]},
	{pattern: 'access-log-file', alternatives: [NULL, STRING], note: RESTART},
	{pattern: 'algo-ext', alternatives: [BOOL]},
	{pattern: 'custom-diff', alternatives: [int(0)]},
	{pattern: 'custom-diff-stats', alternatives: [BOOL]},
	{pattern: 'reuse-timeout', alternatives: [int(0)]},
	{pattern: 'bind', alternatives: [ARRAY], note: RESTART},
	{pattern: 'bind.*.host', alternatives: [NON_EMPTY], note: RESTART},
	{pattern: 'bind.*.port', alternatives: [int(0, 65_535)], note: RESTART},
	{pattern: 'bind.*.tls', alternatives: [BOOL], note: RESTART},
	// 2.x top-level CPU keys (before 3.0)
	{pattern: 'algo', alternatives: [NON_EMPTY]},
	{pattern: 'asm', alternatives: ASM, cycle: ASM_CYCLE},
	{pattern: 'av', alternatives: [int(0, 10)]},
	{pattern: 'huge-pages', alternatives: [BOOL]},
	{pattern: 'hw-aes', alternatives: [NULL, BOOL], cycle: [null, true, false]},
	{pattern: 'cpu-priority', alternatives: [NULL, int(0, 5)], cycle: PRIORITY_CYCLE},
	{pattern: 'max-cpu-usage', alternatives: [int(1, 100)]},
	{pattern: 'safe', alternatives: [BOOL]},
];

/** Keys whose change can cut rigtop off from the miner's API. */
const GUARDED = new Set([
	'http.enabled',
	'http.host',
	'http.port',
	'http.access-token',
	'http.restricted',
	'api.port',
	'api.access-token',
	'api.ipv6',
	'api.restricted',
]);

/** Keys that hold the API token (the one rigtop must use after a change). */
const TOKEN_KEYS = new Set(['http.access-token', 'api.access-token']);
/** Keys that turn restricted mode on or off. */
const RESTRICTED_KEYS = new Set(['http.restricted', 'api.restricted']);
/** Key names that hold a secret wherever they appear (`access-password`: what miners log in to an xmrig-proxy with). */
const SECRET_NAMES = new Set(['access-token', 'access-password', 'pass', 'password', 'passwd', 'secret', 'api-key', 'apikey', 'token']);

/** The pattern form of a path: indexes become `*`. */
function patternOf(path: ConfigPath): string {
	return path.map((segment) => (typeof segment === 'number' ? '*' : segment)).join('.');
}

const SPEC_BY_PATTERN = new Map(SPECS.map((spec) => [spec.pattern, spec]));

/** What rigtop knows about a key, or null for a key it does not know. */
export function specFor(path: ConfigPath): KeySpec | null {
	return SPEC_BY_PATTERN.get(patternOf(path)) ?? null;
}

/** Whether the value at this path is a secret: masked everywhere, never shown, sent back unchanged. */
export function isSecret(path: ConfigPath): boolean {
	const last = path.at(-1);
	return typeof last === 'string' && SECRET_NAMES.has(last.toLowerCase());
}

/** Whether a change here can cut rigtop off from the miner (the UI asks twice). */
export function isApiGuarded(path: ConfigPath): boolean {
	return GUARDED.has(patternOf(path));
}

/** Whether this is the API access token (`http.access-token`, or `api.access-token` before 2.15). */
export function isTokenKey(path: ConfigPath): boolean {
	return TOKEN_KEYS.has(patternOf(path));
}

/** Whether this is the API restricted flag (`http.restricted`, or `api.restricted` before 2.15). */
export function isRestrictedKey(path: ConfigPath): boolean {
	return RESTRICTED_KEYS.has(patternOf(path));
}

function matches(alternative: Alternative, value: JsonValue): boolean {
	switch (alternative.type) {
		case 'boolean':
			return typeof value === 'boolean';
		case 'null':
			return value === null;
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value) && inRange(alternative, value);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) && inRange(alternative, value);
		case 'string':
			return (
				typeof value === 'string' &&
				(alternative.oneOf === undefined || alternative.oneOf.includes(value)) &&
				(alternative.nonEmpty !== true || value.trim() !== '')
			);
		case 'array':
			return Array.isArray(value);
		case 'object':
			return kindOf(value) === 'object';
	}
}

function inRange(alternative: {readonly min?: number; readonly max?: number}, value: number): boolean {
	return (alternative.min === undefined || value >= alternative.min) && (alternative.max === undefined || value <= alternative.max);
}

function describeAlternative(alternative: Alternative): string {
	switch (alternative.type) {
		case 'boolean':
			return 'true or false';
		case 'null':
			return 'null';
		case 'integer':
		case 'number': {
			const noun = alternative.type === 'integer' ? 'a whole number' : 'a number';
			const {min, max} = alternative;
			if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
			if (min !== undefined) return `${noun} of at least ${min}`;
			if (max !== undefined) return `${noun} of at most ${max}`;
			return noun;
		}

		case 'string':
			if (alternative.oneOf) return alternative.oneOf.map((item) => JSON.stringify(item)).join(', ');
			return alternative.nonEmpty ? 'a non-empty string' : 'a string';
		case 'array':
			return 'a list';
		case 'object':
			return 'an object';
	}
}

function joinChoices(parts: readonly string[]): string {
	if (parts.length <= 1) return parts[0] ?? '';
	return `${parts.slice(0, -1).join(', ')} or ${parts.at(-1) ?? ''}`;
}

const KIND_WORDS: Record<ValueKind, string> = {
	boolean: 'true or false',
	number: 'a number',
	string: 'a string',
	null: 'null',
	object: 'an object',
	array: 'a list',
};

/**
 * Checks a value for a key before it is accepted. Known keys are checked against their type and
 * range; a key rigtop does not know must keep the kind of value it has now (`current`), except that a
 * null may become any plain value. Returns null when the value is fine, else a plain message.
 */
export function validate(path: ConfigPath, value: JsonValue, current?: JsonValue): string | null {
	const name = showPath(path);
	if (typeof value === 'number' && !Number.isFinite(value)) return `${name} must be a finite number`;
	const spec = specFor(path);
	if (spec) {
		if (spec.alternatives.some((alternative) => matches(alternative, value))) return null;
		return `${name} must be ${joinChoices(spec.alternatives.map((alternative) => describeAlternative(alternative)))} (not ${jsonText(value)})`;
	}

	if (current === undefined) return null;
	const want = kindOf(current);
	const got = kindOf(value);
	if (want === got || want === 'null') return null;
	// A key rigtop does not know may hold null as "off/auto": allow setting it back to null.
	if (got === 'null') return null;
	return `${name} must be ${KIND_WORDS[want]}, like its current value (not ${jsonText(value)})`;
}

/** The values a key cycles through (Space / cycle keys), or null when it does not cycle. Booleans cycle true/false. */
export function cycleValues(path: ConfigPath, current: JsonValue | undefined): readonly JsonValue[] | null {
	const spec = specFor(path);
	if (spec?.cycle) return spec.cycle;
	if (typeof current === 'boolean') {
		// A key that is a boolean or a number (huge-pages in KB, keepalive…) toggles between the booleans.
		return [true, false];
	}

	return null;
}

/**
 * The next value in the key's cycle (direction +1 or -1). A current value outside the cycle (e.g.
 * `cpu.huge-pages: 1048576`) moves to the first entry. Null when the key does not cycle.
 */
export function nextInCycle(path: ConfigPath, current: JsonValue | undefined, direction: 1 | -1 = 1): JsonValue | undefined {
	const values = cycleValues(path, current);
	if (!values || values.length === 0) return undefined;
	const index = values.findIndex((item) => item === current);
	if (index === -1) return values[0];
	return values[(index + direction + values.length) % values.length];
}

/**
 * A number stepped by `delta` (the +/- keys), clamped to the key's range. Undefined when the current
 * value is not a number. Whole-number keys stay whole.
 */
export function stepNumber(path: ConfigPath, current: JsonValue | undefined, delta: number): number | undefined {
	if (typeof current !== 'number') return undefined;
	const spec = specFor(path);
	const numeric = spec?.alternatives.find(
		(alternative): alternative is Extract<Alternative, {type: 'integer' | 'number'}> =>
			alternative.type === 'integer' || alternative.type === 'number',
	);
	let next = current + delta;
	if (numeric?.type === 'integer' || Number.isInteger(current)) next = Math.round(next);
	if (numeric?.min !== undefined) next = Math.max(numeric.min, next);
	if (numeric?.max !== undefined) next = Math.min(numeric.max, next);
	return next;
}

/** Whether a key accepts a string (used to read a CLI value like `rig-id=123` as the string "123"). */
export function acceptsString(path: ConfigPath, current: JsonValue | undefined): boolean {
	const spec = specFor(path);
	if (spec) return spec.alternatives.some((alternative) => alternative.type === 'string');
	return current === undefined || typeof current === 'string' || current === null;
}
