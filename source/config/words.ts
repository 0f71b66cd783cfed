/**
 * What a config is said of: a miner or an xmrig-proxy. The config engine's messages are written of a miner ("takes
 * effect after the miner restarts", "the miner's config changed since rigtop read it", "could not save a backup of the
 * miner's config"), and so are the config view's own words ("back to the dashboard"); for a proxy every such text goes
 * through `wordsFor`, which says it of the proxy ("after the proxy restarts", "back to the proxy"). The config view
 * (`c` on the proxy screen), `rigtop config get|set` and the batch's rig results (`--rigs`, the fleet's config view)
 * all use this one table, so a new message written of "the miner" is said of the proxy without more code.
 */
export type ConfigSubject = 'miner' | 'proxy';

/** Each miner's phrase and the proxy's, in the order they are tried (the longer phrases first). */
export const PROXY_WORDING: readonly (readonly [RegExp, string])[] = [
	// Esc and q leave the config view for the screen it was opened from.
	[/\bback to the dashboard\b/g, 'back to the proxy'],
	// The title bar: "read from miner 12:07".
	[/\bfrom miner\b/g, 'from proxy'],
	// A config read that found no miner: "check that the address is an XMRig miner".
	[/\ban XMRig miner\b/g, 'an xmrig-proxy'],
	// The 415's fix names an HTTP proxy between rigtop and the miner: not the xmrig-proxy.
	[/\ba proxy sits\b/g, 'an HTTP proxy sits'],
	// "after the miner restarts", "the miner's API", "restart the miner", "this miner's config", "The miner's config…".
	[/\b([Tt]he|[Tt]his) miner\b/g, '$1 proxy'],
];

/** A JSON string as a message quotes a value (`"the miner"` as a pool's user): the config's words, never reworded. */
const JSON_STRING = /("(?:[^"\\\n]|\\.)*")/;

/** `text` said of what is configured: as written for a miner, reworded for a proxy (the values it quotes left as they are). */
export function wordsFor(subject: ConfigSubject, text: string): string {
	if (subject === 'miner') return text;
	return text
		.split(JSON_STRING)
		.map((part, index) => {
			// split() puts the quoted values at the odd indices.
			if (index % 2 === 1) return part;
			let said = part;
			for (const [phrase, proxy] of PROXY_WORDING) said = said.replace(phrase, proxy);
			return said;
		})
		.join('');
}
