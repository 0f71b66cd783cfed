import {execFileSync} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';

/**
 * What the web config tests need: a self-signed certificate made by the openssl CLI (Node cannot make X.509; .ci/run
 * installs openssl where a machine lacks it) and bcrypt hashes as `htpasswd -B` (apache2-utils) makes them.
 */

export type Certificate = {readonly certFile: string; readonly keyFile: string; readonly cert: string; readonly key: string};

/** A self-signed certificate for 127.0.0.1, ::1 and localhost (EC P-256, one day), written in `dir` as NAME.crt/.key. */
export function makeCertificate(dir: string, name = 'server', commonName = 'localhost'): Certificate {
	const certFile = path.join(dir, `${name}.crt`);
	const keyFile = path.join(dir, `${name}.key`);
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:P-256',
				'-nodes',
				'-days',
				'1',
				'-subj',
				`/CN=${commonName}`,
				'-addext',
				'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
				'-keyout',
				keyFile,
				'-out',
				certFile,
			],
			{stdio: ['ignore', 'ignore', 'pipe']},
		);
	} catch (error) {
		throw new Error(`openssl could not make a test certificate (apt-get install openssl; .ci/run does): ${String(error)}`, {cause: error});
	}

	return {certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8')};
}

/**
 * The bcrypt hash of `password` as node_exporter's docs make it: `htpasswd -nbBC 10 USER PASSWORD` where htpasswd is
 * installed, else bcryptjs (the same $2y$/$2b$ format; the fixed hash below is htpasswd's own, for both cases).
 */
export function bcryptHash(user: string, password: string): string {
	if (existsSync('/usr/bin/htpasswd')) {
		const line = execFileSync('/usr/bin/htpasswd', ['-nbBC', '10', user, password], {encoding: 'utf8'}).trim();
		return line.slice(line.indexOf(':') + 1);
	}

	return bcrypt.hashSync(password, 10);
}

/** Made by `htpasswd -nbBC 10 prometheus 'correct horse'` (apache2-utils 2.4.71): the password is `correct horse`. */
export const HTPASSWD_HASH = '$2y$10$SHopTUMXbO8ei0yR.80CTePX9Y05eZIBigwaJRVzF7X82be50TWSW';

export function writeWebConfig(file: string, text: string): string {
	writeFileSync(file, text);
	return file;
}
