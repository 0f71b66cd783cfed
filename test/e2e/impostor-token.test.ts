/**
 * No token for a stranger's process (issue 36, item 2): real processes on loopback ports, some run as `nobody` with
 * setpriv, whose command line says xmrig (`exec -a xmrig node fake-xmrig.cjs …`); each records the Authorization
 * header of every request it gets. The built CLI finds them in the real /proc (`--once`, `--where`, no address given)
 * and must send the user's token, or a config file's, only where the rule says (source/discovery/lending.ts).
 * Starting a process as another user needs root and setpriv; without them these tests are skipped, and say so.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer, type AddressInfo, type Server} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runCli} from './helpers/cli.js';
import {cliIsBuilt} from './helpers/tmux.js';

const NOBODY = 65_534;
const SETPRIV = '/usr/bin/setpriv';
/** The user's token: this run's own, so another lane's processes never hold it. */
const USER_TOKEN = `users-own-token-36-${process.pid}`;
const ROOT_SECRET = 'root-only-secret-36';
const CLI_TOKEN = 'its-own-cli-token-36';
const NAMES = ['stranger', 'secret', 'dedicated', 'root', 'cli', 'grab', 'container'] as const;
type Name = (typeof NAMES)[number];
/**
 * Each fake's port, free ones taken at start: the suite runs in each Node's e2e lane at once, and discovery sees every
 * lane's processes, so neither ports nor tokens are fixed (the container's port is the grabber's, on purpose).
 */
const PORTS = {} as Record<Name, number>;

/** Loopback ports free now, one per name but the container's (the grabber's). */
async function freePorts(): Promise<void> {
	const servers = await Promise.all(
		NAMES.filter((name) => name !== 'container').map(
			(name) =>
				new Promise<[Name, Server]>((resolve, reject) => {
					const server = createServer();
					server.once('error', reject);
					server.listen(0, '127.0.0.1', () => resolve([name, server]));
				}),
		),
	);
	for (const [name, server] of servers) PORTS[name] = (server.address() as AddressInfo).port;
	PORTS.container = PORTS.grab;
	await Promise.all(servers.map(([, server]) => new Promise((resolve) => server.close(resolve))));
}

/** A node binary `nobody` may run (the tests' own may sit in root's home), or null. */
function nobodysNode(): string | null {
	if (process.geteuid?.() !== 0 || !existsSync(SETPRIV)) return null;
	for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', process.execPath]) {
		const argv = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', candidate, '-p', 'process.getuid()'];
		const ran = spawnSync(SETPRIV, argv, {timeout: 10_000, encoding: 'utf8'});
		if (ran.stdout?.trim() === String(NOBODY)) return candidate;
	}
	return null;
}

const node = nobodysNode();
const canSwitchUser = node !== null;
if (!canSwitchUser) console.warn('impostor-token.test.ts skipped: it needs root and /usr/bin/setpriv to start processes as nobody');
/** Whether a process can be started in a network namespace of its own (`unshare -n`, root only). */
const canUnshare = canSwitchUser && spawnSync('unshare', ['-n', 'true'], {timeout: 10_000}).status === 0;
if (canSwitchUser && !canUnshare) console.warn('impostor-token.test.ts: the network-namespace test is skipped: unshare -n failed');

/**
 * A tiny HTTP server that says it is xmrig and records each request's Authorization header (or "none"). Its port comes
 * from the environment: an --http-* option would replace a config file's whole "http" section, as in XMRig.
 */
const FAKE_XMRIG = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer((request, response) => {
	fs.appendFileSync(process.env.FAKE_XMRIG_LOG, 'auth=' + (request.headers.authorization ?? 'none') + '\\n');
	response.writeHead(401, {'Content-Type': 'application/json'});
	response.end('{"error": "Unauthorized"}');
}).listen(Number(process.env.FAKE_XMRIG_PORT), process.env.FAKE_XMRIG_HOST, () => fs.appendFileSync(process.env.FAKE_XMRIG_LOG, 'ready\\n'));
`;

let dir = '';
const children = new Map<Name, ChildProcess>();

function logOf(name: Name): string {
	return path.join(dir, `${name}.log`);
}

/** The Authorization headers `name` received since its log was last cleared. */
function received(name: Name): string[] {
	return readFileSync(logOf(name), 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('auth='));
}

function clearLogs(): void {
	for (const name of NAMES) writeFileSync(logOf(name), '');
}

/** Resolves once the server has written its "ready" line (it listens). */
async function ready(name: Name): Promise<void> {
	const deadline = Date.now() + 15_000;
	while (!readFileSync(logOf(name), 'utf8').includes('ready\n')) {
		if (Date.now() > deadline) throw new Error(`${name} does not listen on ${PORTS[name]}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

