/**
 * The catalogue of event kinds (source/monitor/event-kinds.ts) is the one place kinds are listed: every pair is
 * complete, every alert maps to a trouble, the alerts and the history read their rules from the rows, and no other
 * file restates a list of kinds (a scan of source/ with TypeScript's own scanner).
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';
import {alertForEvent, type OpenTroubles} from '../../source/alerts/select.js';
import {ENDED_BY} from '../../source/history/writer.js';
import {EVENT_KIND_NAMES, kindRow, kindsWhere, type KindRow} from '../../source/monitor/event-kinds.js';

const rowOf = (kind: string): KindRow => {
	const row = kindRow(kind);
	if (row === undefined) throw new Error(`no row for ${kind}`);
	return row;
};

/** The troubles the kinds begin, by name. */
const troubles = new Set(EVENT_KIND_NAMES.flatMap((kind) => rowOf(kind).begins ?? []));
const alerting = kindsWhere((row) => row.alert !== undefined);
const none: OpenTroubles = new Set();

describe('the catalogue of event kinds', () => {
	it('pairs every alerted trouble with an all-clear that ends it, and names only troubles and kinds it has', () => {
		for (const kind of alerting) {
			const begins = rowOf(kind).begins;
			if (begins === undefined) continue;
			const clearing = alerting.filter((other) => rowOf(other).ends?.includes(begins));
			expect(clearing, `the all-clear of ${kind}`).not.toHaveLength(0);
		}

		for (const kind of EVENT_KIND_NAMES) {
			const row = rowOf(kind);
			for (const trouble of [...(row.ends ?? []), ...(row.clears ?? [])]) expect(troubles, `${kind} names ${trouble}`).toContain(trouble);
			for (const other of row.endedBy ?? []) expect(EVENT_KIND_NAMES, `${kind} is ended by ${other}`).toContain(other);
		}
	});

	it('maps every alerting kind to a trouble: it begins one (warn or error), ends one (info) or clears what was open', () => {
		for (const kind of alerting) {
			const row = rowOf(kind);
			expect(row.begins !== undefined || (row.ends ?? []).length > 0 || (row.clears ?? []).length > 0, kind).toBe(true);
			if (row.begins !== undefined) expect(['warn', 'error'], kind).toContain(row.severity);
			if (row.ends !== undefined) expect(row.severity, kind).toBe('info');
		}

		// Not every kind alerts: news and the rigtop's own doing do not.
		for (const kind of ['started', 'paused', 'rejected', 'power-denied', 'action'] as const) expect(alerting).not.toContain(kind);
	});

	it('is what alertForEvent does: a trouble alerts as its row says and opens; its all-clear alerts only while it is open', () => {
		for (const kind of alerting) {
			const row = rowOf(kind);
			const alert = alertForEvent({kind, message: `${kind} happened`}, none).alert;
			if (row.ends !== undefined && row.alert?.always !== true) {
				expect(alert, `${kind} with nothing open`).toBeNull();
				const opened = new Set(row.ends);
				const closing = alertForEvent({kind, message: `${kind} happened`}, opened);
				expect(closing.alert?.kind, kind).toBe(row.alert?.as ?? kind);
				expect([...closing.open], kind).toEqual([]);
				continue;
			}

			expect(alert, kind).toEqual({kind: row.alert?.as ?? kind, severity: row.severity, message: `${kind} happened`});
			if (row.begins !== undefined) expect([...alertForEvent({kind, message: ''}, none).open], kind).toEqual([row.begins]);
		}

		// A proxy's worker's trouble is its own: another worker's all-clear does not close it.
		const gone = alertForEvent({kind: 'worker-gone', message: 'worker a gone', worker: 'a'}, none).open;
		expect(alertForEvent({kind: 'worker-back', message: 'worker b back', worker: 'b'}, gone).alert).toBeNull();
		expect(alertForEvent({kind: 'worker-back', message: 'worker a back', worker: 'a'}, gone).alert?.kind).toBe('worker-back');
	});

	it("gives the history's ENDED_BY: each kind of a pair ends the other, and a miner's process state ends with its outage", () => {
		// Today's table (a kind added later adds its own entries).
		const table = Object.fromEntries([...ENDED_BY].map(([kind, ended]) => [kind, [...ended].sort()]));
		expect(table).toMatchObject({
			down: ['up'],
			error: ['up'],
			up: ['down', 'error'],
			'pool-lost': ['pool-connected'],
			'pool-connected': ['pool-lost'],
			paused: ['resumed'],
			resumed: ['paused'],
			restarted: ['down', 'up'],
			replaced: ['down', 'up'],
			'hashrate-drop': ['hashrate-recovered'],
			'hashrate-recovered': ['hashrate-drop'],
			'hugepages-lost': ['down', 'up'],
			'upstream-error': ['upstream-recovered'],
			'upstream-recovered': ['upstream-error'],
			'worker-joined': ['worker-gone'],
			'worker-gone': ['worker-back', 'worker-joined'],
			'worker-back': ['worker-gone'],
			'worker-quiet': ['worker-sharing'],
			'worker-sharing': ['worker-quiet'],
			'temp-high': ['temp-normal'],
			'temp-normal': ['temp-high'],
			'throttle-started': ['throttle-stopped'],
			'throttle-stopped': ['throttle-started'],
			'power-lost': ['power-restored'],
			'power-restored': ['power-lost'],
		});
		// Every kind it names is a kind of the catalogue that the history keeps as a state of the rig; pairs end each other.
		for (const [kind, ended] of ENDED_BY) {
			for (const other of [kind, ...ended]) expect(rowOf(other).stored, other).toBe('state');
			for (const other of ended)
				if ((rowOf(kind).endedBy ?? []).includes(other) === false) expect(ENDED_BY.get(other), other).toContain(kind);
		}
	});
});

