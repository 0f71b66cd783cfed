import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {ConfigDocument, ConfigParseError, ConfigPathError, inferFormatting} from '../../source/config/document.js';
import {SECRET_MASK} from '../../source/config/types.js';
import {v214Config, v216Config, v6Config} from './helpers/fixtures.js';

const documents = {'6.26': v6Config(), '2.16': v216Config(), '2.14': v214Config()};

describe('ConfigDocument: reading', () => {
	const doc = new ConfigDocument(v6Config());

	it('lists every key as a tree with kind, depth and child count', () => {
		const hugePages = doc.entry(['cpu', 'huge-pages']);
		expect(hugePages).toMatchObject({
			id: 'cpu.huge-pages',
			key: 'huge-pages',
			depth: 1,
			kind: 'boolean',
			value: true,
			display: 'true',
			childCount: 0,
		});
		expect(doc.entry(['pools'])).toMatchObject({kind: 'array', childCount: 1, display: '[…]', value: undefined});
		expect(doc.entry(['pools', 0])).toMatchObject({id: 'pools.0', key: 0, kind: 'object', childCount: 16});
		expect(doc.entry(['pools', 0, 'tls'])).toMatchObject({kind: 'boolean', value: false, depth: 2});
		expect(doc.entry(['cpu', 'priority'])).toMatchObject({kind: 'null', value: null, display: 'null'});
		expect(doc.entry(['cpu', 'cn'])).toMatchObject({kind: 'array', childCount: 1});
		expect(doc.entry(['cpu', 'rx/arq'])).toMatchObject({kind: 'string', value: 'rx/wow', display: '"rx/wow"'});
		expect(
			doc
				.children([])
				.map((entry) => entry.id)
				.slice(0, 4),
		).toEqual(['api', 'http', 'autosave', 'background']);
		expect(doc.children(['http']).map((entry) => entry.key)).toEqual(['enabled', 'host', 'port', 'access-token', 'restricted']);
	});

	it('masks secrets in the tree: no value, the mask as display, flagged', () => {
		const token = doc.entry(['http', 'access-token']);
		expect(token).toMatchObject({secret: true, guarded: true, value: undefined, display: SECRET_MASK});
		expect(doc.entry(['pools', 0, 'pass'])).toMatchObject({secret: true, value: undefined, display: SECRET_MASK});
		expect(doc.entry(['pools', 0, 'user'])).toMatchObject({secret: false, value: 'realpeer-test'});
		expect(doc.entry(['api', 'id'])).toMatchObject({secret: false, guarded: false});
		const shown = doc
			.entries()
			.map((entry) => `${entry.display} ${String(entry.value)}`)
			.join('\n');
		expect(shown).not.toContain('testtoken');
	});

	it('gets values and the raw text (number forms kept)', () => {
		expect(doc.get(['http', 'port'])).toBe(18_090);
		expect(doc.get(['pools', 0, 'url'])).toBe('127.0.0.1:13333');
		expect(doc.get(['nope'])).toBeUndefined();
		const odd = new ConfigDocument('{"a": 1.0, "b": 1e3, "c": "Müller ✓"}');
		expect(odd.raw(['a'])).toBe('1.0');
		expect(odd.raw(['b'])).toBe('1e3');
		expect(odd.get(['a'])).toBe(1);
		expect(odd.entry(['c'])?.display).toBe('"Müller ✓"');
	});

	it('parses the value with the same meaning as JSON.parse', () => {
		for (const text of Object.values(documents)) expect(new ConfigDocument(text).value).toEqual(JSON.parse(text));
		const proto = new ConfigDocument('{"__proto__": {"x": 1}}');
		expect(Object.keys(proto.value)).toEqual(['__proto__']);
	});

	it('refuses text that is not a JSON object', () => {
		expect(() => new ConfigDocument('{"a": ')).toThrow(ConfigParseError);
		expect(() => new ConfigDocument('[1, 2]')).toThrow(/not a JSON object/);
		expect(() => new ConfigDocument('')).toThrow(ConfigParseError);
	});
});