type Start = {
	readonly asNobody: boolean;
	readonly options?: readonly string[];
	/** Its argv[0]; default "xmrig" (no name: plain node, which discovery does not take for a miner). */
	readonly name?: string | null;
	/** In a network namespace of its own, listening on 0.0.0.0 there. */
	readonly ownNetwork?: boolean;
};

/** Starts the fake xmrig as `nobody` (or as root) on its port, with these options; resolves once it listens. */
async function start(name: Name, how: Start): Promise<void> {
	const log = logOf(name);
	writeFileSync(log, '');
	chmodSync(log, 0o644);
	if (how.asNobody) chownSync(log, NOBODY, NOBODY);
	const argv0 = how.name === undefined ? 'xmrig' : how.name;
	const script = argv0 === null ? 'exec "$0" "$@"' : `exec -a ${argv0} "$0" "$@"`;
	const command = [node!, path.join(dir, 'fake-xmrig.cjs'), ...(how.options ?? [])];
	const user = how.asNobody ? [SETPRIV, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
	const argv = [...(how.ownNetwork === true ? ['unshare', '-n'] : []), ...user, 'bash', '-c', script, ...command];
	const host = how.ownNetwork === true ? '0.0.0.0' : '127.0.0.1';
	const child = spawn(argv[0]!, argv.slice(1), {
		cwd: dir,
		stdio: 'ignore',
		env: {...process.env, FAKE_XMRIG_LOG: log, FAKE_XMRIG_PORT: String(PORTS[name]), FAKE_XMRIG_HOST: host},
	});
	children.set(name, child);
	await ready(name);
}

async function rigtop(args: readonly string[]): Promise<{code: number; stdout: string; stderr: string}> {
	// A home of its own, so no real config or token file of this machine's user is read.
	const env = {HOME: dir, XDG_STATE_HOME: path.join(dir, 'state'), XDG_CONFIG_HOME: path.join(dir, 'config')};
	const result = await runCli(args, {env, unset: ['CI', 'RIGTOP_TOKEN'], cwd: dir, timeout: 60_000});
	for (const secret of [USER_TOKEN, ROOT_SECRET, CLI_TOKEN]) expect(result.stdout + result.stderr).not.toContain(secret);
	return result;
}

function config(file: string, token: string, port: number): void {
	const body = {http: {enabled: true, host: '127.0.0.1', port, 'access-token': token}, pools: [{url: 'pool.example.org:3333', user: 'x'}]};
	writeFileSync(file, JSON.stringify(body));
}

describe.skipIf(!canSwitchUser)('a token for a stranger’s process (skipped unless root with setpriv)', () => {
	const secretPath = () => path.join(dir, 'secret.json');
	const ownPath = () => path.join(dir, 'own.json');

	beforeAll(async () => {
		if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
		await freePorts();
		dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-impostor-'));
		chmodSync(dir, 0o755);
		writeFileSync(path.join(dir, 'fake-xmrig.cjs'), FAKE_XMRIG, {mode: 0o644});
		writeFileSync(path.join(dir, 'tok.txt'), `${USER_TOKEN}\n`, {mode: 0o600});
		// Another miner's config: root's alone.
		config(secretPath(), ROOT_SECRET, PORTS.secret);
		chmodSync(secretPath(), 0o600);
		// The dedicated user's own config, readable by it alone, holding the user's token.
		config(ownPath(), USER_TOKEN, PORTS.dedicated);
		chmodSync(ownPath(), 0o600);
		chownSync(ownPath(), NOBODY, NOBODY);
		await Promise.all([
			start('stranger', {asNobody: true, options: [`--http-port=${PORTS.stranger}`]}),
			start('secret', {asNobody: true, options: [`--config=${secretPath()}`]}),
			start('dedicated', {asNobody: true, options: ['-c', ownPath()]}),
			start('root', {asNobody: false, options: [`--http-port=${PORTS.root}`]}),
			start('cli', {asNobody: true, options: [`--http-port=${PORTS.cli}`, `--http-access-token=${CLI_TOKEN}`]}),
		]);
		if (canUnshare) {
			// A stranger's plain program on this machine's loopback, and a root miner on the same port in a namespace of its own.
			await start('grab', {asNobody: true, name: null});
			await start('container', {asNobody: false, options: [`--http-port=${PORTS.container}`], ownNetwork: true});
		}
	}, 60_000);

	afterAll(() => {
		for (const child of children.values()) child.kill();
		if (dir !== '') rmSync(dir, {recursive: true, force: true});
	});

	it('(a) --once --token-file: a stranger’s process gets no Authorization header, and rigtop says why', async () => {
		clearLogs();
		const result = await rigtop(['--once', '--token-file', 'tok.txt']);
		expect(received('stranger').length).toBeGreaterThan(0);
		expect(received('stranger')).toEqual(received('stranger').map(() => 'auth=none'));
		const pid = children.get('stranger')?.pid;
		expect(result.stderr).toContain(`process ${pid} of user nobody listens on :${PORTS.stranger}; not sending your token`);
		// And under that miner's 401, as its fix, with how to send it anyway.
		expect(result.stdout.replaceAll(/\s+/g, ' ')).toContain(
			`process ${pid} of user nobody listens on :${PORTS.stranger}; not sending your token; to send it anyway, give the address with it: rigtop 127.0.0.1:${PORTS.stranger} --token-file FILE`,
		);
		// Another user's own command-line token is not the user's either (its own may reach it from another lane's run).
		expect(received('cli').length).toBeGreaterThan(0);
		expect(received('cli')).not.toContain(`auth=Bearer ${USER_TOKEN}`);
		const where = await rigtop(['--where', '--token-file', 'tok.txt']);
		expect(where.stdout).toContain(
			`    token    not sent: process ${pid} of user nobody listens on :${PORTS.stranger}; not sending your token`,
		);
	});

	it('(b) --once: a stranger naming a root-only --config gets nothing from it', async () => {
		clearLogs();
		const result = await rigtop(['--once']);
		expect(received('secret').length).toBeGreaterThan(0);
		expect(received('secret').every((line) => line === 'auth=none')).toBe(true);
		const pid = children.get('secret')?.pid;
		expect(result.stderr).toContain(
			`process ${pid} of user nobody names ${secretPath()}, which its user cannot read; not lending the token in it`,
		);
		// Nor with its address given and no token.
		clearLogs();
		await rigtop(['--once', `127.0.0.1:${PORTS.secret}`]);
		expect(received('secret').length).toBeGreaterThan(0);
		expect(received('secret').every((line) => line === 'auth=none')).toBe(true);
	});

	it('(c) a miner of a dedicated user whose own readable config holds the same token gets the user’s token; the stranger does not', async () => {
		clearLogs();
		await rigtop(['--once', '--token-file', 'tok.txt']);
		expect(received('dedicated')).toContain(`auth=Bearer ${USER_TOKEN}`);
		expect(received('stranger').length).toBeGreaterThan(0);
		expect(received('stranger').every((line) => line === 'auth=none')).toBe(true);
	});

	it('(d) a miner of the user running rigtop (root here) gets the user’s token as before; the stranger does not', async () => {
		clearLogs();
		await rigtop(['--once', '--token-file', 'tok.txt']);
		expect(received('root')).toContain(`auth=Bearer ${USER_TOKEN}`);
		expect(received('stranger').every((line) => line === 'auth=none')).toBe(true);
		expect(received('stranger').length).toBeGreaterThan(0);
	});

	it('(e) a token on a process’s own command line is lent to it, and a root-only config’s to no stranger', async () => {
		clearLogs();
		await rigtop(['--once']);
		expect(received('cli')).toContain(`auth=Bearer ${CLI_TOKEN}`);
		// Its own readable config's token, too.
		expect(received('dedicated')).toContain(`auth=Bearer ${USER_TOKEN}`);
		expect(received('secret').length).toBeGreaterThan(0);
		expect(received('secret').every((line) => line === 'auth=none')).toBe(true);
	});

	it.skipIf(!canUnshare)(
		'a miner in another network namespace: its loopback port here is someone else’s, so no token goes there',
		async () => {
			clearLogs();
			const result = await rigtop(['--once', '--token-file', 'tok.txt']);
			expect(received('grab').length).toBeGreaterThan(0);
			expect(received('grab').every((line) => line === 'auth=none')).toBe(true);
			expect(result.stderr).toContain(
				`process ${children.get('container')?.pid} listens on :${PORTS.container} in another network namespace (a container?), not where rigtop connects; not sending your token`,
			);
		},
	);

	it('an address and a token both given: sent there, whoever listens (the user named both)', async () => {
		clearLogs();
		await rigtop(['--once', `127.0.0.1:${PORTS.stranger}`, '--token-file', 'tok.txt']);
		expect(received('stranger')).toContain(`auth=Bearer ${USER_TOKEN}`);
	});
});
