/**
 * What the config view is configuring: a miner (opened from its dashboard) or an xmrig-proxy (opened with `c` on the
 * proxy screen). The view's own words and the config engine's messages it shows are written of a miner ("back to the
 * dashboard", "takes effect after the miner restarts", "the miner's config changed since rigtop read it"); for a proxy
 * every text the view draws goes through `wordsFor`, which says them of the proxy ("back to the proxy", "after the
 * proxy restarts"). One table, so a new message written of "the miner" is said of the proxy without more code.
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

/** `text` said of what is configured: as written for a miner, reworded for a proxy. */
export function wordsFor(subject: ConfigSubject, text: string): string {
	if (subject === 'miner') return text;
	let said = text;
	for (const [phrase, proxy] of PROXY_WORDING) said = said.replace(phrase, proxy);
	return said;
}
