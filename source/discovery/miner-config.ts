/**
 * Reads an XMRig config file and works out its HTTP API settings the way XMRig itself does.
 *
 * Two layouts exist:
 * - current (2.15.1+): `"http": {"enabled", "host", "port", "access-token", "restricted"}`; no `http`
 *   section means the API is off (XMRig's default), `port: 0` means a random port.
 * - older (before 2.15, and the GPU forks): one `"api": {"port", "access-token", "ipv6", "restricted"}`
 *   section; `port: 0` means the API is off; it listens on every interface (IPv6 too with `ipv6`).
 *   XMRig 2.15–2.16 still convert an `api.port` into `http` (host 0.0.0.0); 3.0 and later ignore it.
 *
 * Values are read with XMRig's own defaults and type rules (a wrong type counts as missing). The
 * access token is returned to the caller but never appears in any problem text.
 */

import {readFile, stat} from 'node:fs/promises';
import {parseTree, type ParseError} from 'jsonc-parser';
import {valueOfTree} from '../config/json-values.js';
import {parseErrorText} from '../text/json-errors.js';
import {connectHost, httpUrl, isIpAddress} from './address.js';
import {enableApiHint} from './messages.js';

/** A config document: the top-level JSON object. */
export type ConfigDocument = Readonly<Record<string, unknown>>;

export type ConfigParse = {readonly ok: true; readonly doc: ConfigDocument} | {readonly ok: false; readonly message: string};

export type ConfigRead =
	| {readonly ok: true; readonly path: string; readonly doc: ConfigDocument}
	| {readonly ok: false; readonly path: string; readonly reason: 'missing' | 'unreadable' | 'invalid'; readonly message: string};

/** Which layout the API settings came from: `http` (2.15.1+), the older `api` section, or none (API off). */
export type ApiLayout = 'current' | 'older' | 'none';

/** What kind of trouble a config shows; `text` is the plain-words explanation. */
export type ConfigIssueKind =
	'unreadable' | 'api-off' | 'random-port' | 'empty-token' | 'no-token-unrestricted' | 'older-layout' | 'both-layouts' | 'host-not-ip';

export type ConfigIssue = {readonly kind: ConfigIssueKind; readonly text: string};

export type MinerApiSettings = {
	readonly layout: ApiLayout;
	/** Where to connect (`http://127.0.0.1:18088`); null when the API is off or the port is random (0). */
	readonly url: string | null;
	/** Host to connect to, mapped from the bind address (0.0.0.0 → 127.0.0.1, :: → [::1]); null when off. */
	readonly host: string | null;
	/** The bind address as configured (`0.0.0.0`, `::`, `127.0.0.1`); null when off. */
	readonly bindHost: string | null;
	/** Configured port; 0 = random (current layout); null when the API is off. */
	readonly port: number | null;
	/** The access token; an empty string is a set token. Never print it. */
	readonly token: string | null;
	readonly tokenSet: boolean;
	readonly restricted: boolean;
	readonly apiEnabled: boolean;
	/** Plain-words explanations of states users trip on (no token text in them); the texts of `issues`. */
	readonly problems: readonly string[];
	readonly issues: readonly ConfigIssue[];
};

/** Refuse files far larger than any miner config (a wrong path pointing at a log or an image). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * Parses config text like XMRig's rapidjson (comments and trailing commas allowed). Where a key
 * appears twice the first one counts, as in rapidjson's FindMember.
 */
export function parseConfigText(text: string): ConfigParse {
	const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
	const errors: ParseError[] = [];
	const tree = parseTree(source, errors, {allowTrailingComma: true, disallowComments: false, allowEmptyContent: false});
	const first = errors[0];
	if (first) return {ok: false, message: parseErrorText(source, first)};
	if (tree?.type !== 'object') return {ok: false, message: 'not a JSON object'};
	return {ok: true, doc: valueOfTree(tree) as ConfigDocument};
}

