/**
 * A view is an env hook and a layout component, as Ink's own components are (docs/design.md, "Screens: one
 * contract"): no component function (PascalCase) nor hook (`use…`) of the screens and panes over 150 lines. Measured
 * from the source with TypeScript's parser.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const MOST = 150;
const FOLDERS = [
	'source/ui/screens/dashboard',
	'source/ui/screens/chart',
	'source/ui/screens/config',
	'source/ui/screens/fleet-config',
	'source/ui/screens/events',
	'source/ui/screens/fleet',
	'source/ui/screens/proxy',
	'source/ui/table',
	'source/ui/nav',
	'source/ui/panes',
	'source/ui/widgets',
	'source/ui/hooks',
];

/** Each component and hook of a file, with its length in lines. */
function functionsOf(file: string): {readonly name: string; readonly lines: number}[] {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(
		file,
		text,
		ts.ScriptTarget.Latest,
		true,
		file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
	);
	const found: {name: string; lines: number}[] = [];
	const visit = (node: ts.Node): void => {
		let name: string | null = null;
		if (ts.isFunctionDeclaration(node) && node.name) name = node.name.text;
		else if (
			ts.isVariableDeclaration(node) &&
			node.initializer &&
			(ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
		)
			name = node.name.getText(source);
		if (name !== null && /^(?:[A-Z]|use[A-Z])/.test(name)) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			found.push({name: `${path.relative('source', file)} ${name}`, lines: last - first + 1});
		}

		ts.forEachChild(node, visit);
	};

	visit(source);
	return found;
}

describe('the screens’ components', () => {
	it(`are an env hook and a layout: none over ${MOST} lines`, () => {
		const all = FOLDERS.flatMap((folder) =>
			readdirSync(folder)
				.filter((file) => /\.tsx?$/.test(file))
				.flatMap((file) => functionsOf(path.join(folder, file))),
		);
		expect(all.map((each) => each.name)).toContain('ui/screens/dashboard/view.tsx Dashboard');
		expect(all.filter((each) => each.lines > MOST).map((each) => `${each.name}: ${each.lines} lines`)).toEqual([]);
	});
});
