/** The shapes discovery hands to the CLI: where each miner is, its token, and where each came from. */

export type SourceKind = 'flag' | 'env' | 'config-file' | 'rigs-file' | 'process' | 'default';

/** Where a setting came from, for `--where`, e.g. {kind: 'process', detail: 'process 1234 (xmrig -c /opt/xmrig/config.json), listening on 127.0.0.1:18088'}. */
export type Source = {
	readonly kind: SourceKind;
	/** Plain words; never holds the token. */
	readonly detail: string;
	/**
	 * A token a running process holds (its command line, or the config file it runs with): the user did not give it, so
	 * a write with it says so first (borrowed-token.ts). Not one of a file the user named (`--config`, a rigs file).
	 */
	readonly borrowed?: true;
};

export type Target = {
	/** Base URL without credentials, `http://127.0.0.1:18088`. */
	readonly url: string;
	/** The access token to send, or null for none. Never print it. */
	readonly token: string | null;
	readonly name?: string;
	/** 'proxy': an xmrig-proxy (its process's program, or the --rigs file says so); absent: a miner, or not known. */
	readonly kind?: 'miner' | 'proxy';
	readonly provenance: {readonly url: Source; readonly token: Source | null};
	/**
	 * The warnings and problems found about this miner in particular (its process, its config, its token going out in
	 * clear); they are in the result's warnings and problems too. Those about no miner in particular are there alone.
	 */
	readonly notes?: readonly string[];
	/** Why no token is sent although there was one to send (a process that is not the user's: lending.ts). */
	readonly tokenRefused?: string;
};

export type DiscoveryResult = {
	readonly targets: readonly Target[];
	/** Things to tell the user even though rigtop can go on (token hygiene, guesses). */
	readonly warnings: readonly string[];
	/** What was looked at, for the "no miner found" message. */
	readonly lookedAt: readonly string[];
	/** Why a miner could not be used (API off, token states, unreadable files), in plain words. */
	readonly problems: readonly string[];
};

export type DiscoveryInput = {
	/** The URL argument(s) and --url values, as typed (`host:port`, `http://host:port`, `[::1]:18088`). */
	readonly urls?: readonly string[];
	/** --token-file PATH. */
	readonly tokenFile?: string;
	/** The value of RIGTOP_TOKEN (an empty value counts as unset). */
	readonly tokenEnv?: string;
	/** --token VALUE. */
	readonly tokenFlag?: string;
	/** --config / -c PATH: the miner's own config file. */
	readonly configPath?: string;
	/** Default '/proc'. */
	readonly procRoot?: string;
	/** Home directory of the user running rigtop (for ~/.xmrig.json); default os.homedir(). */
	readonly homeDir?: string;
	/** Where relative --config and --token-file paths start; default process.cwd(). */
	readonly cwd?: string;
	/** /etc/passwd, to find the home directory of a miner's owner; default '/etc/passwd'. */
	readonly passwdPath?: string;
	/** rigtop's own pid, left out of the process scan; default process.pid. */
	readonly selfPid?: number;
	/** The uid running rigtop, whose processes get the user's token; default process.geteuid(). */
	readonly selfUid?: number | null;
};
