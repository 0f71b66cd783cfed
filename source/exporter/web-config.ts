import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {createSecureContext, type SecureVersion} from 'node:tls';
import {parse, YAMLParseError} from 'yaml';
import {UsageError} from '../session/errors.js';
import {cleanText} from '../text/clean.js';
import {escapeUnsafe} from '../text/escape.js';
import {jsonText} from '../text/json-out.js';

/**
 * `--web.config.file`: the web configuration file of Prometheus's exporters (exporter-toolkit's format), so that the
 * file and the `htpasswd -B` hashes made for node_exporter work here too:
 *
 * ```yaml
 * tls_server_config:
 *   cert_file: server.crt         # relative to this file
 *   key_file: server.key
 *   client_auth_type: RequireAndVerifyClientCert   # optional, with client_ca_file
 *   min_version: TLS12            # the default
 * http_server_config:
 *   headers: {Strict-Transport-Security: max-age=31536000}
 * basic_auth_users:
 *   prometheus: $2y$10$...        # htpasswd -nBC 10 prometheus
 * ```
 *
 * A key the format does not have is refused naming it, as exporter-toolkit does; the few it has that rigtop does not
 * do are refused saying so. The hashes and key stay in memory: never shown, logged or written.
 */

export type ClientAuth =
	'NoClientCert' | 'RequestClientCert' | 'RequireAnyClientCert' | 'VerifyClientCertIfGiven' | 'RequireAndVerifyClientCert';

export type TlsSettings = {
	/** PEM text of the certificate chain and the key. */
	readonly cert: string;
	readonly key: string;
	readonly clientAuth: ClientAuth;
	/** PEM text of the CAs client certificates are checked against; null: none. */
	readonly clientCa: string | null;
	readonly minVersion: SecureVersion;
	readonly maxVersion: SecureVersion | null;
};

export type WebConfig = {
	/** null: plain HTTP. */
	readonly tls: TlsSettings | null;
	/** User name → bcrypt hash; none: no basic auth. */
	readonly users: Readonly<Record<string, string>>;
	/** Headers added to every answer. */
	readonly headers: Readonly<Record<string, string>>;
};

const FLAG = '--web.config.file';

const CLIENT_AUTH: readonly ClientAuth[] = [
	'NoClientCert',
	'RequestClientCert',
	'RequireAnyClientCert',
	'VerifyClientCertIfGiven',
	'RequireAndVerifyClientCert',
];

const VERSIONS: Readonly<Record<string, SecureVersion>> = {TLS10: 'TLSv1', TLS11: 'TLSv1.1', TLS12: 'TLSv1.2', TLS13: 'TLSv1.3'};

/** The headers exporter-toolkit lets http_server_config set. */
const HEADERS = ['Content-Security-Policy', 'X-Frame-Options', 'X-Content-Type-Options', 'X-XSS-Protection', 'Strict-Transport-Security'];

/** The format's keys, by section; those rigtop does not do, with what to do instead. */
const KEYS = {
	top: ['tls_server_config', 'http_server_config', 'basic_auth_users'],
	tls: ['cert_file', 'key_file', 'client_auth_type', 'client_ca_file', 'min_version', 'max_version'],
	http: ['headers', 'http2'],
};
const UNSUPPORTED: Readonly<Record<string, string>> = {
	rate_limit: 'not done by rigtop (it bounds connections per address instead)',
	'tls_server_config.cert': 'not done by rigtop: put the certificate in a file and give cert_file',
	'tls_server_config.key': 'not done by rigtop: put the key in a file and give key_file',
	'tls_server_config.client_ca': 'not done by rigtop: put the CAs in a file and give client_ca_file',
	'tls_server_config.cipher_suites': "not done by rigtop: Node's defaults are used (TLS 1.3 and 1.2 AEAD suites)",
	'tls_server_config.curve_preferences': "not done by rigtop: Node's defaults are used",
	'tls_server_config.prefer_server_cipher_suites': "not done by rigtop: Node's defaults are used",
	'tls_server_config.client_allowed_sans': 'not done by rigtop',
};

/** A plausible bcrypt hash ($2a$, $2b$, $2y$; what htpasswd -B and exporter-toolkit's docs make). */
const BCRYPT = /^\$2[aby]?\$\d\d\$[./A-Za-z\d]{53}$/;

type Problem = (what: string) => UsageError;

function mapping(value: unknown, where: string, problem: Problem): Record<string, unknown> {
	if (value === null || value === undefined) return {};
	if (typeof value !== 'object' || Array.isArray(value)) throw problem(`${where} must be a mapping of keys to values`);
	return value as Record<string, unknown>;
}

function checkKeys(section: Record<string, unknown>, known: readonly string[], prefix: string, problem: Problem): void {
	for (const key of Object.keys(section)) {
		if (known.includes(key)) continue;
		const name = prefix === '' ? key : `${prefix}.${key}`;
		const unsupported = UNSUPPORTED[name];
		throw problem(unsupported === undefined ? `unknown key ${escapeUnsafe(name)}` : `${escapeUnsafe(name)} is ${unsupported}`);
	}
}

function text(value: unknown, name: string, problem: Problem): string {
	if (value === null || value === undefined) return '';
	if (typeof value !== 'string') throw problem(`${name} must be a string`);
	return value;
}

