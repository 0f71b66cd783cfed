/**
 * How rigtop names a miner, in one place: the monitor (and so the screens, the alerts and --once, which polls through
 * it), the history store and the exporter take a miner's name and address from here.
 */

/**
 * A rig's name, the one rule the history store, the exporter's `miner` label, the batch results and the commands that
 * take a rig follow: the rigs file's name, else host:port. Never the worker id, which a miner changes at will and which
 * many miners of one machine share (XMRig's default is the host name): it is shown beside the name, never instead.
 */
export function rigName(configured: string | undefined | null, url: string): string {
	const trimmed = configured?.trim();
	return trimmed === undefined || trimmed === '' ? hostPort(url) : trimmed;
}

/**
 * The worker id to show beside a rig's name (never instead of it): the miner's own, once known, where it is not the name
 * already; null otherwise.
 */
export function workerBeside(name: string, workerId: string | null | undefined): string | null {
	const trimmed = workerId?.trim();
	return trimmed === undefined || trimmed === '' || trimmed === name ? null : trimmed;
}

/** A rig's name with its worker id beside it, as the live screens and --once say it: '127.0.0.1:18081 (rig-01)'. */
export function nameWithWorker(name: string, workerId: string | null | undefined): string {
	const worker = workerBeside(name, workerId);
	return worker === null ? name : `${name} (${worker})`;
}

/**
 * A pure function of a URL's text, kept by that text: the monitor names its miner at every poll, and `new URL()` was
 * 1.4 ms a second of a fleet of 100 (docs/performance.md). A session has few addresses; past 1,024 the memo starts
 * again, so it never grows without bound.
 */
function memoByUrl(compute: (url: string) => string): (url: string) => string {
	const known = new Map<string, string>();
	return (url) => {
		let value = known.get(url);
		if (value === undefined) {
			if (known.size >= 1024) known.clear();
			value = compute(url);
			known.set(url, value);
		}

		return value;
	};
}

/** 'http://127.0.0.1:8080' → '127.0.0.1:8080' ('[::1]:8080' for IPv6); the input itself when it is no URL. */
export const hostPort = memoByUrl((url) => {
	try {
		const parsed = new URL(url);
		if (parsed.host === '') return url;
		if (parsed.port !== '') return parsed.host;
		const port = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '';
		return port === '' ? parsed.host : `${parsed.host}:${port}`;
	} catch {
		return url;
	}
});

/**
 * The host of a miner's address, without its port ('[::1]' kept bracketed): the machine it runs on, whichever port it
 * listens on (the history store's identity rules, history/writer.ts).
 */
export function hostOf(url: string): string {
	const address = hostPort(url);
	const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(address);
	return match?.[1] ?? address;
}

/** The URL with any user:password part removed, so it is safe to show. */
export const withoutCredentials = memoByUrl((url) => {
	try {
		const parsed = new URL(url);
		if (parsed.username === '' && parsed.password === '') return url;
		parsed.username = '';
		parsed.password = '';
		const text = parsed.toString();
		return parsed.pathname === '/' && !url.endsWith('/') && text.endsWith('/') ? text.slice(0, -1) : text;
	} catch {
		return url;
	}
});