describe('ConfigDocument: a key written twice', () => {
	it('the first counts, as XMRig reads it, and it is the one an edit changes', () => {
		const document = new ConfigDocument('{"colors": true, "colors": false, "__proto__": {"x": 1}}');
		expect(document.value['colors']).toBe(true);
		expect(document.get(['colors'])).toBe(true);
		expect(document.set(['colors'], false)).toBe('{"colors": false, "colors": false, "__proto__": {"x": 1}}');
		expect(Object.keys(document.value)).toEqual(['colors', '__proto__']);
	});
});

describe('ConfigDocument: editing in place', () => {
	for (const [name, text] of Object.entries(documents)) {
		it(`toggling any boolean of the ${name} config and back restores the exact bytes; only that value changes`, () => {
			const doc = new ConfigDocument(text);
			const booleans = doc.entries().filter((entry) => entry.kind === 'boolean');
			expect(booleans.length).toBeGreaterThan(5);
			for (const entry of booleans) {
				const flipped = doc.set(entry.path, !entry.value);
				const span = doc.locate(entry.path)!;
				expect(flipped).toBe(text.slice(0, span.offset) + String(!entry.value) + text.slice(span.offset + span.length));
				expect(new ConfigDocument(flipped).set(entry.path, entry.value!)).toBe(text);
			}
		});
	}

	it('replaces a number or string value and keeps every other byte', () => {
		const text = v6Config();
		const doc = new ConfigDocument(text);
		const changed = doc.set(['print-time'], 30);
		expect(changed).toBe(text.replace('"print-time": 60,', '"print-time": 30,'));
		const url = doc.set(['pools', 0, 'url'], 'pool.example.org:443');
		expect(url).toBe(text.replace('"url": "127.0.0.1:13333"', '"url": "pool.example.org:443"'));
		const priority = doc.set(['cpu', 'priority'], 2);
		expect(priority).toBe(text.replace('"priority": null', '"priority": 2'));
	});

	it('leaves the text alone when the value is already the same in meaning (1.0 stays 1.0)', () => {
		const text = '{\n    "a": 1.0,\n    "b": 2\n}\n';
		const doc = new ConfigDocument(text);
		expect(doc.set(['a'], 1)).toBe(text);
		expect(doc.set(['b'], 3)).toBe('{\n    "a": 1.0,\n    "b": 3\n}\n');
	});

	it('writes strings as JSON (quotes escaped, unicode kept)', () => {
		const text = '{\n  "name": "Müller ✓",\n  "x": true\n}';
		const doc = new ConfigDocument(text);
		expect(doc.set(['x'], false)).toBe('{\n  "name": "Müller ✓",\n  "x": false\n}');
		const quoted = doc.set(['name'], 'a "b" ü');
		expect(JSON.parse(quoted)).toEqual({name: 'a "b" ü', x: true});
		expect(quoted).toContain('"a \\"b\\" ü"');
	});

	it('adds a new key with the document’s indentation and line ends', () => {
		const text = v6Config();
		const added = new ConfigDocument(text).set(['cpu', 'max-threads-hint'], 50);
		expect(JSON.parse(added).cpu['max-threads-hint']).toBe(50);
		expect(added).toContain('        "rx/arq": "rx/wow",\n        "max-threads-hint": 50\n    },');
		// Everything before the cpu section's last key and after the cpu section is untouched.
		const cut = text.indexOf('"rx/arq"');
		expect(added.slice(0, cut)).toBe(text.slice(0, cut));
		expect(added.endsWith(text.slice(text.indexOf('    "log-file"')))).toBe(true);

		const tabs = '{\n\t"a": {\n\t\t"b": 1\n\t}\n}';
		expect(new ConfigDocument(tabs).set(['a', 'c'], 2)).toBe('{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": 2\n\t}\n}');
		const crlf = '{\r\n  "a": {\r\n    "b": 1\r\n  }\r\n}';
		expect(new ConfigDocument(crlf).set(['a', 'c'], 2)).toBe('{\r\n  "a": {\r\n    "b": 1,\r\n    "c": 2\r\n  }\r\n}');
	});

	it('does not reformat a document laid out on one line', () => {
		const text = '{"a": 1.0, "b": [1,2], "c": {"d": true}}';
		const result = new ConfigDocument(text).set(['c', 'e'], 3);
		expect(result).toBe('{"a": 1.0, "b": [1,2], "c": {"d": true,"e": 3}}');
	});

	it('writes a list value in the document’s layout', () => {
		const text = v6Config();
		const result = new ConfigDocument(text).set(['cpu', 'rx'], [0, 1]);
		expect(JSON.parse(result).cpu.rx).toEqual([0, 1]);
		expect(result.split('\n').length).toBeGreaterThan(text.split('\n').length);
		expect(inferFormatting(text)).toEqual({tabSize: 4, insertSpaces: true, eol: '\n'});
	});

	it('refuses a path whose parent does not exist', () => {
		const doc = new ConfigDocument(v6Config());
		expect(() => doc.set(['nope', 'deeper'], 1)).toThrow(ConfigPathError);
		expect(() => doc.set(['pools', 5], {})).toThrow(ConfigPathError);
		expect(() => doc.set([], 1)).toThrow(ConfigPathError);
	});

	it('property: any two scalar sets on the same key, then setting the original back, restore the exact text', () => {
		const text = v6Config();
		const doc = new ConfigDocument(text);
		const scalars = doc.entries().filter((entry) => !['object', 'array'].includes(entry.kind));
		const scalar = fc.oneof(fc.boolean(), fc.integer({min: -5, max: 70_000}), fc.string({maxLength: 12}), fc.constant(null));
		fc.assert(
			fc.property(fc.constantFrom(...scalars), scalar, scalar, (entry, first, second) => {
				const original = doc.get(entry.path)!;
				const once = new ConfigDocument(doc.set(entry.path, first));
				const twice = new ConfigDocument(once.set(entry.path, second));
				expect(twice.set(entry.path, original)).toBe(text);
			}),
			{numRuns: 300},
		);
	});
});

