/**
 * A miner's config whose keys hold control and invisible characters (issue 36): `donate-level`, `donate-level\u200B`
 * and `donate-level\u0007` are three keys, and the tree, the diff and the messages show three different names, each
 * character escaped as the values are (`\u200b`), while the key edited and written back is the key as stored.
 */
import {describe, expect, it} from 'vitest';
import {keyLine} from '../../../../source/config/apply.js';
import {ConfigDocument} from '../../../../source/config/document.js';
import {PendingEdits} from '../../../../source/config/edits.js';
import {ConfigTree} from '../../../../source/ui/widgets/config-tree.js';
import {configReducer, initialConfigUi} from '../../../../source/ui/screens/config/reduce.js';
import {entryLabel, entryValue, visibleEntries} from '../../../../source/ui/widgets/config-rows.js';
import {readySessionState} from '../../../config/helpers/session-state.js';
import {render} from '../../helpers/ink-testing.js';

/** What a terminal would act on, or that hides: C0 but the newline, DEL, C1, bidi and zero-width characters. */
// eslint-disable-next-line no-control-regex -- the characters no frame or message may hold.
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

const TEXT = `{
	"donate-level": 1,
	"donate-level\\u200B": 99,
	"donate-level\\u0007": 98,
	"pools": [{"url": "pool.example:3333\\u202Eexe.", "pass": "x"}]
}`;

const KEYS = ['donate-level', 'donate-level\u200B', 'donate-level\u0007'] as const;

describe('config keys with control and invisible characters', () => {
	it('the tree labels each key differently, its characters escaped; a pool shows its url escaped', () => {
		const document = new ConfigDocument(TEXT);
		const labels = KEYS.map((key) => entryLabel(document.entry([key])!));
		expect(labels).toEqual(['donate-level', 'donate-level\\u200b', 'donate-level\\u0007']);
		const pool = document.entry(['pools', 0])!;
		expect(entryValue(pool, null, document)).toBe('pool.example:3333\\u202eexe.');
	});

	it('the tree drawn shows three rows that read differently, each with its own value', () => {
		const document = new ConfigDocument(TEXT);
		const expanded = new Set(['pools']);
		const rows = visibleEntries(document, expanded);
		const {lastFrame} = render(
			<ConfigTree
				document={document}
				edits={null}
				rows={rows}
				top={0}
				height={rows.length}
				cursor={0}
				expanded={expanded}
				width={120}
				editor={null}
				outcomes={null}
			/>,
		);
		const frame = lastFrame() ?? '';
		expect(frame).not.toMatch(UNSAFE);
		const shown = frame.split('\n').filter((line) => line.includes('donate-level'));
		expect(shown).toHaveLength(3);
		expect(new Set(shown.map((line) => line.trim())).size).toBe(3);
		expect(shown[0]).toMatch(/donate-level +1\b/);
		expect(shown[1]).toMatch(/donate-level\\u200b +99\b/);
		expect(shown[2]).toMatch(/donate-level\\u0007 +98\b/);
		expect(frame).toContain('pool.example:3333\\u202eexe.');
	});

	it('messages and the diff name the key escaped; the text written back keeps the key as stored', () => {
		const edits = new PendingEdits(new ConfigDocument(TEXT));
		const cycle = edits.toggle(['donate-level\u0007']);
		expect(cycle.ok).toBe(false);
		if (!cycle.ok) expect(cycle.message).toBe('donate-level\\u0007 has no set of values to cycle through; edit it instead');
		const set = edits.set(['donate-level\u200B'], 5);
		expect(set.ok).toBe(true);
		if (!set.ok) return;
		expect(set.edits.diffLines()).toEqual(['donate-level\\u200b: 99 → 5']);
		// The key edited is the stored one, byte for byte; the others are untouched.
		expect(set.edits.text()).toBe(TEXT.replace('"donate-level\\u200B": 99', '"donate-level\\u200B": 5'));
		// The line an apply's result, its event and a batch show for the key.
		const result = {segments: ['donate-level\u200B'], before: '99', after: '5', seen: '5', secret: false, guarded: false} as const;
		expect(keyLine({...result, path: 'donate-level\u200B', status: 'applied'})).toBe('donate-level\\u200b: 99 → 5');
		const refused = edits.set(['donate-level\u0007'], 'lots');
		expect(refused.ok).toBe(false);
		if (!refused.ok) expect(refused.message).not.toMatch(UNSAFE);
	});

	it('the view names the key escaped: a search steps to each of the three', () => {
		const session = readySessionState(new PendingEdits(new ConfigDocument(TEXT)));
		const env = {session, pageSize: 5, readOnly: false, helpMax: 0, tooSmall: false};
		let state = initialConfigUi();
		for (const input of ['/', 'donate']) state = configReducer(state, {type: 'key', input, key: {}}, env).state;
		state = configReducer(state, {type: 'key', input: '', key: {return: true}}, env).state;
		const said: string[] = [state.notice?.text ?? ''];
		const cursors: (string | null)[] = [state.cursor];
		for (let step = 0; step < 2; step++) {
			state = configReducer(state, {type: 'key', input: 'n', key: {}}, env).state;
			said.push(state.notice?.text ?? '');
			cursors.push(state.cursor);
		}

		expect(cursors).toEqual([...KEYS]);
		expect(said.map((text) => text.split(' — ')[0])).toEqual(['donate-level', 'donate-level\\u200b', 'donate-level\\u0007']);
		for (const text of said) expect(text).not.toMatch(UNSAFE);
	});
});
