import {describe, expect, it} from 'vitest';
import {detectDialect} from '../../source/miner/dialect.js';
import {MinerError} from '../../source/miner/errors.js';
import {MinerReader} from '../../source/miner/reader.js';
import {captureJson, readSynthetic} from '../helpers/captures.js';
import {httpAnswer} from '../helpers/raw-server.js';
import {
	capture,
	json,
	notFound2,
	notFound6,
	routes216,
	routes626,
	replayMinersForEachTest,
	type ReplayMiner,
	type Routes,
} from './helpers/replay-miner.js';

type Json = Record<string, unknown>;

const replay = replayMinersForEachTest();

async function minerWith(routes: Routes, fallback?: string): Promise<ReplayMiner> {
	return replay.start(routes, fallback);
}

function readerFor(miner: ReplayMiner, token: string | null = null): MinerReader {
	return new MinerReader(replay.client(miner, token));
}

async function readError(reader: MinerReader): Promise<MinerError> {
	try {
		await reader.read();
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected the read to fail');
}

/** A 2.6 – 2.14 libmicrohttpd miner: /1/threads has the threads, every other GET path the summary. */
function routes214(
	summary: unknown = readSynthetic('v2.14-summary.json'),
	threads: unknown = readSynthetic('v2.14-threads.json'),
): [Routes, string] {
	return [{'GET /1/threads': json(threads)}, json(summary)];
}

function with626Summary(change: (summary: Json) => void): Routes {
	const summary = captureJson('v6.26/restricted-notoken/get_2_summary_notoken.txt') as Json;
	change(summary);
	return {...routes626(), 'GET /2/summary': json(summary)};
}

/** A 6.26 miner's routes whose summary says it has been up `seconds`. */
const withUptime = (seconds: number): Routes =>
	with626Summary((summary) => {
		summary['uptime'] = seconds;
	});

describe('dialect detection (from payload shapes)', () => {
	it('finds v2 on a real 6.26 with two requests, and reads with two per poll', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		expect(reader.dialect).toBeNull();
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v2');
		expect(snapshot.version).toBe('6.26.0');
		expect(reader.dialect).toEqual({name: 'v2', summaryPath: '/2/summary', threadsPath: '/2/backends'});
		expect(miner.seen().sort()).toEqual(['GET /2/backends', 'GET /2/summary']);
		await reader.read();
		await reader.read();
		expect(miner.seen()).toHaveLength(6);
		expect(new Set(miner.seen())).toEqual(new Set(['GET /2/summary', 'GET /2/backends']));
	});

	it('finds v1 on a real 2.16 (404 on /2/*)', async () => {
		const miner = await minerWith(routes216(), notFound2);
		const reader = readerFor(miner);
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v1');
		expect(snapshot.version).toBe('2.16.0-beta');
		expect(snapshot.threads).toHaveLength(1);
		expect(miner.seen()).toHaveLength(4);
		await reader.read();
		expect(miner.seen().slice(4).sort()).toEqual(['GET /1/summary', 'GET /1/threads']);
	});

	it('finds v1 on a 2.14 that answers every GET path with the summary', async () => {
		const [routes, fallback] = routes214();
		const miner = await minerWith(routes, fallback);
		const snapshot = await readerFor(miner).read();
		expect(snapshot.dialect).toBe('v1');
		expect(snapshot.version).toBe('2.14.4');
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 4, total: 4});
		expect(snapshot.threads).toHaveLength(4);
	});

	it('finds v1 on the nvidia fork, with GPU health', async () => {
		const [routes, fallback] = routes214(readSynthetic('nvidia-2.14-summary.json'), readSynthetic('nvidia-2.14-threads.json'));
		const miner = await minerWith(routes, fallback);
		const snapshot = await readerFor(miner).read();
		expect(snapshot.dialect).toBe('v1');
		expect(snapshot.threads.map((thread) => [thread.backend, thread.health?.temperature])).toEqual([
			['nvidia', 67],
			['nvidia', 71],
		]);
	});

	it('finds v1-summary-only on a 2.4 – 2.5 where /1/threads is the summary too', async () => {
		const miner = await minerWith({}, json(readSynthetic('v2.5-summary.json')));
		const reader = readerFor(miner);
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v1-summary-only');
		expect(snapshot.threads).toHaveLength(2);
		await reader.read();
		expect(miner.seen().slice(4)).toEqual(['GET /1/summary']);
	});

	it('finds v1-summary-only where /1/threads answers 404', async () => {
		const miner = await minerWith({'GET /1/summary': capture('v2.16/get_1_summary.txt')}, notFound2);
		const snapshot = await readerFor(miner).read();
		expect(snapshot.dialect).toBe('v1-summary-only');
		expect(snapshot.threads).toHaveLength(1);
	});

	it('finds v2-legacy-summary when /2/summary is missing but /2/backends is there', async () => {
		const miner = await minerWith({
			'GET /1/summary': capture('v6.26/get_1_summary.txt'),
			'GET /2/backends': capture('v6.26/get_2_backends.txt'),
		});
		const reader = readerFor(miner);
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v2-legacy-summary');
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 0, total: 0});
		expect(miner.seen()).toHaveLength(3);
		await reader.read();
		expect(miner.seen().slice(3).sort()).toEqual(['GET /1/summary', 'GET /2/backends']);
	});

	it('detectDialect returns the documents it read', async () => {
		const miner = await minerWith(routes626());
		const client = replay.client(miner);
		const found = await detectDialect(client);
		expect(found.dialect.name).toBe('v2');
		expect(found.summary).toEqual(captureJson('v6.26/restricted-notoken/get_2_summary_notoken.txt'));
		expect(found.perThread).toEqual(captureJson('v6.26/restricted-notoken/get_2_backends_notoken.txt'));
	});
});

