/**
 * The config keys XMRig 5.x and 6.x know. A PUT /1/config document is read into XMRig's own config objects and the
 * config it serves and saves afterwards is written back from them, so a key it does not know is gone from both (the
 * junk key of a typo such as `cpu.hugepages` for `cpu.huge-pages` never survives). The simulator drops such keys the
 * same way, editing them out of the text so that everything else stays as it was sent.
 *
 * The sets are the keys of the real 6.26 config (test fixtures) and of XMRig's own config.json, plus the GPU
 * backends' sections. Inside `cpu`, `opencl` and `cuda` any key naming an algorithm or algorithm family (`rx`,
 * `rx/wow`, `cn/0`, `*`…) is a thread profile, which XMRig keeps.
 */
import {applyEdits, modify, parseTree, type Node as JsonNode} from 'jsonc-parser';

const OBJECTS: Readonly<Record<string, ReadonlySet<string>>> = {
	'': new Set([
		'api',
		'http',
		'autosave',
		'background',
		'colors',
		'title',
		'randomx',
		'cpu',
		'opencl',
		'cuda',
		'log-file',
		'donate-level',
		'donate-over-proxy',
		'pools',
		'retries',
		'retry-pause',
		'print-time',
		'health-print-time',
		'dmi',
		'syslog',
		'tls',
		'dns',
		'user-agent',
		'verbose',
		'watch',
		'pause-on-battery',
		'pause-on-active',
	]),
	api: new Set(['id', 'worker-id']),
	http: new Set(['enabled', 'host', 'port', 'access-token', 'restricted']),
	randomx: new Set(['init', 'init-avx2', 'mode', '1gb-pages', 'rdmsr', 'wrmsr', 'cache_qos', 'numa', 'scratchpad_prefetch_mode']),
	cpu: new Set([
		'enabled',
		'huge-pages',
		'huge-pages-jit',
		'hw-aes',
		'priority',
		'memory-pool',
		'yield',
		'max-threads-hint',
		'asm',
		'argon2-impl',
		'astrobwt-max-size',
		'astrobwt-avx2',
	]),
	opencl: new Set(['enabled', 'cache', 'loader', 'platform', 'adl']),
	cuda: new Set(['enabled', 'loader', 'nvml']),
	pool: new Set([
		'algo',
		'coin',
		'url',
		'user',
		'pass',
		'rig-id',
		'nicehash',
		'keepalive',
		'enabled',
		'tls',
		'sni',
		'tls-fingerprint',
		'daemon',
		'daemon-poll-interval',
		'daemon-job-timeout',
		'socks5',
		'self-select',
		'submit-to-origin',
	]),
	tls: new Set(['enabled', 'protocols', 'cert', 'cert_key', 'ciphers', 'ciphersuites', 'dhparam']),
	dns: new Set(['ip_version', 'ttl']),
};

/** A thread profile's name: an algorithm, an algorithm family, or `*`. */
const PROFILE = /^(?:\*|(?:cn|cn-lite|cn-heavy|cn-pico|cn-femto|rx|argon2|astrobwt|ghostrider|kawpow)(?:\/[\w-]+)?)$/;
const PROFILE_SECTIONS = new Set(['cpu', 'opencl', 'cuda']);

/** The paths of the keys XMRig 5.x/6.x would not keep from this document, deepest last. */
export function unknownKeyPaths(text: string): Array<Array<string | number>> {
	const root = parseTree(text, [], {allowTrailingComma: true});
	if (root?.type !== 'object') return [];
	const unknown: Array<Array<string | number>> = [];
	const visit = (node: JsonNode, section: string, path: Array<string | number>) => {
		const known = OBJECTS[section];
		for (const property of node.children ?? []) {
			const [keyNode, valueNode] = property.children ?? [];
			const key = typeof keyNode?.value === 'string' ? keyNode.value : '';
			const isKnown = known?.has(key) === true || (PROFILE_SECTIONS.has(section) && PROFILE.test(key));
			if (!isKnown) {
				unknown.push([...path, key]);
				continue;
			}

			if (!valueNode) continue;
			if (section === '' && key === 'pools' && valueNode.type === 'array') {
				(valueNode.children ?? []).forEach((pool, index) => {
					if (pool.type === 'object') visit(pool, 'pool', [...path, key, index]);
				});
			} else if (section === '' && valueNode.type === 'object' && OBJECTS[key]) {
				visit(valueNode, key, [...path, key]);
			}
		}
	};

	visit(root, '', []);
	return unknown;
}

/** The document without the keys XMRig 5.x/6.x would not keep (the text itself when it has none). */
export function dropUnknownKeys(text: string): string {
	let result = text;
	for (const path of unknownKeyPaths(text)) {
		result = applyEdits(result, modify(result, path, undefined, {formattingOptions: {insertSpaces: true, tabSize: 4}}));
	}

	return result;
}
