import {describe, expect, it} from 'vitest';
import {MinerReader} from '../../source/miner/reader.js';
import {captureJson} from '../helpers/captures.js';
import {json, replayMinersForEachTest, routes626, routesProxy626, type Routes} from './helpers/replay-miner.js';

/**
 * A hostile miner and proxy on loopback: what they send reaches the normalized model clean (source/text/clean.ts),
 * whichever field carries it — the one boundary is where the answer's strings are read.
 */

type Json = Record<string, unknown>;

const replay = replayMinersForEachTest();

const TITLE = 'wk\u001B]52;c;SEFDS0VE\u0007\u001B]0;PWNTITLE\u0007';
const CLEAR = '6.26.0\u001B[2J\u001B[H\u009B31m';
const SHOWN_TITLE = 'wk<001B>]52;c;SEFDS0VE<0007><001B>]0;PWNTITLE<0007>';
const SHOWN_CLEAR = '6.26.0<001B>[2J<001B>[H<009B>31m';

/** A control character, a bidi control or a stray zero-width one anywhere in the text. */
// eslint-disable-next-line no-control-regex -- what must never reach the model.
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u2028\u2029]/u;

/** Every string anywhere in a value, with where it is. */
function strings(value: unknown, at = '$', found: Array<[string, string]> = []): Array<[string, string]> {
	if (typeof value === 'string') found.push([at, value]);
	else if (Array.isArray(value)) for (const [index, item] of value.entries()) strings(item, `${at}[${index}]`, found);
	else if (typeof value === 'object' && value !== null)
		for (const [key, item] of Object.entries(value)) strings(item, `${at}.${key}`, found);
	return found;
}

function unsafeStrings(value: unknown): Array<[string, string]> {
	return strings(value).filter(([, text]) => UNSAFE.test(text));
}

describe('hostile text from a miner and a proxy', () => {
	it("a miner's worker_id, version, algo, id, ua, pool, ip, tls, cpu brand and backend texts reach the model clean", async () => {
		const summary = captureJson('v6.26/restricted-notoken/get_2_summary_notoken.txt') as Json;
		summary['worker_id'] = TITLE;
		summary['version'] = CLEAR;
		summary['id'] = 'id\u202Eevil';
		summary['algo'] = 'rx/0\u001B[5m';
		summary['ua'] = 'XMRig/6.26.0\u0000\r\n\u001B[1mbold';
		const connection = summary['connection'] as Json;
		connection['pool'] = 'pool.example:3333\u200B';
		connection['ip'] = '10.0.0.1\u001B]8;;http://evil\u0007';
		connection['tls'] = 'TLSv1.3\u0085';
		connection['algo'] = 'rx/0\u009Dx\u009C';
		const cpu = summary['cpu'] as Json;
		cpu['brand'] = 'AMD R\u0443zen\u001B[2J 9 \u2066CPU\u2069';
		const backends = captureJson('v6.26/restricted-notoken/get_2_backends_notoken.txt') as Json[];
		for (const backend of backends) {
			if (typeof backend['profile'] === 'string') backend['profile'] = `${backend['profile']}\u001B[31m`;
		}

		const routes: Routes = {...routes626(), 'GET /2/summary': json(summary), 'GET /2/backends': json(backends)};
		const miner = await replay.start(routes);
		const snapshot = await new MinerReader(replay.client(miner)).read();
		// Every control shown as its code, what followed an ESC kept as the plain text it is: nothing acts, nothing is lost.
		expect(snapshot.workerId).toBe(SHOWN_TITLE);
		expect(snapshot.version).toBe(SHOWN_CLEAR);
		expect(snapshot.id).toBe('id<202E>evil');
		expect(snapshot.algo).toBe('rx/0<001B>[5m');
		expect(snapshot.userAgent).toBe('XMRig/6.26.0<0000> <001B>[1mbold');
		expect(snapshot.connection.pool).toBe('pool.example:3333<200B>');
		expect(snapshot.connection.ip).toBe('10.0.0.1<001B>]8;;http://evil<0007>');
		expect(snapshot.connection.tls).toBe('TLSv1.3<0085>');
		expect(snapshot.cpu?.brand).toBe('AMD R<0443>zen<001B>[2J 9 <2066>CPU<2069>');
		expect(unsafeStrings(snapshot)).toEqual([]);
	});

	it("a proxy's own worker_id, version and mode and its workers' names and ips reach the model clean", async () => {
		const summary = captureJson('../xmrig-proxy/v6.26/get_1_summary.txt') as Json;
		summary['worker_id'] = TITLE;
		summary['version'] = CLEAR;
		summary['mode'] = 'nicehash\u001B[8m';
		const workers = captureJson('../xmrig-proxy/v6.26/get_1_workers.txt') as Json;
		const rows = workers['workers'] as unknown[][];
		rows[0]![0] = 'rig-01\u200B';
		rows[1]![0] = 'r\u0456g-02\u001B]0;x\u0007';
		rows[1]![1] = '10.0.0.9\u202E';
		const routes: Routes = {...routesProxy626(), 'GET /1/summary': json(summary), 'GET /1/workers': json(workers)};
		const proxy = await replay.start(routes);
		const snapshot = await new MinerReader(replay.client(proxy, 'proxy-secret-3b7')).read();
		expect(snapshot.workerId).toBe(SHOWN_TITLE);
		expect(snapshot.version).toBe(SHOWN_CLEAR);
		expect(snapshot.proxy?.workers?.map((worker) => worker.name)).toEqual(['rig-01<200B>', 'r<0456>g-02<001B>]0;x<0007>']);
		expect(snapshot.proxy?.workers?.[1]?.ip).toBe('10.0.0.9<202E>');
		expect(unsafeStrings(snapshot)).toEqual([]);
	});
});