describe('detection failures', () => {
	it('reports a web server answering HTML as bad-payload', async () => {
		const miner = await minerWith({}, httpAnswer(200, '<!doctype html><title>router</title>'));
		const reader = readerFor(miner);
		expect((await readError(reader)).kind).toBe('bad-payload');
		expect(reader.dialect).toBeNull();
	});

	it('reports a server answering {} to everything as incompatible', async () => {
		const miner = await minerWith({}, json({}));
		const error = await readError(readerFor(miner));
		expect(error.kind).toBe('incompatible');
		expect(error.message).toMatch(/not an XMRig summary/u);
	});

	it('reports a server answering 404 to everything as not-found', async () => {
		const miner = await minerWith({}, notFound6);
		const error = await readError(readerFor(miner));
		expect(error.kind).toBe('not-found');
		expect(error.message).toMatch(/no XMRig summary/u);
	});

	it('stops at the first auth failure, then works once the token is right', async () => {
		const miner = await minerWith(
			{'GET /2/summary': capture('v6.26/restricted/get_2_summary_notoken.txt')},
			capture('v6.26/restricted/get_2_summary_notoken.txt'),
		);
		const reader = readerFor(miner);
		const error = await readError(reader);
		expect(error.kind).toBe('unauthorized');
		expect(miner.seen()).toHaveLength(2);
		miner.setRoutes({
			'GET /2/summary': capture('v6.26/restricted/get_2_summary_goodtoken.txt'),
			'GET /2/backends': capture('v6.26/restricted/get_2_backends_goodtoken.txt'),
		});
		reader.client.setToken('testtoken');
		expect((await reader.read()).dialect).toBe('v2');
	});

	it('reports a wrong token as forbidden', async () => {
		const miner = await minerWith({}, capture('v6.26/restricted/get_2_summary_badtoken.txt'));
		expect((await readError(readerFor(miner, 'wrongtoken'))).kind).toBe('forbidden');
	});

	it('reports an auth failure on /1/threads rather than guessing', async () => {
		const miner = await minerWith(
			{'GET /1/summary': capture('v2.16/get_1_summary.txt'), 'GET /1/threads': capture('v2.16/get_1_summary_notoken.txt')},
			notFound2,
		);
		expect((await readError(readerFor(miner))).kind).toBe('unauthorized');
	});

	it('retries detection on the next read after a truncated answer', async () => {
		const miner = await minerWith({
			...routes626(),
			'GET /2/summary': httpAnswer(200, '{"id": "f800509bdc3fb659", "hashrate": {"total": ['),
		});
		const reader = readerFor(miner);
		expect((await readError(reader)).kind).toBe('bad-payload');
		miner.setRoutes(routes626());
		expect((await reader.read()).dialect).toBe('v2');
	});
});

