import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import type {HistoryStore} from '../../source/history/store.js';
import {LINK} from '../../source/history/tiers.js';
import {HistoryWriter, type IdentityFacts} from '../../source/history/writer.js';
import {hostOf} from '../../source/monitor/name.js';
import {downSample, eventRecord, goodSample, manualClock, observation, openStore, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup() {
	const temp = tempDir();
	const {store} = openStore(temp.dir);
	cleanups.push(() => store.close(), temp.cleanup);
	return {store, clock: manualClock(), reader: new HistoryReader(store)};
}

/** A new rigtop session (a new writer) that polls once; returns the stored miner it wrote as. */
function session(store: HistoryStore, at: number, url: string, facts: IdentityFacts | null): number | null {
	const writer = new HistoryWriter(store, {now: () => at});
	writer.write([observation(facts ? goodSample(at, 1000) : downSample(at), facts, {url})], []);
	return writer.minerOf(0);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('history identity', () => {
	it('continues a miner whose worker id was stored raw before text was cleaned where it enters', () => {
		const {store, clock} = setup();
		const t = clock.now();
		// An older rigtop stored the worker id as the miner sent it, a zero-width space and an escape sequence in it.
		const before = session(store, t, 'http://127.0.0.1:1111', sixFacts(null, 'rig-a\u200b\u001b[31m', 7200));
		store.run('UPDATE miner SET worker = ? WHERE miner = ?', 'rig-a\u200b\u001b[31m', before ?? -1);
		// Today's rigtop reads it cleaned; it is the same miner at the same address, not a new one.
		const after = session(store, t + MINUTE, 'http://127.0.0.1:1111', sixFacts(null, 'rig-a<200B><001B>[31m', 7260));
		expect(before).not.toBeNull();
		expect(after).toBe(before);
	});

	it('continues a miner by its API id, whatever its URL', () => {
		const {store, clock} = setup();
		const first = session(store, clock.now(), 'http://127.0.0.1:1111', sixFacts('id-a'));
		const again = session(store, clock.now() + HOUR, 'http://127.0.0.1:2222', sixFacts('id-a'));
		expect(first).not.toBeNull();
		expect(again).toBe(first);
	});

	it('continues a miner restarted on a new random port (a new id, the same worker id, started after it was last seen)', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const before = session(store, t, 'http://127.0.0.1:1111', sixFacts('id-port-1111', 'rig-a', 7200));
		// Ten minutes later the miner runs again on another port, up for 5 minutes: XMRig's id changed with the port.
		const after = session(store, t + 10 * MINUTE, 'http://127.0.0.1:2222', sixFacts('id-port-2222', 'rig-a', 300));
		expect(after).toBe(before);
		// The stored miner now answers to the new id.
		expect(session(store, t + 11 * MINUTE, 'http://127.0.0.1:2222', sixFacts('id-port-2222', 'rig-a', 360))).toBe(before);
	});

	it('keeps two miners of one worker id on one host apart while both run (the other started before the first was last seen)', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const cpu = session(store, t, 'http://127.0.0.1:1111', sixFacts('id-1111', 'box', 86_400));
		const second = session(store, t + 5000, 'http://127.0.0.1:2222', sixFacts('id-2222', 'box', 3600));
		expect(second).not.toBe(cpu);
		// Each keeps its own from then on.
		expect(session(store, t + 10_000, 'http://127.0.0.1:1111', sixFacts('id-1111', 'box', 86_410))).toBe(cpu);
		expect(session(store, t + 10_000, 'http://127.0.0.1:2222', sixFacts('id-2222', 'box', 3610))).toBe(second);
	});

	it("keeps another miner that now answers at a session's address apart (a new id, not the same process), the same worker id or not", () => {
		const {store, clock, reader} = setup();
		const t = clock.now();
		const writer = new HistoryWriter(store, {now: clock.now});
		const url = 'http://127.0.0.1:18080';
		writer.write([observation(goodSample(t, 1000), sixFacts('id-a', 'sim-rig', 600), {url})], []);
		const first = writer.minerOf(0);
		writer.write([observation(goodSample(t + 2000, 1000), sixFacts('id-a', 'sim-rig', 602), {url})], []);
		// Another rig behind the address, up for days, with the same worker id: its own miner, its own polls.
		writer.write(
			[observation(goodSample(t + 4000, 5000, {good: 9470, total: 9501, rejected: 31}), sixFacts('id-b', 'sim-rig', 5 * 86_400), {url})],
			[eventRecord(t + 4000, 'replaced', 'a different miner now answers at 127.0.0.1:18080: sim-rig, XMRig 6.26.0', {url})],
		);
		const second = writer.minerOf(0);
		expect(first).not.toBeNull();
		expect(second).not.toBe(first);
		writer.write([observation(goodSample(t + 6000, 5000), sixFacts('id-b', 'sim-rig', 5 * 86_400 + 2), {url})], []);
		const rows = (miner: number | null) => reader.rows(miner ?? -1, {from: t - HOUR, to: t + HOUR});
		expect(rows(first).map((row) => row.t)).toEqual([t, t + 2000]);
		expect(rows(second).map((row) => [row.t, row.rejected])).toEqual([
			[t + 4000, 31],
			[t + 6000, 0],
		]);
		expect(reader.events(second ?? -1, {since: 0}).map((event) => event.kind)).toEqual(['replaced']);
		expect(reader.events(first ?? -1, {since: 0})).toEqual([]);
		expect(
			reader
				.miners()
				.map((miner) => miner.apiId)
				.sort(),
		).toEqual(['id-a', 'id-b']);
		// The first miner back at the address later: its own history again.
		writer.write([observation(goodSample(t + 60_000, 1000), sixFacts('id-a', 'sim-rig', 20), {url})], []);
		expect(writer.minerOf(0)).toBe(first);
	});

	it('keeps writing as the same miner when its api.id changes live (the uptime goes on)', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const writer = new HistoryWriter(store, {now: clock.now});
		writer.write([observation(goodSample(t, 1000), sixFacts('id-a', 'rig-a', 600))], []);
		const first = writer.minerOf(0);
		writer.write([observation(goodSample(t + 2000, 1000), sixFacts('my-rig', 'rig-a', 602))], []);
		expect(writer.minerOf(0)).toBe(first);
	});

	it('does not take the history of a miner of the same worker id on another host, or of another kind', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const here = session(store, t, 'http://10.0.0.5:1111', sixFacts('id-a', 'rig'));
		expect(session(store, t + HOUR, 'http://10.0.0.6:1111', sixFacts('id-b', 'rig', 60))).not.toBe(here);
		expect(session(store, t + HOUR, 'http://10.0.0.5:2222', {apiId: 'id-c', workerId: 'rig', kind: 'nvidia', uptimeS: 60})).not.toBe(here);
	});

	it('keeps the rigs of one fleet apart when they share a worker id, with or without an API id (a tester found one stored under the other)', () => {
		const {store, clock, reader} = setup();
		const t = clock.now();
		const writer = new HistoryWriter(store, {now: clock.now});
		const fresh = {slot: 0, url: 'http://127.0.0.1:18304', name: 'rig-fresh'};
		const warm = {slot: 1, url: 'http://127.0.0.1:18305', name: 'rig-warm'};
		for (let step = 0; step < 3; step++) {
			const at = t + step * 2000;
			writer.write(
				[
					observation(goodSample(at, 1000), sixFacts('id-fresh', 'sim-rig', 10 + step * 2), fresh),
					// A 5.x rig whose API id is not known (empty), up for days, the same host name as worker id.
					observation(goodSample(at, 5000), sixFacts(null, 'sim-rig', 5 * 86_400 + step * 2), warm),
				],
				[],
			);
		}

		const [first, second] = [writer.minerOf(0), writer.minerOf(1)];
		expect(first).not.toBeNull();
		expect(second).not.toBeNull();
		expect(second).not.toBe(first);
		const rates = (miner: number | null) => reader.rows(miner ?? -1, {from: t - HOUR, to: t + HOUR}).length;
		expect([rates(first), rates(second)]).toEqual([3, 3]);
		// A later session of one of them alone still finds its own.
		expect(session(store, t + 10_000, 'http://127.0.0.1:18305', sixFacts(null, 'sim-rig', 5 * 86_400 + 10))).toBe(second);
		// And a miner with no id at another address that ran while the other was seen is another miner.
		expect(session(store, t + 12_000, 'http://127.0.0.1:18306', sixFacts(null, 'sim-rig', 86_400))).not.toBe(second);
	});

	it('falls back to the worker id without an API id, and to the URL without both', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const noId = session(store, t, 'http://127.0.0.1:1111', sixFacts(null, 'old-rig', null));
		expect(session(store, t + HOUR, 'http://127.0.0.1:3333', sixFacts('', 'old-rig', null))).toBe(noId);
		const bare = session(store, t, 'http://127.0.0.1:4444', sixFacts(null, null, null));
		expect(bare).not.toBe(noId);
		expect(session(store, t + HOUR, 'http://127.0.0.1:4444', sixFacts(null, null, null))).toBe(bare);
	});

	it('writes polls before the first answer under the miner last seen at the URL', () => {
		const {store, clock} = setup();
		const t = clock.now();
		const known = session(store, t, 'http://127.0.0.1:1111', sixFacts('id-a'));
		expect(session(store, t + HOUR, 'http://127.0.0.1:1111', null)).toBe(known);
	});

	it('moves polls and events stored before the first answer to the miner it turns out to be', () => {
		const {store, clock, reader} = setup();
		const t = clock.now();
		const known = session(store, t, 'http://127.0.0.1:1111', sixFacts('id-a', 'rig-a', 60));
		// The miner comes back on a new port; rigtop starts while it is still starting up (no answer yet).
		const writer = new HistoryWriter(store, {now: clock.now});
		const url = 'http://127.0.0.1:5555';
		writer.write([observation(downSample(t + HOUR), null, {url})], [eventRecord(t + HOUR, 'down', 'down: connection refused', {url})]);
		const provisional = writer.minerOf(0);
		expect(provisional).not.toBe(known);
		writer.write([observation(goodSample(t + HOUR + 2000, 1000), sixFacts('id-new', 'rig-a', 1), {url})], []);
		expect(writer.minerOf(0)).toBe(known);
		expect(reader.miners().map((miner) => miner.id)).toEqual([known]);
		expect(reader.events(known ?? 0, {since: t + HOUR - 1}).map((event) => event.text)).toEqual(['down: connection refused']);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ?', known ?? 0)?.n).toBe(3);
	});

	it('stores nothing of an address that never answered; its polls wait (the last hour of them) for a first answer', () => {
		const {store, clock, reader} = setup();
		const t = clock.now();
		const writer = new HistoryWriter(store, {now: clock.now});
		const url = 'http://127.0.0.1:6666';
		// Two hours of failed polls, one a minute, and the events of the outage.
		for (let minute = 0; minute <= 120; minute++) {
			clock.set(t + minute * MINUTE);
			const events = minute === 0 ? [eventRecord(clock.now(), 'down', 'down: connection refused', {url})] : [];
			expect(writer.write([observation(downSample(clock.now()), null, {url})], events)).toBe(true);
		}

		expect(writer.minerOf(0)).toBeNull();
		expect(writer.waits(0)).toBe(true);
		expect(reader.miners()).toEqual([]);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM sample')?.n).toBe(0);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM event')?.n).toBe(0);
		// It answers: what waited is written under it, within the span the store keeps polls for.
		clock.set(t + 121 * MINUTE);
		writer.write([observation(goodSample(clock.now(), 1000), sixFacts('id-late'), {url})], []);
		const miner = writer.minerOf(0);
		expect(miner).not.toBeNull();
		expect(writer.waits(0)).toBe(false);
		expect(reader.miners().map((stored) => stored.id)).toEqual([miner]);
		const kept = store.all<{t: number; link: number}>('SELECT t, link FROM sample WHERE miner = ? ORDER BY t', miner ?? 0);
		expect(kept.length).toBeGreaterThan(60);
		expect(kept.at(0)?.t).toBeGreaterThanOrEqual(t + 55 * MINUTE);
		expect(kept.at(-1)?.t).toBe(t + 121 * MINUTE);
		expect(kept.filter((row) => row.link !== LINK.live)).toHaveLength(kept.length - 1);
		expect(reader.events(miner ?? 0, {since: 0}).map((event) => event.text)).toEqual(['down: connection refused']);
		expect(reader.miners()[0]?.firstSeen).toBe(t);
	});

	it('hostOf drops the port, keeps IPv6 brackets', () => {
		expect(hostOf('http://10.0.0.5:8080')).toBe('10.0.0.5');
		expect(hostOf('http://[::1]:8080')).toBe('[::1]');
		expect(hostOf('http://rig.local')).toBe('rig.local');
	});
});
