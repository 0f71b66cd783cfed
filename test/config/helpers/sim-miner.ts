import {inspect} from 'node:util';
import {afterEach, beforeEach, expect} from 'vitest';
import type {ApplyResult} from '../../../source/config/apply.js';
import type {EditOutcome, PendingEdits} from '../../../source/config/edits.js';
import {MinerClient} from '../../../source/miner/client.js';
import {startSimulator, type SimDialect, type Simulator} from '../../../source/sim/simulator.js';
import {tempDir} from './fixtures.js';

export const TOKEN = 'sim-token-8f3a91';
export const NEW_TOKEN = 'rotated-token-55c2';
export const POOL_PASS = 'pool-pass-secret-1';
/** Read back often, and give up well within the test timeout. */
export const FAST = {verifyIntervalMs: 50, verifyTimeoutMs: 3000} as const;

export type SimMiner = {sim: Simulator; client: MinerClient; backupDir: string};

/**
 * A simulated miner (token set, restricted false) and a real client for it, fresh for each test, and
 * a temporary backup directory. The miner applies a PUT a moment after answering it (XMRig: ~0.5 s;
 * 250 ms here to keep the files fast).
 */
export function useSimulatedMiner(dialect: SimDialect): () => SimMiner {
	let current: (SimMiner & {remove: () => void}) | undefined;
	beforeEach(async () => {
		const sim = await startSimulator({dialect, token: TOKEN, restricted: false, seed: 7, applyDelayMs: 250});
		const temp = tempDir('rigtop-apply-sim-');
		current = {sim, client: new MinerClient({url: sim.url, token: TOKEN}), backupDir: temp.dir, remove: temp.remove};
	});
	afterEach(async () => {
		await current?.client.close();
		await current?.sim.stop();
		current?.remove();
		current = undefined;
	});
	return () => {
		if (!current) throw new Error('no simulated miner outside a test');
		return current;
	};
}

export function ok(outcome: EditOutcome): PendingEdits {
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.edits;
}

/** No secret in the result, however it is printed. */
export function expectNoSecrets(result: ApplyResult, ...more: string[]): void {
	for (const secret of [TOKEN, NEW_TOKEN, POOL_PASS, ...more]) {
		expect(JSON.stringify(result)).not.toContain(secret);
		expect(inspect(result, {depth: 10})).not.toContain(secret);
		expect(String(result.message)).not.toContain(secret);
	}
}
