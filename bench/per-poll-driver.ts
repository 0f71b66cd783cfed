// rigtop's HTTP client against a bare node:http request (no agent, body read and parsed) to the same
// miner, in one process, turn about. bench/per-poll.bench.mjs bundles this with the shipped bundle's settings and runs:
//
//   node .bench-out/per-poll-driver.mjs URL ROUNDS
//
// and reads the one JSON line it prints (milliseconds per round trip).
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import http from 'node:http';
import {MinerClient} from '../source/miner/client.js';
import {MinerReader} from '../source/miner/reader.js';

async function main(): Promise<void> {
	const [url, roundsText] = process.argv.slice(2);
	if (!url) throw new Error('usage: per-poll-driver URL ROUNDS');
	const rounds = Number(roundsText ?? 1000);
	const client = new MinerClient({url, token: null});
	const reader = new MinerReader(client);
	const summary = `${url}/2/summary`;
	const bare = async () =>
		new Promise((resolve, reject) => {
			http
				.get(summary, {agent: false}, (response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
					});
					response.on('error', reject);
				})
				.on('error', reject);
		});

	const rigtop = async () => client.getJson('/2/summary');
	const poll = async () => reader.read();
	const times: Record<'bare' | 'rigtop' | 'poll', number[]> = {bare: [], rigtop: [], poll: []};
	const time = async (name: keyof typeof times, call: () => Promise<unknown>, keep: boolean) => {
		const started = performance.now();
		await call();
		if (keep) times[name].push(performance.now() - started);
	};

	// Warm both paths (connections, JIT), then alternate so both see the same machine.
	for (let i = 0; i < 100; i++) {
		await time('bare', bare, false);
		await time('rigtop', rigtop, false);
		await time('poll', poll, false);
	}

	for (let i = 0; i < rounds; i++) {
		if (i % 2 === 0) {
			await time('bare', bare, true);
			await time('rigtop', rigtop, true);
		} else {
			await time('rigtop', rigtop, true);
			await time('bare', bare, true);
		}

		if (i % 4 === 0) await time('poll', poll, true);
	}

	await client.close();
	process.stdout.write(`${JSON.stringify(times)}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`per-poll-driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exit(1);
	},
);
