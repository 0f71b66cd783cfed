/** Plain-words help texts shared by discovery messages. */

/** The "http" section to suggest (the token is a placeholder, never a real value). */
export const EXAMPLE_HTTP_SECTION =
	'"http": {"enabled": true, "host": "127.0.0.1", "port": 18088, "access-token": "…", "restricted": true}';

/** The command-line options to suggest. */
export const EXAMPLE_HTTP_FLAGS = '--http-port=18088 --http-access-token=…';

/** One sentence: how to turn XMRig's HTTP API on. */
export function enableApiHint(): string {
	return `Turn it on with ${EXAMPLE_HTTP_SECTION} in the miner's config, or start XMRig with ${EXAMPLE_HTTP_FLAGS}.`;
}

/** Several lines: how to turn the API on and point rigtop at it. */
export function enableApiHelp(): string[] {
	return [
		"To turn XMRig's HTTP API on, put this in the miner's config.json (any free port; choose your own token):",
		`  ${EXAMPLE_HTTP_SECTION}`,
		`or start XMRig with: ${EXAMPLE_HTTP_FLAGS}`,
		'Then run rigtop again on the same machine, or: rigtop http://HOST:18088 --token-file FILE',
	];
}