/** Reads and parses one config file. Never throws. */
export async function readConfigFile(path: string): Promise<ConfigRead> {
	try {
		const info = await stat(path);
		if (!info.isFile()) return {ok: false, path, reason: 'unreadable', message: `${path} is not a regular file`};
		if (info.size > MAX_CONFIG_BYTES) return {ok: false, path, reason: 'invalid', message: `${path} is too large to be an XMRig config`};
		const text = await readFile(path, 'utf8');
		const parsed = parseConfigText(text);
		if (!parsed.ok) return {ok: false, path, reason: 'invalid', message: `${path} is ${parsed.message}`};
		return {ok: true, path, doc: parsed.doc};
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') return {ok: false, path, reason: 'missing', message: `${path} does not exist`};
		if (code === 'EACCES' || code === 'EPERM') {
			return {ok: false, path, reason: 'unreadable', message: `${path} is not readable by this user (permission denied)`};
		}
		return {ok: false, path, reason: 'unreadable', message: `${path} could not be read (${code ?? 'error'})`};
	}
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** XMRig's Json::getBool: a non-boolean counts as missing. */
function getBool(object: Readonly<Record<string, unknown>>, key: string, fallback: boolean): boolean {
	const value = object[key];
	return typeof value === 'boolean' ? value : fallback;
}

/** XMRig's Http::setPort(Json::getInt(...)): integers 0–65536 (65536 wraps to 0), anything else 0. */
function getPort(object: Readonly<Record<string, unknown>>, key: string): number {
	const value = object[key];
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65_536) return 0;
	return value & 0xffff;
}

function getString(object: Readonly<Record<string, unknown>>, key: string): string | null {
	const value = object[key];
	return typeof value === 'string' ? value : null;
}

/**
 * The API settings for the `http` and `api` sections XMRig picked (for a single file: its own
 * sections; for a running miner: the winning sections of its config chain). `label` names where
 * they came from in problem texts, e.g. the file path.
 */
export function apiSettingsFromSections(http: unknown, api: unknown, label: string): MinerApiSettings {
	const olderPort = isObject(api) && Object.hasOwn(api, 'port');
	if (isObject(http)) return currentLayout(http, label, olderPort);
	if (isObject(api) && olderPort) return olderLayout(api, label);
	return off('none', [
		{kind: 'api-off', text: `${label} has no "http" section, so the miner's HTTP API is off (XMRig's default). ${enableApiHint()}`},
	]);
}

/** The API settings of one parsed config document. */
export function apiSettingsFromDocument(doc: ConfigDocument, label: string): MinerApiSettings {
	return apiSettingsFromSections(doc['http'], doc['api'], label);
}

/** Reads a config file and works out its API settings. An unreadable file gives API off plus the reason. */
export async function readMinerConfig(path: string): Promise<MinerApiSettings & {readonly read: ConfigRead}> {
	const read = await readConfigFile(path);
	if (!read.ok) return {...off('none', [{kind: 'unreadable', text: read.message}]), read};
	return {...apiSettingsFromDocument(read.doc, path), read};
}

function settings(fields: Omit<MinerApiSettings, 'problems' | 'issues'>, issues: ConfigIssue[]): MinerApiSettings {
	return {...fields, issues, problems: issues.map((issue) => issue.text)};
}

function off(layout: ApiLayout, issues: ConfigIssue[], token: string | null = null, restricted = true): MinerApiSettings {
	return settings(
		{layout, url: null, host: null, bindHost: null, port: null, token, tokenSet: token !== null, restricted, apiEnabled: false},
		issues,
	);
}