describe('re-detection after a restart or a replacement', () => {
	it('detects once when the uptime goes down', async () => {
		const miner = await minerWith(withUptime(5000));
		const reader = readerFor(miner);
		await reader.read();
		miner.setRoutes(withUptime(3));
		const before = miner.seen().length;
		const snapshot = await reader.read();
		expect(snapshot.uptime).toBe(3);
		// The poll itself (2) and one detection (2).
		expect(miner.seen().length - before).toBe(4);
		await reader.read();
		expect(miner.seen().length - before).toBe(6);
	});

	it('does not re-detect while the uptime grows', async () => {
		const miner = await minerWith(withUptime(100));
		const reader = readerFor(miner);
		await reader.read();
		miner.setRoutes(withUptime(102));
		const before = miner.seen().length;
		await reader.read();
		expect(miner.seen().length - before).toBe(2);
	});

	it('detects once when another miner (new id) answers on the port', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		await reader.read();
		miner.setRoutes(
			with626Summary((summary) => {
				summary['id'] = '0000000000000001';
			}),
		);
		const before = miner.seen().length;
		expect((await reader.read()).id).toBe('0000000000000001');
		expect(miner.seen().length - before).toBe(4);
		await reader.read();
		expect(miner.seen().length - before).toBe(6);
	});

	it('moves from v1 to v2 when 2.16 is upgraded to 6.26 (404 on /1/threads)', async () => {
		const miner = await minerWith(routes216(), notFound2);
		const reader = readerFor(miner);
		expect((await reader.read()).dialect).toBe('v1');
		miner.setRoutes(routes626());
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v2');
		expect(snapshot.version).toBe('6.26.0');
		expect(reader.dialect?.name).toBe('v2');
	});

	it('moves from v2 to v1 when 6.26 is replaced by a 2.14 (backends answer the summary)', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		expect((await reader.read()).dialect).toBe('v2');
		const [routes, fallback] = routes214();
		miner.setRoutes(routes, fallback);
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('v1');
		expect(snapshot.version).toBe('2.14.4');
	});

	it('moves from v1-summary-only to v2 when the version changes', async () => {
		const miner = await minerWith({}, json(readSynthetic('v2.5-summary.json')));
		const reader = readerFor(miner);
		expect((await reader.read()).dialect).toBe('v1-summary-only');
		miner.setRoutes(routes626());
		expect((await reader.read()).dialect).toBe('v2');
	});

	it('keeps the dialect through a failed poll', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		await reader.read();
		miner.setRoutes({}, httpAnswer(503, ''));
		expect((await readError(reader)).kind).toBe('server-error');
		expect(reader.dialect?.name).toBe('v2');
		miner.setRoutes(routes626());
		const before = miner.seen().length;
		await reader.read();
		expect(miner.seen().length - before).toBe(2);
	});

	it('forgets the dialect when detection fails after a 404, and detects on the next read', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		await reader.read();
		miner.setRoutes({}, notFound6);
		expect((await readError(reader)).kind).toBe('not-found');
		expect(reader.dialect).toBeNull();
		miner.setRoutes(routes216(), notFound2);
		expect((await reader.read()).dialect).toBe('v1');
	});
});

describe('read({perThread: false}): the summary alone', () => {
	it('reads only /2/summary from a 6.26 once the dialect is known, keeping the dialect and the hugepages pair', async () => {
		const miner = await minerWith(routes626());
		const reader = readerFor(miner);
		const full = await reader.read();
		const before = miner.seen().length;
		const light = await reader.read(undefined, {perThread: false});
		expect(miner.seen().slice(before)).toEqual(['GET /2/summary']);
		expect(light.dialect).toBe('v2');
		expect(reader.dialect).toEqual({name: 'v2', summaryPath: '/2/summary', threadsPath: '/2/backends'});
		expect(light.hashrate).toEqual(full.hashrate);
		expect(light.hugepages).toEqual(full.hugepages);
		expect(light.results).toEqual(full.results);
		// The snapshot says its threads were not read (the dashboard must not say the miner has none).
		expect(full.perThreadRead).toBe(true);
		expect(light.perThreadRead).toBe(false);
		expect(light.threads).toEqual([]);
		// Back to the dashboard: both documents again.
		const again = await reader.read(undefined, {perThread: true});
		expect(
			miner
				.seen()
				.slice(before + 1)
				.sort(),
		).toEqual(['GET /2/backends', 'GET /2/summary']);
		expect(again).toEqual(full);
	});

	it('reads only /1/summary from a 2.16, whose summary has the hugepages flag', async () => {
		const miner = await minerWith(routes216(), notFound2);
		const reader = readerFor(miner);
		await reader.read();
		const before = miner.seen().length;
		const light = await reader.read(undefined, {perThread: false});
		expect(miner.seen().slice(before)).toEqual(['GET /1/summary']);
		expect(light.dialect).toBe('v1');
		expect(light.hugepages?.kind).toBe('flag');
	});

	it('still finds the dialect with both documents on the first read', async () => {
		const miner = await minerWith(routes626());
		const snapshot = await readerFor(miner).read(undefined, {perThread: false});
		expect(snapshot.dialect).toBe('v2');
		expect(miner.seen().sort()).toEqual(['GET /2/backends', 'GET /2/summary']);
	});
});