async function readBeside(configFile: string, file: string, name: string, problem: Problem): Promise<string> {
	const full = path.resolve(path.dirname(configFile), file);
	try {
		return await readFile(full, 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? String(error));
		throw problem(`${name} ${full}: ${why}`);
	}
}

async function readTls(section: Record<string, unknown>, file: string, problem: Problem): Promise<TlsSettings | null> {
	checkKeys(section, KEYS.tls, 'tls_server_config', problem);
	const certFile = text(section['cert_file'], 'tls_server_config.cert_file', problem);
	const keyFile = text(section['key_file'], 'tls_server_config.key_file', problem);
	const clientAuth = text(section['client_auth_type'], 'tls_server_config.client_auth_type', problem) || 'NoClientCert';
	const caFile = text(section['client_ca_file'], 'tls_server_config.client_ca_file', problem);
	const version = (key: string, fallback: SecureVersion | null): SecureVersion | null => {
		const given = text(section[key], `tls_server_config.${key}`, problem);
		if (given === '') return fallback;
		const found = VERSIONS[given];
		if (found === undefined) throw problem(`tls_server_config.${key} ${jsonText(given)}: one of ${Object.keys(VERSIONS).join(', ')}`);
		return found;
	};

	// exporter-toolkit: a TLS section without certificate and key means plain HTTP (basic auth still applies).
	if (certFile === '' && keyFile === '' && caFile === '' && clientAuth === 'NoClientCert') return null;
	if (certFile === '') throw problem('tls_server_config needs cert_file (the certificate, PEM)');
	if (keyFile === '') throw problem('tls_server_config needs key_file (the private key, PEM)');
	if (!CLIENT_AUTH.includes(clientAuth as ClientAuth)) {
		throw problem(`tls_server_config.client_auth_type ${jsonText(clientAuth)}: one of ${CLIENT_AUTH.join(', ')}`);
	}

	const verifies = clientAuth === 'VerifyClientCertIfGiven' || clientAuth === 'RequireAndVerifyClientCert';
	if (caFile !== '' && clientAuth === 'NoClientCert') throw problem('tls_server_config.client_ca_file is given without client_auth_type');
	if (verifies && caFile === '') throw problem(`tls_server_config.client_auth_type ${clientAuth} needs client_ca_file`);
	const minVersion = version('min_version', 'TLSv1.2')!;
	const maxVersion = version('max_version', null);
	const cert = await readBeside(file, certFile, 'tls_server_config.cert_file', problem);
	const key = await readBeside(file, keyFile, 'tls_server_config.key_file', problem);
	const clientCa = caFile === '' ? null : await readBeside(file, caFile, 'tls_server_config.client_ca_file', problem);
	try {
		createSecureContext({cert, key, ca: clientCa ?? undefined, minVersion, maxVersion: maxVersion ?? undefined});
	} catch (error) {
		// OpenSSL's words ("key values mismatch", "no start line"); never the key itself.
		const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
		throw problem(`the certificate and key cannot be used: ${reason}`);
	}

	return {cert, key, clientAuth: clientAuth as ClientAuth, clientCa, minVersion, maxVersion};
}

function readUsers(section: Record<string, unknown>, problem: Problem): Record<string, string> {
	const users: Record<string, string> = {};
	for (const [name, hash] of Object.entries(section)) {
		if (typeof hash !== 'string' || !BCRYPT.test(hash)) {
			throw problem(`basic_auth_users.${name} is not a bcrypt hash: make one with htpasswd -nBC 10 ${jsonText(name)}`);
		}

		users[name] = hash;
	}

	return users;
}

function readHeaders(section: Record<string, unknown>, problem: Problem): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(section)) {
		const known = HEADERS.find((header) => header.toLowerCase() === name.toLowerCase());
		if (known === undefined) throw problem(`http_server_config.headers.${name} cannot be set: one of ${HEADERS.join(', ')}`);
		if (typeof value !== 'string' || /[\r\n]/.test(value)) throw problem(`http_server_config.headers.${name} must be one line of text`);
		headers[known] = value;
	}

	return headers;
}

/** Reads and checks the file: a UsageError with one line naming the file for anything wrong. */
export async function readWebConfig(file: string): Promise<WebConfig> {
	// A problem quotes the file's keys and values: cleaned as any text from outside (text/clean.ts).
	const problem: Problem = (what) => new UsageError(cleanText(`${FLAG} ${file}: ${what}`, 1000));
	let source;
	try {
		source = await readFile(file, 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw problem(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? String(error)));
	}

	let document: unknown;
	try {
		document = parse(source, {uniqueKeys: true, prettyErrors: true});
	} catch (error) {
		if (error instanceof YAMLParseError) {
			const at = error.linePos?.[0];
			const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
			throw problem(`not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${reason}`);
		}

		throw error;
	}

	const top = mapping(document, 'the file', problem);
	checkKeys(top, KEYS.top, '', problem);
	const http = mapping(top['http_server_config'], 'http_server_config', problem);
	checkKeys(http, KEYS.http, 'http_server_config', problem);
	if (http['http2'] !== undefined && http['http2'] !== null && typeof http['http2'] !== 'boolean') {
		throw problem('http_server_config.http2 must be true or false');
	}

	return {
		tls: await readTls(mapping(top['tls_server_config'], 'tls_server_config', problem), file, problem),
		users: readUsers(mapping(top['basic_auth_users'], 'basic_auth_users', problem), problem),
		headers: readHeaders(mapping(http['headers'], 'http_server_config.headers', problem), problem),
	};
}
