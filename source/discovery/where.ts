/**
 * Text for `rigtop --where` (where each setting came from) and for "no miner found". The token is
 * never shown, not even its length: only "set (from …)" or "not set".
 */

import {enableApiHelp} from './messages.js';
import type {DiscoveryResult, Source, Target} from './types.js';

const KIND_LABEL: Readonly<Record<Source['kind'], string>> = {
	flag: 'command line',
	env: 'environment',
	'config-file': 'config file',
	'rigs-file': 'rigs file',
	process: 'running process',
	default: 'default',
};

function describeSource(source: Source): string {
	return `${KIND_LABEL[source.kind]}: ${source.detail}`;
}

/** The token line of a target: "set (from …)" or "not set" — never the value or its length. */
export function describeToken(target: Target): string {
	if (target.token === null && target.tokenRefused !== undefined) return `not sent: ${target.tokenRefused}`;
	if (target.token === null) return 'not set (no Authorization header is sent)';
	return target.provenance.token ? `set (from ${describeSource(target.provenance.token)})` : 'set';
}

function bulleted(title: string, lines: readonly string[]): string[] {
	return lines.length === 0 ? [] : [title, ...lines.map((line) => `  - ${line}`)];
}

/** "1 miner", "3 miners"; with proxies, "2 miners and 1 xmrig-proxy", "2 xmrig-proxies". */
function countWords(targets: readonly Target[]): string {
	const proxies = targets.filter((target) => target.kind === 'proxy').length;
	const miners = targets.length - proxies;
	const minerWords = `${miners} miner${miners === 1 ? '' : 's'}`;
	if (proxies === 0) return minerWords;
	const proxyWords = `${proxies} xmrig-prox${proxies === 1 ? 'y' : 'ies'}`;
	return miners === 0 ? proxyWords : `${minerWords} and ${proxyWords}`;
}

/** The `--where` report, one string per line. */
export function formatWhere(result: DiscoveryResult): string[] {
	if (result.targets.length === 0) return formatNoneFound(result);
	const lines = [`rigtop will monitor ${countWords(result.targets)}:`];
	for (const target of result.targets) {
		lines.push(`  ${target.name ? `${target.name}  ` : ''}${target.url}${target.kind === 'proxy' ? '  (xmrig-proxy)' : ''}`);
		lines.push(`    address  ${describeSource(target.provenance.url)}`);
		lines.push(`    token    ${describeToken(target)}`);
	}
	lines.push(...bulleted('Warnings:', result.warnings), ...bulleted('Problems:', result.problems));
	return lines;
}

/** "No miner found": what was looked at, what is wrong, and how to turn XMRig's API on. */
export function formatNoneFound(result: DiscoveryResult): string[] {
	return [
		'No XMRig miner to monitor.',
		...bulleted('Looked at:', result.lookedAt),
		...bulleted('Problems:', result.problems),
		...bulleted('Warnings:', result.warnings),
		...enableApiHelp(),
	];
}
