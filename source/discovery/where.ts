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
	if (target.token === null) return 'not set (no Authorization header is sent)';
	return target.provenance.token ? `set (from ${describeSource(target.provenance.token)})` : 'set';
}

function bulleted(title: string, lines: readonly string[]): string[] {
	return lines.length === 0 ? [] : [title, ...lines.map((line) => `  - ${line}`)];
}

/** The `--where` report, one string per line. */
export function formatWhere(result: DiscoveryResult): string[] {
	if (result.targets.length === 0) return formatNoneFound(result);
	const lines = [result.targets.length === 1 ? 'rigtop will monitor 1 miner:' : `rigtop will monitor ${result.targets.length} miners:`];
	for (const target of result.targets) {
		lines.push(`  ${target.name ? `${target.name}  ` : ''}${target.url}`);
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
