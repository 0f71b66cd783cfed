/**
 * `rigtop pause` against a miner that answers POST /json_rpc with a JSON-RPC error in an HTTP 200 answer (a fault
 * server on loopback): the line says the miner refused the call, with its message cleaned, not that it rejected a
 * config (there was none).
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {runBatchCommand} from '../../source/commands/batch/batch.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {startFaultServer, type FaultServer} from '../helpers/fault-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

// eslint-disable-next-line no-control-regex -- the bytes no output may hold.
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

async function pause(miner: FaultServer, words: readonly string[]): Promise<{code: number; out: string; err: string}> {
	const temp = tempDir('rigtop-rpc-');
	cleanups.push(() => temp.remove());
	let out = '';
	let err = '';
	const code = await runBatchCommand({
		words,
		urls: [miner.url],
		rigsFile: undefined,
		tokenFile: undefined,
		tokenEnv: 'rpc-token-7',
		tokenFlag: undefined,
		configPath: undefined,
		dryRun: false,
		parallel: undefined,
		yes: false,
		add: false,
		readOnly: false,
		backupDir: path.join(temp.dir, 'backups'),
		historyFile: path.join(temp.dir, 'history.sqlite'),
		verifyIntervalMs: 30,
		verifyTimeoutMs: 500,
		requestTimeoutMs: 3000,
		discovery: {homeDir: temp.dir, procRoot: path.join(temp.dir, 'no-proc')},
		signal: new AbortController().signal,
		stdout: {write: (text: string) => (out += text)},
		stderr: {write: (text: string) => (err += text)},
	});
	return {code, out, err};
}

describe('a JSON-RPC error answered with HTTP 200', () => {
	it('pause says the miner refused the call, with its message cleaned; nothing about a config', async () => {
		const miner = await startFaultServer({
			token: 'rpc-token-7',
			rpcAnswer: JSON.stringify({id: 1, jsonrpc: '2.0', error: {code: -32_601, message: 'Method not found\u001B[2J\u202E'}}),
		});
		cleanups.push(async () => miner.close());
		// The recorded miner runs: pause is sent (resume would be `already running`).
		for (const method of ['pause']) {
			const result = await pause(miner, [method]);
			expect(result.code).toBe(1);
			const said = `${result.out}${result.err}`;
			expect(said).toContain(`${method} refused: the miner refused to ${method} it: Method not found`);
			expect(said).toContain('(-32601)');
			expect(said).toContain('a JSON-RPC error; nothing was changed');
			expect(said).not.toMatch(/config|check the values you set|\(400\)/);
			expect(said).not.toMatch(UNSAFE);
			expect(miner.requests.filter((request) => request.method === 'POST' && request.target === '/json_rpc').length).toBeGreaterThan(0);
		}
	});
});
