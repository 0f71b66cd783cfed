import {createHash, timingSafeEqual} from 'node:crypto';

/**
 * Who may read the endpoint: the bearer token (--metrics-token-file) and the web config's basic_auth_users. Neither
 * the token, the passwords nor the hashes are ever written anywhere.
 *
 * A bcrypt comparison costs tens of milliseconds of CPU (cost 10), so a right user and password is remembered, keyed
 * by a SHA-256 of user, password and hash (as exporter-toolkit does), and a scrape every 15 s costs one comparison in
 * all. Comparisons run one at a time, so guesses cannot take more than one core's share, and at most 8 wait (more
 * are refused unchecked), so guesses cannot hold connections for long; an unknown user costs a comparison too, so
 * the answer's timing does not tell which users exist.
 */

export type Credentials = {
	/** The bearer token; null: none. */
	readonly token: string | null;
	/** User name → bcrypt hash; empty: no basic auth. */
	readonly users: Readonly<Record<string, string>>;
};

export type Authorizer = {
	/** Whether anything is asked for at all. */
	readonly required: boolean;
	/** The WWW-Authenticate challenges of a refusal. */
	readonly challenges: readonly string[];
	/** Whether the Authorization header is the token or a known user's password. */
	check(header: string | undefined): Promise<boolean>;
};

/** Comparisons waiting at most (one takes tens of milliseconds); a remembered password never waits. */
const MAX_PENDING = 8;

/** Remembered right answers; more are not kept (a handful of scrapers use one or two). */
const CACHE_SIZE = 64;

/** Compared against for an unknown user: a valid hash of cost 10 that no password given matters for. */
const DUMMY_HASH = '$2y$10$WduIIeVFiCls2587S3yq5eyfc9YXnlS3uAL4DHHX3TcN6vJAQtFTm';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export function createAuthorizer(credentials: Credentials): Authorizer {
	const token = credentials.token === null ? null : sha256(credentials.token);
	const users = new Map(Object.entries(credentials.users));
	const remembered = new Set<string>();
	let queue: Promise<unknown> = Promise.resolve();

	let pending = 0;
	const compare = async (password: string, hash: string): Promise<boolean> => {
		// A connection waiting for its comparison is being answered, so it keeps its slot (connections.ts): a flood of
		// guesses must not queue up for long. Past MAX_PENDING waiting, a password is refused unchecked.
		if (pending >= MAX_PENDING) return false;
		pending++;
		// bcryptjs loads on the first password given, never for an exporter without users.
		const run = queue.then(async () => {
			const {default: bcrypt} = await import('bcryptjs');
			return bcrypt.compare(password, hash).catch(() => false);
		});
		queue = run;
		return run.finally(() => pending--);
	};

	const basic = async (encoded: string): Promise<boolean> => {
		const decoded = Buffer.from(encoded, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon === -1) return false;
		const user = decoded.slice(0, colon);
		const password = decoded.slice(colon + 1);
		const hash = users.get(user);
		if (hash === undefined) {
			await compare(password, DUMMY_HASH);
			return false;
		}

		const key = sha256(`${user}\0${password}\0${hash}`).toString('hex');
		if (remembered.has(key)) return true;
		if (!(await compare(password, hash))) return false;
		if (remembered.size >= CACHE_SIZE) remembered.delete(remembered.values().next().value!);
		remembered.add(key);
		return true;
	};

	const challenges = [...(users.size > 0 ? ['Basic realm="rigtop", charset="UTF-8"'] : []), ...(token ? ['Bearer realm="rigtop"'] : [])];
	return {
		required: token !== null || users.size > 0,
		challenges,
		async check(header) {
			if (token === null && users.size === 0) return true;
			const match = /^(\S+)\s+(.+)$/.exec(header?.trim() ?? '');
			if (match === null) return false;
			const scheme = match[1]!.toLowerCase();
			const value = match[2]!.trim();
			if (scheme === 'bearer' && token !== null) return timingSafeEqual(sha256(value), token);
			if (scheme === 'basic' && users.size > 0) return basic(value);
			return false;
		},
	};
}
