/**
 * The files of a screen import one way: its state (the types and helpers its reducer and its availability both read),
 * its availability, its reducer, its view. No two files of `source/ui/` import each other, directly or round a loop
 * (a circle ties a reducer to its availability: neither can be read, or moved, alone). What more than one screen draws
 * (the line editor, the batch pane, the braille canvas) is a widget, in `ui/widgets/`: a widget, a pane, the table and
 * `ui/text/` import no screen (the screen contract in `ui/screens/` itself they may). Reads every relative import with TypeScript's own scanner, type-only ones too.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const SOURCE = path.resolve('source');
const UI = 'ui';

/** Every .ts and .tsx file under `source/ui/`, by its name as an import says it (`ui/screens/contract`), to its file. */
function uiFiles(): Map<string, string> {
	const files = readdirSync(path.join(SOURCE, UI), {recursive: true, encoding: 'utf8'})
		.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => `${UI}/${file.split(path.sep).join('/')}`)
		.sort();
	return new Map(files.map((file) => [file.replace(/\.tsx?$/, ''), file]));
}

/** What `file` imports (relative specifiers), as imports name it. */
function importsOf(name: string, file: string): string[] {
	const text = readFileSync(path.join(SOURCE, file), 'utf8');
	return ts
		.preProcessFile(text, true, true)
		.importedFiles.map((imported) => imported.fileName)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(name), specifier)).replace(/\.js$/, ''));
}

/** The loops of the import graph (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function circles(): string[][] {
	const files = uiFiles();
	const edges = new Map([...files].map(([name, file]) => [name, importsOf(name, file).filter((target) => files.has(target))]));
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	let next = 0;
	const visit = (file: string): void => {
		index.set(file, next);
		low.set(file, next++);
		stack.push(file);
		onStack.add(file);
		for (const target of edges.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}

		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string | undefined;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || (edges.get(file) ?? []).includes(file)) found.push(component.sort());
	};

	for (const name of files.keys()) if (!index.has(name)) visit(name);
	return found;
}

describe("source/ui's imports", () => {
	it('run one way: no file imports itself back round a loop', () => {
		expect(uiFiles().get('ui/screens/contract')).toBe('ui/screens/contract.ts');
		expect(circles()).toEqual([]);
	});

	it('a widget, a pane, the table and ui/text import no screen (the contract they may): what two screens draw is in ui/widgets/, below them', () => {
		const files = uiFiles();
		expect(files.has('ui/widgets/line-editor')).toBe(true);
		const below = [...files].filter(([name]) =>
			['ui/widgets/', 'ui/panes/', 'ui/table/', 'ui/text/'].some((folder) => name.startsWith(folder)),
		);
		const up = below.flatMap(([name, file]) =>
			importsOf(name, file)
				.filter((target) => /^ui\/screens\/[^/]+\//.test(target))
				.map((target) => `${name} → ${target}`),
		);
		expect(up).toEqual([]);
	});
});
