import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {ConfigDocument} from '../../source/config/document.js';
import {
	AssignmentError,
	applyEditsToText,
	assignmentValue,
	displayValue,
	parseAssignment,
	PendingEdits,
	type EditOutcome,
} from '../../source/config/edits.js';
import {v214Config, v6Config} from './helpers/fixtures.js';

function ok(outcome: EditOutcome): PendingEdits {
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.edits;
}

function changedLines(a: string, b: string): string[] {
	const left = a.split('\n');
	const right = b.split('\n');
	expect(left.length).toBe(right.length);
	return right.filter((line, index) => line !== left[index]);
}

describe('PendingEdits', () => {
	it('records before/after, marks changed keys and gives the diff', () => {
		let edits = new PendingEdits(v6Config());
		edits = ok(edits.toggle(['colors']));
		edits = ok(edits.toggle(['cpu', 'huge-pages']));
		edits = ok(edits.set(['print-time'], 30));
		expect(edits.size).toBe(3);
		expect(edits.isChanged(['colors'])).toBe(true);
		expect(edits.isChanged(['cpu', 'enabled'])).toBe(false);
		expect(edits.get(['print-time'])).toMatchObject({id: 'print-time', before: 60, after: 30, secret: false, guarded: false});
		expect(edits.diffLines()).toEqual(['colors: false → true', 'cpu.huge-pages: true → false', 'print-time: 60 → 30']);
		expect(edits.hasGuarded).toBe(false);
		// The edited text differs from what was read on exactly those three lines.
		expect(changedLines(v6Config(), edits.text())).toEqual([
			'    "colors": true,',
			'        "huge-pages": false,',
			'    "print-time": 30,',
		]);
		expect(edits.document().get(['print-time'])).toBe(30);
	});

	it('masks secrets in the diff and flags guarded changes', () => {
		let edits = new PendingEdits(v6Config());
		edits = ok(edits.set(['http', 'access-token'], 'new-secret-token'));
		edits = ok(edits.set(['pools', 0, 'pass'], 'pool-password-9'));
		const lines = edits.diffLines().join('\n');
		expect(lines).toBe('http.access-token: •••••••• (changed)\npools.0.pass: •••••••• (changed)');
		expect(lines).not.toMatch(/testtoken|new-secret-token|pool-password-9/);
		expect(edits.hasGuarded).toBe(true);
		expect(edits.get(['http', 'access-token'])?.guarded).toBe(true);
		expect(displayValue(['http', 'access-token'], 'x')).toBe('••••••••');
		expect(displayValue(['http', 'access-token'], null)).toBe('null');
		expect(displayValue(['print-time'], 30)).toBe('30');
		// A secret inside a whole value (a pool object, the pools list) is masked too.
		const pool = {url: 'p:1', user: 'wallet', pass: 'pool-password-9'};
		expect(displayValue(['pools', 1], pool)).toBe('{"url":"p:1","user":"wallet","pass":"••••••••"}');
		expect(displayValue(['pools'], [pool, {...pool, pass: null}])).toBe(
			'[{"url":"p:1","user":"wallet","pass":"••••••••"},{"url":"p:1","user":"wallet","pass":null}]',
		);
		expect(displayValue(['http'], {'access-token': 'abc-secret', port: 1})).toBe('{"access-token":"••••••••","port":1}');
		const whole = ok(new PendingEdits(v6Config()).set(['http'], {enabled: true, 'access-token': 'abc-secret'}));
		expect(whole.diffLines()[0]).not.toMatch(/abc-secret|testtoken/);
	});

	it('refuses invalid values with the schema message and keeps the set unchanged', () => {
		const edits = new PendingEdits(v6Config());
		const outcome = edits.set(['cpu', 'priority'], 9);
		expect(outcome).toEqual({ok: false, message: 'cpu.priority must be null or a whole number from 0 to 5 (not 9)'});
		expect(edits.size).toBe(0);
		expect(edits.step(['pools', 0, 'url'], 1)).toMatchObject({ok: false});
		expect(edits.toggle(['pools', 0, 'url'])).toMatchObject({ok: false});
		expect(edits.set(['nope', 'deep'], 1)).toMatchObject({ok: false, message: expect.stringMatching(/does not exist/)});
	});

	it('cycles and steps from the pending value', () => {
		let edits = new PendingEdits(v6Config());
		edits = ok(edits.toggle(['randomx', 'mode']));
		edits = ok(edits.toggle(['randomx', 'mode']));
		expect(edits.valueOf(['randomx', 'mode'])).toBe('light');
		edits = ok(edits.toggle(['cpu', 'priority']));
		edits = ok(edits.step(['cpu', 'priority'], 1));
		expect(edits.valueOf(['cpu', 'priority'])).toBe(1);
		edits = ok(edits.step(['print-time'], -100));
		expect(edits.valueOf(['print-time'])).toBe(0);
	});

	it('drops an edit set back to the original value: the text is byte-identical again', () => {
		const text = v6Config();
		let edits = new PendingEdits(text);
		edits = ok(edits.toggle(['colors']));
		edits = ok(edits.set(['print-time'], 30));
		edits = ok(edits.toggle(['colors']));
		edits = ok(edits.set(['print-time'], 60));
		expect(edits.size).toBe(0);
		expect(edits.text()).toBe(text);
	});

	it('discards one change or all', () => {
		let edits = new PendingEdits(v6Config());
		edits = ok(edits.toggle(['colors']));
		edits = ok(edits.toggle(['cpu', 'enabled']));
		expect(
			edits
				.discard(['colors'])
				.list()
				.map((edit) => edit.id),
		).toEqual(['cpu.enabled']);
		expect(edits.discard().size).toBe(0);
		expect(edits.discard().text()).toBe(v6Config());
	});

	it('refuses overlapping paths and adds new keys', () => {
		let edits = new PendingEdits(v6Config());
		edits = ok(edits.set(['cpu', 'rx'], [0, 1]));
		expect(edits.set(['cpu', 'rx', 0], 2)).toMatchObject({
			ok: false,
			message: expect.stringMatching(/overlaps the pending change to cpu\.rx/),
		});
		edits = ok(edits.set(['cpu', 'max-threads-hint'], 75));
		expect(edits.get(['cpu', 'max-threads-hint'])?.before).toBeUndefined();
		expect(JSON.parse(edits.text()).cpu).toMatchObject({rx: [0, 1], 'max-threads-hint': 75});
	});

	it('works on the older layout', () => {
		let edits = new PendingEdits(v214Config());
		edits = ok(edits.set(['api', 'access-token'], 'other-token'));
		edits = ok(edits.toggle(['cpu-priority']));
		expect(edits.hasGuarded).toBe(true);
		expect(edits.diffLines()).toEqual(['api.access-token: •••••••• (changed)', 'cpu-priority: null → 0']);
	});

	it('property: any sequence of toggles restores the exact text when each key was toggled an even number of times', () => {
		const text = v6Config();
		const base = new ConfigDocument(text);
		const keys = base.entries().filter((entry) => entry.kind === 'boolean' || entry.id === 'randomx.mode' || entry.id === 'cpu.priority');
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...keys), {maxLength: 30}), (sequence) => {
				let edits = new PendingEdits(base);
				for (const entry of sequence) edits = ok(edits.toggle(entry.path));
				// Undo by toggling back the other way, in reverse order.
				for (const entry of [...sequence].reverse()) edits = ok(edits.toggle(entry.path, -1));
				expect(edits.size).toBe(0);
				expect(edits.text()).toBe(text);
			}),
			{numRuns: 200},
		);
	});

	it('applies edits to another text with the same meaning (keeps that text’s bytes)', () => {
		const edits = ok(new PendingEdits('{"a": 1, "b": true}').toggle(['b']));
		expect(applyEditsToText('{ "b":true,  "a":1.0 }', edits.list())).toBe('{ "b":false,  "a":1.0 }');
	});
});

