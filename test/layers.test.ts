/**
 * The arrows between rigtop's layers run one way, down the order written in docs/design.md ("The order of layers"):
 * `bin.ts` → `cli.tsx` → `cli/` → `commands/` → the screens → … → `miner/` → `sensors/` → `text/` and the helpers
 * every layer shares. This reads every import in `source/` (static, `export … from`, `import type` and `import()`,
 * with TypeScript's own scanner) and fails on
 * - a file in no layer (a new folder is placed in the order before it is used),
 * - an arrow from a layer to a higher one, or between two folders of one layer (peers do not import each other),
 * - a circle between folders, or between files (`import type` included: a circle of types is a circle all the same).
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const SOURCE = path.resolve('source');
const DESIGN = path.resolve('docs/design.md');

/**
 * Arrows and circles inside `source/ui/` that other work of issue 37 removes (the widgets out of one screen's folder,
 * the fleet's sort order out of the screens, availability and reduce untangled). Each entry must still be true: one
 * that no longer is fails the test, so the list only shrinks, to empty.
 */
const KNOWN_ARROWS: readonly string[] = [];
const KNOWN_CIRCLES: readonly string[] = [];

/** Every .ts and .tsx file under `source/`, relative to it, with '/' separators. */
function sourceFiles(): string[] {
	return readdirSync(SOURCE, {recursive: true, encoding: 'utf8'})
		.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => file.split(path.sep).join('/'))
		.sort();
}

const FILES = sourceFiles();
const FILE_SET = new Set(FILES);

/** The file under `source/` an import names (`./x.js` is `x.ts` or `x.tsx`). */
function resolve(from: string, specifier: string): string {
	const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
	const bare = joined.replace(/\.js$/, '');
	for (const candidate of [`${bare}.ts`, `${bare}.tsx`, `${bare}/index.ts`, joined]) if (FILE_SET.has(candidate)) return candidate;
	return joined;
}

/** The files under `source/` that `file` imports (relative specifiers only, not `../package.json`), relative to `source/`. */
function importsOf(file: string): string[] {
	const text = readFileSync(path.join(SOURCE, file), 'utf8');
	const {importedFiles} = ts.preProcessFile(text, true, true);
	return [
		...new Set(
			importedFiles
				.map((imported) => imported.fileName)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => resolve(file, specifier))
				.filter((target) => !target.startsWith('../')),
		),
	];
}

const IMPORTS = new Map(FILES.map((file) => [file, importsOf(file)]));

/**
 * The layers as docs/design.md writes them, top first: each numbered line of its "The order of layers" section names
 * its places in backticks before the dash. A place is a file (`cli.tsx`), a folder's own files (`miner/`), or a folder
 * with everything under it (`commands/**`).
 */