const SOURCE = path.resolve('source');
/** Where kinds may be named: the catalogue, and the detectors that make the events. */
const CATALOGUE = 'monitor/event-kinds.ts';
const DETECTORS = new Set(['monitor/events.ts', 'monitor/proxy-events.ts', 'monitor/sensor-events.ts', 'monitor/link.ts']);
/**
 * The names that are kinds only (of an event, an alert or a trouble). 'down', 'up', 'error', 'paused', 'resumed',
 * 'rejected', 'started' and 'action' are ordinary words of other tables too (link states, keys, tones), so they are
 * not counted; a restated list of kinds holds many of the others.
 */
const ORDINARY = new Set(['down', 'up', 'error', 'paused', 'resumed', 'rejected', 'started', 'action']);
const KIND_WORDS = new Set(
	[
		...EVENT_KIND_NAMES,
		...troubles,
		...EVENT_KIND_NAMES.flatMap((kind) => {
			const row = rowOf(kind);
			return [row.alert?.as ?? [], row.burst ?? []].flat();
		}),
	].filter((word) => !ORDINARY.has(word)),
);

/** The kind-only words a source file holds as string literals (not in comments or longer texts), by TypeScript's parser. */
function kindWordsIn(file: string): string[] {
	const text = readFileSync(path.join(SOURCE, file), 'utf8');
	const source = ts.createSourceFile(
		file,
		text,
		ts.ScriptTarget.Latest,
		false,
		file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
	);
	const found = new Set<string>();
	const visit = (node: ts.Node): void => {
		if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && KIND_WORDS.has(node.text)) found.add(node.text);
		ts.forEachChild(node, visit);
	};

	visit(source);
	return [...found].sort();
}

describe('kinds are listed once', () => {
	const files = readdirSync(SOURCE, {recursive: true, encoding: 'utf8'})
		.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => file.split(path.sep).join('/'));

	it('finds the kinds in the catalogue and the detectors', () => {
		expect(kindWordsIn(CATALOGUE).length).toBeGreaterThan(20);
		expect(kindWordsIn('monitor/events.ts')).toContain('pool-lost');
	});

	it("gives every event a detector makes its row's severity", () => {
		const made: string[] = [];
		for (const file of files) {
			const text = readFileSync(path.join(SOURCE, file), 'utf8');
			const visit = (node: ts.Node): void => {
				if (ts.isObjectLiteralExpression(node)) {
					const literal = (name: string) => {
						const property = node.properties.find((each) => ts.isPropertyAssignment(each) && each.name.getText() === name);
						return property && ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)
							? property.initializer.text
							: null;
					};

					const kind = literal('kind');
					const severity = literal('severity');
					const row = kind === null ? undefined : kindRow(kind);
					if (row !== undefined && severity !== null) {
						made.push(kind ?? '');
						expect(severity, `${file}: ${kind}`).toBe(row.severity);
					}
				}

				ts.forEachChild(node, visit);
			};

			visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
		}

		// The detectors' events, found: the link's, the pool's, the sensors', the proxy's upstreams'.
		expect(made).toEqual(expect.arrayContaining(['down', 'up', 'error', 'pool-lost', 'temp-high', 'upstream-error', 'replaced']));
	});

	it('names no more than two kinds in any other file of source/: a union, a set or a switch of kinds is a column of the catalogue', () => {
		const restating = files
			.filter((file) => file !== CATALOGUE && !DETECTORS.has(file))
			.map((file) => ({file, kinds: kindWordsIn(file)}))
			.filter(({kinds}) => kinds.length > 2);
		expect(restating).toEqual([]);
	});
});
