/**
 * The exporter's code loads only in `rigtop exporter` and with `--metrics`: in the built bundle, no chunk that the
 * other modes load (statically from dist/cli.js, or through the imports those modes make) holds any of it.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const dist = path.dirname(CLI);
const chunks = path.join(dist, 'chunks');

/** Static imports of a built file (`import…from"./x.js"`, `import"./x.js"`), as absolute paths. */
function staticImports(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(/import(?:[\w${},\s*]+from)?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
		path.resolve(path.dirname(file), match[1]!),
	);
}

function closure(entries: readonly string[]): Set<string> {
	const seen = new Set<string>();
	const stack = [...entries];
	while (stack.length > 0) {
		const file = stack.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		stack.push(...staticImports(file));
	}

	return seen;
}

/** The entry chunk of a dynamically imported module, by its name (esbuild names it `<name>-<hash>.js`). */
function entry(name: string): string {
	const found = readdirSync(chunks).filter((file) => new RegExp(`^${name}-[A-Z0-9]+\\.js$`).test(file));
	if (found.length !== 1) throw new Error(`expected one chunk named ${name}-*.js in dist/chunks, found ${found.join(', ') || 'none'}`);
	return path.join(chunks, found[0]!);
}

const exporterCode = (file: string) => readFileSync(file, 'utf8').includes('xmrig_hashrate_hashes_per_second');

describe('the built bundle', () => {
	it('loads the exporter only for rigtop exporter and --metrics', () => {
		if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
		const cli = readdirSync(chunks).find((file) => /^cli-[A-Z0-9]+\.js$/.test(file));
		expect(cli).toBeDefined();
		// Every other command: --version/--help (cli), the dashboard and fleet (live, app), --once, --where, config, history.
		const others = closure([CLI, path.join(chunks, cli!), ...['live', 'app', 'once', 'where', 'config', 'history', 'session'].map(entry)]);
		expect([...others].filter(exporterCode).map((file) => path.basename(file))).toEqual([]);
		// The exporter's own entries do hold it.
		for (const name of ['run', 'serve']) expect([...closure([entry(name)])].some(exporterCode), name).toBe(true);
	});
});
