/**
 * A hashrate as the model holds it, for a miner's windows (model.ts) and an xmrig-proxy's (proxy-model.ts) alike: both
 * import it from here, so neither imports the other (model.ts re-exports both).
 */

/** A hashrate in H/s, or null while its window has not filled (or the miner did not report it). */
export type Rate = number | null;