function currentLayout(http: Readonly<Record<string, unknown>>, label: string, alsoOlderPort: boolean): MinerApiSettings {
	const issues: ConfigIssue[] = [];
	if (alsoOlderPort) {
		issues.push({
			kind: 'both-layouts',
			text:
				`${label} has both an "http" section and an older "api"."port": XMRig 3.0 and later use "http", ` +
				'but 2.15–2.16 use "api"."port" (on all interfaces); remove "port" from "api" to avoid surprises.',
		});
	}
	const enabled = getBool(http, 'enabled', false);
	const restricted = getBool(http, 'restricted', true);
	const bindHost = getString(http, 'host') ?? '127.0.0.1';
	const token = getString(http, 'access-token');
	const port = getPort(http, 'port');
	if (!enabled) {
		issues.push({kind: 'api-off', text: `${label}: "http"."enabled" is false, so the miner's HTTP API is off. ${enableApiHint()}`});
		return off('current', issues, token, restricted);
	}
	if (!isIpAddress(bindHost)) {
		issues.push({
			kind: 'host-not-ip',
			text:
				`${label}: "http"."host" is "${bindHost}", but XMRig binds only to an IP address, so its API will not start; ` +
				'use "127.0.0.1" (this machine only) or "0.0.0.0" (all interfaces).',
		});
	}
	if (port === 0) {
		issues.push({
			kind: 'random-port',
			text:
				`${label}: "http"."port" is 0, so XMRig picks a random port at each start; rigtop can find it only from the ` +
				'running miner on this machine (give it a fixed port, e.g. 18088, to connect from elsewhere).',
		});
	}
	issues.push(...tokenIssues(label, '"http"', token, restricted, 'current'));
	const host = connectHost(bindHost);
	const url = port === 0 ? null : httpUrl(host, port);
	return settings({layout: 'current', url, host, bindHost, port, token, tokenSet: token !== null, restricted, apiEnabled: true}, issues);
}

function olderLayout(api: Readonly<Record<string, unknown>>, label: string): MinerApiSettings {
	const port = getPort(api, 'port');
	const token = getString(api, 'access-token');
	const restricted = getBool(api, 'restricted', true);
	const ipv6 = getBool(api, 'ipv6', false);
	const layoutNote: ConfigIssue = {
		kind: 'older-layout',
		text:
			`${label} uses the older "api" layout (XMRig before 2.15). XMRig 2.15–2.16 still read it, but 3.0 and later ` +
			'ignore it and keep the API off: if this miner is 3.0 or later, move the settings into an "http" section.',
	};
	if (port === 0) {
		const offIssue: ConfigIssue = {
			kind: 'api-off',
			text: `${label}: "api"."port" is 0, which turns the API off in this older layout. ${enableApiHint()}`,
		};
		return off('older', [offIssue, layoutNote], token, restricted);
	}
	const bindHost = ipv6 ? '::' : '0.0.0.0';
	const host = connectHost(bindHost);
	return settings(
		{layout: 'older', url: httpUrl(host, port), host, bindHost, port, token, tokenSet: token !== null, restricted, apiEnabled: true},
		[layoutNote, ...tokenIssues(label, '"api"', token, restricted, 'older')],
	);
}

function tokenIssues(
	label: string,
	section: string,
	token: string | null,
	restricted: boolean,
	layout: 'current' | 'older',
): ConfigIssue[] {
	if (token === '') {
		return [
			{
				kind: 'empty-token',
				text:
					`${label}: ${section}."access-token" is an empty string. XMRig counts that as a token that is set, and no ` +
					'client can send an empty one, so the API refuses every request (401/403). Set a real token, or null for none.',
			},
		];
	}
	if (token === null && !restricted) {
		const what =
			layout === 'older'
				? 'XMRig 2.15–2.16 then answer 401 to every request (older versions allow reading only)'
				: 'XMRig then answers 401 to every request, so the API cannot be used';
		return [
			{
				kind: 'no-token-unrestricted',
				text:
					`${label}: no ${section}."access-token" while "restricted" is false: ${what}. ` +
					'Set an access token in the config and give it to rigtop with --token-file or RIGTOP_TOKEN.',
			},
		];
	}
	return [];
}
