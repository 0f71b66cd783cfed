import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, test} from 'vitest';
import {readRigsFile, readRigToken} from '../../source/session/rigs-file.js';
import {UsageError} from '../../source/session/errors.js';

let dir = '';
beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-rigs-'));
});
afterEach(async () => {
	await rm(dir, {recursive: true, force: true});
});

async function rigsFile(content: unknown): Promise<string> {
	const file = path.join(dir, 'conf', 'rigs.json');
	await mkdir(path.dirname(file), {recursive: true});
	await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
	return file;
}

describe('--rigs FILE', () => {
	test('reads names, normalizes urls, and resolves tokenFile against the rigs file folder', async () => {
		const file = await rigsFile([{name: 'rig-01', url: '10.0.0.5:8080', tokenFile: 'tokens/rig-01'}, {url: 'http://10.0.0.6:8080/'}]);
		expect(await readRigsFile(path.relative(process.cwd(), file))).toEqual([
			{url: 'http://10.0.0.5:8080', name: 'rig-01', tokenFile: path.join(dir, 'conf', 'tokens', 'rig-01')},
			{url: 'http://10.0.0.6:8080', name: undefined, tokenFile: undefined},
		]);
	});

	test('"kind" says a rig is an xmrig-proxy (or a miner) before it answers; anything else is refused', async () => {
		const file = await rigsFile([
			{name: 'px', url: '10.0.0.9:3344', kind: 'proxy'},
			{name: 'm', url: '10.0.0.5:8080', kind: 'miner'},
			{url: '10.0.0.6:8080'},
		]);
		expect(await readRigsFile(file)).toEqual([
			{url: 'http://10.0.0.9:3344', name: 'px', tokenFile: undefined, kind: 'proxy'},
			{url: 'http://10.0.0.5:8080', name: 'm', tokenFile: undefined, kind: 'miner'},
			{url: 'http://10.0.0.6:8080', name: undefined, tokenFile: undefined},
		]);
		const bad = await rigsFile([{url: '10.0.0.9:3344', kind: 'xmrig-proxy'}]);
		const error = await readRigsFile(bad).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(UsageError);
		expect((error as Error).message).toMatch(/rig 1: "kind" must be "miner" or "proxy" \(an xmrig-proxy\), not "xmrig-proxy"$/);
	});

	test('two rigs of one name are refused, naming the name and both rigs', async () => {
		const file = await rigsFile([
			{name: 'alpha', url: '10.0.0.5:8080'},
			{name: 'beta', url: '10.0.0.6:8080'},
			{name: ' alpha ', url: '10.0.0.7:8080'},
		]);
		const error = await readRigsFile(file).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(UsageError);
		expect((error as Error).message).toMatch(/: rig 3 \("alpha"\) has the same name as rig 1 \("alpha"\); each rig's name is its own$/);
		expect((error as Error).message).not.toContain('\n');
	});

	test("control characters in a name (an escape sequence, a bidi override) are cleaned as a miner's text is: each shown as its code", async () => {
		const file = await rigsFile([
			{name: 'rig\u001b[31m-red\u0007', url: '10.0.0.5:8080'},
			{name: '\u202eevil\u0000', url: '10.0.0.6:8080'},
		]);
		const rigs = await readRigsFile(file);
		// Shown, not removed: `rig<001B>[31m-red` is not the name of a rig called `rig-red`.
		expect(rigs.map((rig) => rig.name)).toEqual(['rig<001B>[31m-red<0007>', '<202E>evil<0000>']);
		// eslint-disable-next-line no-control-regex
		for (const rig of rigs) expect(rig.name).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E]/u);
		// A name that is nothing but spaces is no name.
		const empty = await rigsFile([{name: '\t\u3000\u2028 ', url: '10.0.0.5:8080'}]);
		await expect(readRigsFile(empty)).rejects.toThrow(/: rig 1: "name" must be a non-empty string$/);
		// A rig the file gets wrong is named in the message cleaned, and an address with C1 or invisible characters is refused
		// without quoting them.
		const hostile = await rigsFile([{name: 'rig\u009B2J\u202E', url: '10.0.0.5\u009B2J:8080'}]);
		const error = await readRigsFile(hostile).then(
			() => null,
			(thrown: unknown) => thrown as Error,
		);
		expect(error?.message).toMatch(/rig 1 \("rig<009B>2J<202E>"\): the miner address holds spaces, control or invisible characters/);
		// eslint-disable-next-line no-control-regex
		expect(error?.message).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202E]/u);
	});

	test('a file saved with a byte-order mark reads like one without', async () => {
		const file = await rigsFile(`\uFEFF${JSON.stringify([{name: 'bom', url: '10.0.0.7:8080'}])}`);
		expect(await readRigsFile(file)).toEqual([{url: 'http://10.0.0.7:8080', name: 'bom', tokenFile: undefined}]);
	});

	test('mistakes are usage errors naming the rig; a token in the file is refused', async () => {
		const cases: [unknown, RegExp][] = [
			['{not json', /not valid JSON at line 1, column 2 \(InvalidSymbol\)$/],
			['not json {\n  "url": 1\n}', /not valid JSON at line 1, column 1 \(InvalidSymbol\)$/],
			// A comma left out between two rigs: where, in one line (JSON.parse's own message quotes the text).
			['[\n  {"url": "10.0.0.5:1"}\n  {"url": "10.0.0.6:1"}\n]', /is not valid JSON at line 3, column 3 \(CommaExpected\)$/],
			['[{"url": "10.0.0.5:1"},]', /not valid JSON at line 1, column 24 \(ValueExpected\)$/],
			[{rigs: []}, /must hold a JSON list/],
			[[], /lists no rigs/],
			[[{url: '10.0.0.5:8080', token: 's3cret'}], /rig 1 holds a token; put it in a file/],
			[[{url: '10.0.0.5:8080', tokenfile: 'x'}], /rig 1 has unknown key "tokenfile"/],
			[[{name: 'a', url: '10.0.0.5:8080'}, {name: 'b'}], /rig 2 \("b"\) needs "url"/],
			[[{url: '10.0.0.5'}], /rig 1: the miner address needs a port/],
			[[{url: '10.0.0.5:1'}, {url: 'http://10.0.0.5:1'}], /rig 2 has the same url/],
			[[{url: '10.0.0.5:1', name: ' '}], /"name" must be a non-empty string/],
			[['10.0.0.5:1'], /is not an object/],
		];
		for (const [content, message] of cases) {
			const file = await rigsFile(content);
			const error = await readRigsFile(file).catch((caught: unknown) => caught);
			expect(error, JSON.stringify(content)).toBeInstanceOf(UsageError);
			expect((error as Error).message).toMatch(message);
			expect((error as Error).message).not.toContain('s3cret');
			expect((error as Error).message).not.toContain('\n');
		}

		await expect(readRigsFile(path.join(dir, 'missing.json'))).rejects.toThrow(/cannot read --rigs .*it does not exist/);
	});

	test("a rig's token file is read like --token-file; problems name the rig, never the token", async () => {
		const tokenFile = path.join(dir, 'token');
		await writeFile(tokenFile, 'tok-value-123\n');
		await chmod(tokenFile, 0o644);
		const warnings: string[] = [];
		expect(await readRigToken({url: 'http://h:1', name: 'rig-a', tokenFile}, (line) => warnings.push(line))).toBe('tok-value-123');
		expect(warnings).toEqual([expect.stringMatching(/^rig rig-a: tokenFile can be read by other users \(mode 0644\): chmod 600 \//)]);
		expect(await readRigToken({url: 'http://h:1', name: undefined, tokenFile: undefined}, () => {})).toBeNull();
		await expect(readRigToken({url: 'http://h:1', name: 'rig-b', tokenFile: path.join(dir, 'nope')}, () => {})).rejects.toThrow(
			/^rig rig-b: cannot read tokenFile .*does not exist/,
		);
	});
});
