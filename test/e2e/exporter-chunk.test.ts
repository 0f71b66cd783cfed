/**
 * The exporter's code loads only in `rigtop exporter` and with `--metrics`: in the built bundle, no chunk that the
 * other modes load (statically from dist/cli.js, or through the imports those modes make) holds any of it.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {CHUNKS, chunkClosure, chunkEntry as entry} from './helpers/chunks.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const chunks = CHUNKS;
const closure = (entries: readonly string[]) => chunkClosure(entries);

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
