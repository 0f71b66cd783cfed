/**
 * A real simulated xmrig-proxy on loopback, read through the real client and reader: the snapshot the proxy screen
 * draws, on a clock the test moves (so "12s ago" and a quiet worker are the same at every run).
 */
import {afterEach} from 'vitest';
import {MinerClient} from '../../../../../source/miner/client.js';
import type {MinerSnapshot} from '../../../../../source/miner/model.js';
import {MinerReader} from '../../../../../source/miner/reader.js';
import {startSimulator, type ProxySimulator} from '../../../../../source/sim/simulator.js';
import {createStore, makeState, type TestStore} from '../../../helpers/state.js';

/** The proxy's wall clock at its start. */
export const EPOCH = Date.UTC(2026, 2, 14, 11, 0, 0);

export type SimProxy = {
	readonly sim: ProxySimulator;
	/** Moves the proxy's clock on by `ms` (its workers share meanwhile). */
	advance(ms: number): void;
	/** The proxy's wall clock now, for the screen's `now`. */
	now(): number;
	read(): Promise<MinerSnapshot>;
	/** A store holding a live monitor state of the latest read. */
	store(name?: string): Promise<TestStore>;
};

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
	await Promise.all(open.splice(0).map(async (close) => close()));
});

export async function startSimProxy(
	options: {readonly workers?: number; readonly warm?: boolean; readonly token?: string} = {},
): Promise<SimProxy> {
	let elapsed = 0;
	const sim = await startSimulator({
		kind: 'proxy',
		warm: options.warm ?? true,
		seed: 7,
		workers: options.workers ?? 29,
		lifeEvents: false,
		epochMs: EPOCH,
		clock: () => elapsed,
		...(options.token === undefined ? {} : {token: options.token}),
	});
	const client = new MinerClient({url: sim.url, token: options.token ?? null});
	const reader = new MinerReader(client);
	open.push(async () => {
		await client.close();
		await sim.stop();
	});
	const proxy: SimProxy = {
		sim,
		advance(ms) {
			elapsed += ms;
		},
		now: () => EPOCH + elapsed,
		read: async () => reader.read(),
		async store(name = 'proxy-a') {
			const snapshot = await proxy.read();
			return createStore(makeState({name, url: sim.url, snapshot, lastSuccessAt: proxy.now() - 1000, events: []}));
		},
	};
	proxy.advance(8000);
	return proxy;
}