describe('ConfigDocument: paths and masking', () => {
	const doc = new ConfigDocument(v6Config());

	it('resolves dotted paths by walking the document', () => {
		expect(doc.resolve('cpu.huge-pages')).toEqual(['cpu', 'huge-pages']);
		expect(doc.resolve('pools.0.tls')).toEqual(['pools', 0, 'tls']);
		expect(doc.resolve('cpu.rx/wow')).toEqual(['cpu', 'rx/wow']);
		expect(doc.resolve('donate-level')).toEqual(['donate-level']);
		expect(doc.resolve('cpu.new-key')).toEqual(['cpu', 'new-key']);
		expect(doc.resolve('nope.deeper')).toBeNull();
		expect(doc.resolve('pools.x')).toBeNull();
		expect(doc.resolve('pools.7.tls')).toBeNull();
		expect(doc.resolve('cpu..x')).toBeNull();
		const dotted = new ConfigDocument('{"a.b": {"c": 1}, "a": {"x": 2}}');
		expect(dotted.resolve('a.b.c')).toEqual(['a.b', 'c']);
		expect(dotted.resolve('a.x')).toEqual(['a', 'x']);
	});

	it('masks non-null secrets in the text and keeps everything else', () => {
		const text = v6Config();
		const masked = doc.maskedText();
		expect(masked).not.toContain('testtoken');
		expect(masked).toContain(`"access-token": "${SECRET_MASK}"`);
		expect(masked).toContain(`"pass": "${SECRET_MASK}"`);
		expect(masked.replace(`"${SECRET_MASK}"`, '"testtoken"').replace(`"${SECRET_MASK}"`, '"x"')).toBe(text);
		const none = new ConfigDocument('{"http": {"access-token": null}}');
		expect(none.maskedText()).toBe('{"http": {"access-token": null}}');
	});
});