function layersOfDesign(): string[][] {
	const text = readFileSync(DESIGN, 'utf8');
	const start = text.indexOf('### The order of layers');
	expect(start, 'docs/design.md has a section "### The order of layers"').toBeGreaterThan(-1);
	const rest = text.slice(text.indexOf('\n', start));
	const end = rest.search(/^#{1,3} /m);
	const section = end === -1 ? rest : rest.slice(0, end);
	return section
		.split('\n')
		.filter((line) => /^\d+\. /.test(line))
		.map((line) => [...(line.split(' — ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ''));
}

const LAYERS = layersOfDesign();

/** The place of the order a file is in (the most particular one), or undefined. */
function placeOf(file: string): string | undefined {
	const places = LAYERS.flat();
	if (places.includes(file)) return file;
	const folder = `${path.posix.dirname(file)}/`.replace(/^\.\//, '');
	if (places.includes(folder)) return folder;
	return places.filter((place) => place.endsWith('/**') && file.startsWith(place.slice(0, -2))).sort((a, b) => b.length - a.length)[0];
}

const layerOf = (place: string) => LAYERS.findIndex((layer) => layer.includes(place));

/** Every import that runs up the order or across one layer, as "importer → imported". */
function wrongArrows(): string[] {
	const arrows: string[] = [];
	for (const [file, targets] of IMPORTS) {
		const from = placeOf(file);
		for (const target of targets) {
			const to = placeOf(target);
			if (from === undefined || to === undefined || from === to) continue;
			if (layerOf(to) <= layerOf(from)) arrows.push(`${file} → ${target}`);
		}
	}

	return arrows.sort();
}

/** Each circle of a graph once, as its nodes from the smallest round to it again (Tarjan's components, then one cycle in each). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[] {
	const found: string[] = [];
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	let next = 0;
	const visit = (node: string) => {
		index.set(node, next);
		low.set(node, next);
		next++;
		stack.push(node);
		onStack.add(node);
		for (const to of graph.get(node) ?? []) {
			if (!index.has(to)) {
				visit(to);
				low.set(node, Math.min(low.get(node)!, low.get(to)!));
			} else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
		}

		if (low.get(node) !== index.get(node)) return;
		const component = new Set<string>();
		let member: string | undefined;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.add(member);
		} while (member !== node);
		if (component.size > 1) found.push(shortestCycle(graph, component));
	};

	for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
	return found.sort();
}

/** The shortest way round a strongly connected component, from its smallest node. */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string {
	const [first] = [...component].sort();
	const cameFrom = new Map<string, string>();
	const queue = [first!];
	while (queue.length > 0) {
		const node = queue.shift()!;
		for (const to of [...(graph.get(node) ?? [])].sort()) {
			if (!component.has(to)) continue;
			if (to === first) {
				const way = [node];
				while (way[0] !== first) way.unshift(cameFrom.get(way[0]!)!);
				return [...way, first].join(' → ');
			}

			if (!cameFrom.has(to)) {
				cameFrom.set(to, node);
				queue.push(to);
			}
		}
	}

	return [...component].sort().join(' ↔ ');
}

/**
 * The imports between folders: `ui/screens/fleet` → `ui/screens/config` when a file of one imports a file of the other.
 * A file the order places by its own name (`ui/app.tsx`) is a folder of its own here, and the known arrows are left out.
 */
function folderGraph(): Map<string, string[]> {
	const folderOf = (file: string) => (placeOf(file) === file ? file : path.posix.dirname(file));
	const graph = new Map<string, Set<string>>();
	for (const [file, targets] of IMPORTS) {
		const from = folderOf(file);
		for (const target of targets) {
			const to = folderOf(target);
			if (to === from || KNOWN_ARROWS.includes(`${file} → ${target}`)) continue;
			if (!graph.has(from)) graph.set(from, new Set());
			graph.get(from)!.add(to);
		}
	}

	return new Map([...graph].map(([folder, targets]) => [folder, [...targets]]));
}

describe("source/'s layers", () => {
	it('reads the imports of every file, dynamic and type-only ones too', () => {
		expect(FILES).toContain('cli.tsx');
		expect(FILES.length).toBeGreaterThan(100);
		// cli.tsx reaches the flags statically and the commands through import().
		const fromCli = IMPORTS.get('cli.tsx')!;
		expect(fromCli).toContain('cli/flags.ts');
		expect(fromCli.some((target) => target.startsWith('commands/'))).toBe(true);
		// A type-only import is an arrow too.
		expect(IMPORTS.get('session/session.ts')).toContain('history/recorder.ts');
		// Every import names a file that is there.
		for (const [file, targets] of IMPORTS) for (const target of targets) expect(FILE_SET.has(target), `${file} → ${target}`).toBe(true);
	});

	it('reads an order of layers from docs/design.md, each place once', () => {
		expect(LAYERS.length).toBeGreaterThan(10);
		expect(LAYERS[0]).toEqual(['bin.ts']);
		const places = LAYERS.flat();
		expect(places.length).toBe(new Set(places).size);
		expect(places.filter((place) => !FILES.includes(place) && !place.endsWith('/') && !place.endsWith('/**'))).toEqual([]);
	});

	it('places every file of source/ in a layer', () => {
		expect(FILES.filter((file) => placeOf(file) === undefined)).toEqual([]);
	});

	it('has no arrow up the order of layers or between two places of one layer', () => {
		expect(wrongArrows().filter((arrow) => !KNOWN_ARROWS.includes(arrow))).toEqual([]);
	});

	it('has no circle between folders', () => {
		expect(circles(folderGraph())).toEqual([]);
	});

	it('has no circle between files', () => {
		expect(circles(IMPORTS).filter((circle) => !KNOWN_CIRCLES.includes(circle))).toEqual([]);
	});

	it('lists as known only arrows and circles that are still there', () => {
		const arrows = wrongArrows();
		expect(KNOWN_ARROWS.filter((arrow) => !arrows.includes(arrow))).toEqual([]);
		const found = circles(IMPORTS);
		expect(KNOWN_CIRCLES.filter((circle) => !found.includes(circle))).toEqual([]);
	});

	it('finds an arrow up and a circle where there is one', () => {
		const graph = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a', 'd']],
			['d', []],
		]);
		expect(circles(graph)).toEqual(['a → b → c → a']);
		expect(circles(new Map([['a', ['b']]]))).toEqual([]);
	});
});
