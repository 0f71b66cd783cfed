import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

/** The recorded answers of real miners (`curl -i` output) and rigtop's synthetic payloads, under test/fixtures/xmrig. */

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/xmrig');

export type Capture = {
	/** The exact bytes the miner sent. */
	readonly raw: string;
	readonly status: number;
	readonly reason: string;
	readonly headers: Readonly<Record<string, string>>;
	/** The HTTP body text. */
	readonly body: string;
};

export function readCapture(relative: string): Capture {
	const raw = readFileSync(path.join(fixturesDir, relative), 'utf8');
	const split = raw.indexOf('\r\n\r\n');
	if (split === -1) throw new Error(`${relative}: not a curl -i capture`);
	const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
	const match = /^HTTP\/1\.1 (\d{3}) ?(.*)$/u.exec(statusLine);
	if (!match) throw new Error(`${relative}: bad status line`);
	const headers: Record<string, string> = {};
	for (const line of lines) {
		const colon = line.indexOf(':');
		headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
	}

	return {raw, status: Number(match[1]), reason: match[2] ?? '', headers, body: raw.slice(split + 4)};
}

/** The JSON body of a capture. */
export function captureJson(relative: string): unknown {
	return JSON.parse(readCapture(relative).body) as unknown;
}

export function readSynthetic(name: string): unknown {
	return JSON.parse(readFileSync(path.join(fixturesDir, 'synthetic', name), 'utf8')) as unknown;
}
