/**
 * The rate a watched program is judged and sampled by: a miner's 10 s window; an xmrig-proxy's 1 min one, its
 * freshest (a proxy has no 10 s window: its generic windows are [null, 1 min, null]). The drop detector, the recent
 * samples and the hour's reference all read it here, so a proxy is watched like a miner on the rate it has.
 */
import type {MinerSnapshot, Rate} from '../miner/model.js';

export function watchedRate(snapshot: MinerSnapshot): Rate {
	return snapshot.proxy === null ? snapshot.hashrate.total[0] : snapshot.proxy.hashrate[0];
}

/** The watched rate's window in words: "10s", or "1m" for a proxy. */
export function watchedWindow(snapshot: MinerSnapshot): '10s' | '1m' {
	return snapshot.proxy === null ? '10s' : '1m';
}
