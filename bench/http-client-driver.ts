// One HTTP client variant polling every simulated miner once a second, spread evenly over the second, as a fleet of
// monitors does. Prints its own CPU share of one core (user + system) over the measured window, after a warm-up.
//
//   node http-client-driver.mjs '<urls json>' rigtop|shared-agent|node-http WARMUP_S MEASURE_S
//
// rigtop: MinerClient.getJson (node:http, an Agent per miner, deadline, cap, typed errors). shared-agent: undici request() through
// one Agent + body.json(), the straightforward client. node-http: http.get without an agent + JSON.parse.
import http from 'node:http';
import {Agent, request} from 'undici';
import {MinerClient} from '../source/miner/client.js';

const urls = JSON.parse(process.argv[2]!) as string[];
const variant = process.argv[3];
const warmupSeconds = Number(process.argv[4] ?? 8);
const measureSeconds = Number(process.argv[5] ?? 20);
// The simulators cycle dialects 6, 6, 5, 2: every fourth one is a 2.x miner, which answers /1/summary.
const pathOf = (index: number): string => (index % 4 === 3 ? '/1/summary' : '/2/summary');

function nodeHttpGet(url: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const outgoing = http.get(url, {agent: false}, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				try {
					resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
				} catch (error) {
					reject(error as Error);
				}
			});
			response.on('error', reject);
		});
		outgoing.on('error', reject);
	});
}

let get: (index: number) => Promise<unknown>;
if (variant === 'rigtop') {
	const clients = urls.map((url) => new MinerClient({url, token: null}));
	get = async (index) => clients[index]!.getJson(pathOf(index));
} else if (variant === 'shared-agent') {
	const agent = new Agent({connect: {timeout: 3000}, headersTimeout: 5000, bodyTimeout: 5000, connections: 4, pipelining: 1});
	get = async (index) => (await request(`${urls[index]}${pathOf(index)}`, {dispatcher: agent})).body.json();
} else if (variant === 'node-http') {
	get = async (index) => nodeHttpGet(`${urls[index]}${pathOf(index)}`);
} else {
	throw new Error(`unknown variant ${variant}`);
}

let answered = 0;
let failed = 0;
let stopped = false;
for (const [index] of urls.entries()) {
	const poll = async (): Promise<void> => {
		if (stopped) return;
		try {
			await get(index);
			answered++;
		} catch {
			failed++;
		}

		setTimeout(poll, 1000);
	};

	setTimeout(poll, (index * 1000) / urls.length);
}

setTimeout(() => {
	const cpuBefore = process.cpuUsage();
	const started = process.hrtime.bigint();
	answered = 0;
	failed = 0;
	setTimeout(() => {
		stopped = true;
		const cpu = process.cpuUsage(cpuBefore);
		const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
		const share = (cpu.user + cpu.system) / elapsedUs;
		process.stdout.write(`${JSON.stringify({variant, share, answered, failed, rssMb: process.memoryUsage().rss / 2 ** 20})}\n`);
		process.exit(0);
	}, measureSeconds * 1000);
}, warmupSeconds * 1000);