describe('PATH=VALUE assignments', () => {
	it('reads VALUE as JSON when it parses, else as a string', () => {
		expect(parseAssignment('cpu.priority=null')).toEqual({path: 'cpu.priority', value: null, raw: 'null'});
		expect(parseAssignment('print-time=30').value).toBe(30);
		expect(parseAssignment('colors=true').value).toBe(true);
		expect(parseAssignment('randomx.mode=fast').value).toBe('fast');
		expect(parseAssignment('pools.0.url=pool.example.org:3333').value).toBe('pool.example.org:3333');
		expect(parseAssignment('http.host="0.0.0.0"').value).toBe('0.0.0.0');
		expect(parseAssignment('cpu.rx=[0,1]').value).toEqual([0, 1]);
		expect(parseAssignment('pools.0.pass=a=b').value).toBe('a=b');
		expect(parseAssignment('api.worker-id=').value).toBe('');
	});

	it('refuses arguments that are not PATH=VALUE', () => {
		expect(() => parseAssignment('colors')).toThrow(AssignmentError);
		expect(() => parseAssignment('=5')).toThrow(AssignmentError);
		expect(() => parseAssignment('cpu..x=1')).toThrow(/not a key path/);
	});

	it('takes a number-looking VALUE as text for keys that hold strings', () => {
		expect(assignmentValue(['pools', 0, 'rig-id'], parseAssignment('x=123'), null)).toBe('123');
		expect(assignmentValue(['pools', 0, 'pass'], parseAssignment('x=12345'), 'x')).toBe('12345');
		expect(assignmentValue(['print-time'], parseAssignment('x=30'), 60)).toBe(30);
		expect(assignmentValue(['cpu', 'asm'], parseAssignment('x=true'), 'ryzen')).toBe(true);
		expect(assignmentValue(['print-time'], parseAssignment('x=true'), 60)).toBe(true);
	});
});
