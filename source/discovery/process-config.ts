/**
 * Works out the HTTP API settings a running XMRig process uses, by rebuilding its config chain the
 * way XMRig (2.15.1 – 6.x, `Base::load` + `BaseTransform::load`) does:
 * - the command line becomes layers in order: options before a `-c FILE`, the file, options after…
 *   (a relative FILE is relative to the miner's working directory);
 * - when those layers hold no usable pool, XMRig adds, one at a time until one does: `config.json`
 *   beside the binary (or in `--data-dir`), `~/.xmrig.json`, `~/.config/xmrig.json`;
 * - a section is taken whole from the LAST layer that has it (no merging: `xmrig -c file
 *   --http-port 9000` uses an `http` section without the file's token).
 * The older layout (before 2.15, no `http` anywhere) merged option by option instead, so there the
 * `api` sections are merged in order.
 */

import path from 'node:path';
import {parseXmrigCommandLine, type XmrigCommandLine} from './cmdline.js';
import {apiSettingsFromSections, readConfigFile, type ConfigDocument, type MinerApiSettings} from './miner-config.js';
import {mentionsXmrig, type ProcProcess} from './proc.js';

export type ChainLayer =
	| {readonly kind: 'options'; readonly doc: ConfigDocument}
	| {readonly kind: 'file'; readonly path: string; readonly doc: ConfigDocument; readonly searched: boolean};

export type ProcessConfig = {
	readonly settings: MinerApiSettings;
	/** Where the winning API section came from; null when none has one (the API is off). */
	readonly from: {readonly kind: 'cmdline'} | {readonly kind: 'file'; readonly path: string} | null;
	/** The config files in the chain, in order (absolute paths). */
	readonly files: readonly string[];
	/** Config files looked for but not used, with the reason, in plain words. */
	readonly notUsed: readonly string[];
	/** Files the miner names that cannot be read or parsed. */
	readonly problems: readonly string[];
	readonly commandLine: XmrigCommandLine;
	readonly layers: readonly ChainLayer[];
};

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** XMRig's read() succeeds when the winning `pools` array has an enabled pool with a URL. */
export function hasActivePool(layers: readonly ChainLayer[]): boolean {
	for (let index = layers.length - 1; index >= 0; index--) {
		const pools = layers[index]?.doc['pools'];
		if (!Array.isArray(pools)) continue;
		return pools.some((pool) => isObject(pool) && typeof pool['url'] === 'string' && pool['url'] !== '' && pool['enabled'] !== false);
	}
	return false;
}

/** The miner's binary: its exe when that names xmrig, else the xmrig script an interpreter runs. */
function binaryOf(process: ProcProcess): string | null {
	if (mentionsXmrig(process.exe)) return process.exe;
	const script = process.argv.slice(0, 2).find((arg) => mentionsXmrig(arg));
	if (script && (path.isAbsolute(script) || process.cwd)) return path.resolve(process.cwd ?? '/', script);
	return process.exe;
}

/** The files XMRig searches when the command line has no usable config, in its order. */
export function defaultConfigFiles(process: ProcProcess, commandLine: XmrigCommandLine, homeDirs: readonly string[]): string[] {
	const files: string[] = [];
	if (commandLine.dataDir !== null) {
		if (path.isAbsolute(commandLine.dataDir) || process.cwd)
			files.push(path.resolve(process.cwd ?? '/', commandLine.dataDir, 'config.json'));
	} else {
		const binary = binaryOf(process);
		if (binary) files.push(path.join(path.dirname(binary), 'config.json'));
	}
	for (const home of homeDirs) files.push(path.join(home, '.xmrig.json'), path.join(home, '.config', 'xmrig.json'));
	return [...new Set(files)];
}

function lastSection(layers: readonly ChainLayer[], name: string): {value: Readonly<Record<string, unknown>>; layer: ChainLayer} | null {
	for (let index = layers.length - 1; index >= 0; index--) {
		const layer = layers[index];
		const value = layer?.doc[name];
		if (layer && isObject(value)) return {value, layer};
	}
	return null;
}

/** Rebuilds the config chain of one XMRig process and works out its API settings. */
export async function resolveProcessConfig(process: ProcProcess, options: {readonly homeDirs: readonly string[]}): Promise<ProcessConfig> {
	const commandLine = parseXmrigCommandLine(process.argv);
	const layers: ChainLayer[] = [];
	const notUsed: string[] = [];
	const problems: string[] = [];
	for (const layer of commandLine.layers) {
		if (layer.kind === 'options') {
			layers.push(layer);
			continue;
		}
		if (!path.isAbsolute(layer.path) && process.cwd === null) {
			problems.push(`process ${process.pid} reads ${layer.path}, relative to a working directory rigtop may not see`);
			continue;
		}
		const file = path.resolve(process.cwd ?? '/', layer.path);
		const read = await readConfigFile(file);
		if (!read.ok) problems.push(`process ${process.pid} was started with -c ${layer.path}, but ${read.message}`);
		else if (Object.keys(read.doc).length > 0) layers.push({kind: 'file', path: file, doc: read.doc, searched: false});
	}
	if (!hasActivePool(layers)) {
		for (const file of defaultConfigFiles(process, commandLine, options.homeDirs)) {
			const read = await readConfigFile(file);
			if (!read.ok) {
				notUsed.push(read.message);
				continue;
			}
			if (Object.keys(read.doc).length === 0) continue;
			layers.push({kind: 'file', path: file, doc: read.doc, searched: true});
			if (hasActivePool(layers)) break;
		}
	}
	const files = layers.flatMap((layer) => (layer.kind === 'file' ? [layer.path] : []));
	const http = lastSection(layers, 'http');
	let api = lastSection(layers, 'api');
	if (!http && api && Object.hasOwn(api.value, 'port')) {
		// Older layout (before 2.15): options were applied one by one, so later values win key by key.
		const merged: Record<string, unknown> = {};
		for (const layer of layers) if (isObject(layer.doc['api'])) Object.assign(merged, layer.doc['api']);
		api = {value: merged, layer: api.layer};
	}
	const winner = http ?? (api && Object.hasOwn(api.value, 'port') ? api : null);
	const from =
		winner === null ? null : winner.layer.kind === 'file' ? {kind: 'file' as const, path: winner.layer.path} : {kind: 'cmdline' as const};
	const label =
		from?.kind === 'file'
			? from.path
			: from?.kind === 'cmdline'
				? `the command line of process ${process.pid}`
				: files.length > 0
					? files.join(' + ')
					: `process ${process.pid} (no config file found)`;
	const settings = apiSettingsFromSections(http?.value, api?.value, label);
	return {settings, from, files, notUsed, problems, commandLine, layers};
}
