/**
 * `rigtop config get [PATH]` and `rigtop config set PATH=VALUE [PATH=VALUE…]`: the scripted face of
 * the config engine (same conflict check, backup and verification as the config view). The miner
 * comes from --url / --config / discovery and the token from --token-file / RIGTOP_TOKEN / --token,
 * like the dashboard; exactly one miner. Results go to stdout, problems to stderr; never a stack
 * trace, never the token.
 */
import {appliedEvent, type ApplyResult} from '../../config/apply.js';
import {configGet, configSet, type ScriptedResult} from '../../config/scripted.js';
import {wordsFor, type ConfigSubject} from '../../config/words.js';
import {borrowedTokenLine, borrowedTokenOf} from '../../discovery/borrowed-token.js';
import {formatNoneFound} from '../../discovery/where.js';
import {MinerClient} from '../../miner/client.js';
import type {MinerSnapshot} from '../../miner/model.js';
import {UsageError} from '../../session/errors.js';
import {findTargets, type DiscoveryPlaces, type TargetOptions} from '../../session/targets.js';
import {whereResult} from '../../session/build.js';
import {readRigsFile, type RigEntry} from '../../session/rigs-file.js';
import type {Command} from '../command.js';
import {jsonText} from '../../text/json-out.js';

export type ConfigCommandOptions = TargetOptions & {
	/** URL arguments and --url values, as typed. */
	readonly urls: readonly string[];
	/** --yes: confirms a change that can cut rigtop off from the miner's API. */
	readonly yes: boolean;
	/** --add: config set may add keys the miner's config does not have. */
	readonly add?: boolean;
	/** --read-only: `set` is refused. */
	readonly readOnly: boolean;
	// ---- optional, for tests and embedding ----
	readonly stdout?: {write(text: string): unknown};
	readonly stderr?: {write(text: string): unknown};
	/** Default $XDG_STATE_HOME/rigtop/backups. */
	readonly backupDir?: string;
	readonly verifyTimeoutMs?: number;
	readonly verifyIntervalMs?: number;
	/** Where discovery looks (process table, home, passwd), for tests. */
	readonly discovery?: DiscoveryPlaces;
	/** false (--no-history): an apply is not recorded in the history store. Default true. */
	readonly history?: boolean;
	/** The history store's file (default $XDG_STATE_HOME/rigtop/history.sqlite). */
	readonly historyFile?: string;
	/** --rigs FILE: a word naming one of its rigs is that rig (`config get cpu rig-01 --rigs FILE`). */
	readonly rigsFile?: string | undefined;
};

export const CONFIG_USAGE = [
	'Usage',
	'  $ rigtop config get [PATH] [URL]           print the config (secrets masked), or the value at PATH',
	'  $ rigtop config set PATH=VALUE… [URL]      change keys: conflict check, backup, apply, read back',
	'',
	'  PATH is dotted: cpu.huge-pages, pools.0.tls, randomx.mode. VALUE is JSON (true, 30, null, "x")',
	'  or plain text (fast, pool.example.org:3333). The miner: URL, --url, --config or the local XMRig;',
	'  the token: --token-file or RIGTOP_TOKEN. --yes confirms a change to the API settings (http.*, api.*).',
	"  A PATH the miner's config does not have is refused (with the closest keys); --add adds it on purpose.",
	'',
	'  Exit codes: 0 done (every change applied), 1 not (the reason is printed), 2 bad usage.',
];

type Parsed =
	| {readonly kind: 'get'; readonly path: string | undefined; readonly urls: readonly string[]}
	| {readonly kind: 'set'; readonly assignments: readonly string[]; readonly urls: readonly string[]};

/** A word that is a miner address rather than a PATH or PATH=VALUE: has :// or ends in :port. */
function looksLikeAddress(word: string): boolean {
	return word.includes('://') || /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(word);
}

function parse(argv: readonly string[]): Parsed | string {
	const words = argv[0] === 'config' ? argv.slice(1) : [...argv];
	const [command, ...rest] = words;
	// An address may follow the command (`rigtop config get 127.0.0.1:18088`), like the dashboard's URL argument.
	const urls = rest.filter((word) => !word.includes('=') && looksLikeAddress(word));
	const args = rest.filter((word) => !urls.includes(word));
	if (command === 'get') {
		if (args.length > 1) return `config get takes one PATH at most (got ${args.length})`;
		return {kind: 'get', path: args[0], urls};
	}

	if (command === 'set') {
		if (args.length === 0) return 'config set needs at least one PATH=VALUE, e.g. rigtop config set cpu.huge-pages=false';
		const bad = args.find((word) => !word.includes('='));
		if (bad !== undefined) return `config set takes PATH=VALUE arguments, not ${jsonText(bad.slice(0, 60))}`;
		return {kind: 'set', assignments: args, urls};
	}

	return command === undefined ? 'config needs get or set' : `unknown config command ${jsonText(command.slice(0, 30))}: use get or set`;
}

function print(stream: {write(text: string): unknown}, lines: readonly string[]): void {
	if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
}

/**
 * Who the miner is, read as a set starts, alongside its own reads: before the apply can change `api.id` or move the
 * API, so the event goes to the miner the change was made to. Null when it does not answer (the event then goes to
 * the miner last seen at the URL).
 */
async function readIdentity(client: MinerClient): Promise<MinerSnapshot | null> {
	try {
		const {MinerReader} = await import('../../miner/reader.js');
		return await new MinerReader(client).read(AbortSignal.timeout(3000), {perThread: false});
	} catch {
		return null;
	}
}

/**
 * Records an apply in the history store as the config view does (the same event, this process its writer), under the
 * miner's identity: `rigtop history`, and the event view and chart of any rigtop watching the miner, show it. Loaded
 * only when an apply was tried; a store that cannot be used says so in one line and changes nothing of the outcome.
 */
async function recordApply(
	result: ApplyResult,
	subject: ConfigSubject,
	snapshot: MinerSnapshot | null,
	url: string,
	token: string | null,
	file: string | undefined,
	warn: (line: string) => void,
): Promise<void> {
	const [{recordActionEvent}, {defaultStoreFile}] = await Promise.all([
		import('../../history/action-event.js'),
		import('../../history/attach.js'),
	]);
	const at = Date.now();
	const event = appliedEvent(result, 'apply');
	try {
		recordActionEvent({
			file: file ?? defaultStoreFile(),
			url,
			snapshot,
			at,
			severity: event.severity,
			text: wordsFor(subject, event.text),
			secrets: token === null ? [] : [token],
			notify: warn,
		});
	} catch (error) {
		warn(`the apply was not recorded in the history: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** The config command's plan: the words after `config` (get or set, then PATHs and addresses) and its options. */
export type ConfigPlan = ConfigCommandOptions & {readonly words: readonly string[]};

export const run: Command<ConfigPlan> = async ({words, ...options}) => runConfigCommand(words, options);

/** Runs `rigtop config …`; resolves to the exit code. */
export async function runConfigCommand(argv: readonly string[], options: ConfigCommandOptions): Promise<number> {
	const stdout = options.stdout ?? process.stdout;
	const stderr = options.stderr ?? process.stderr;
	const fail = (code: number, ...lines: string[]) => {
		print(
			stderr,
			lines.map((line, index) => (index === 0 ? `rigtop: ${line}` : line)),
		);
		return code;
	};

	// With --rigs, a word that names one of its rigs is that rig (session/build.ts, namedRigs), not a PATH.
	let rigs: readonly RigEntry[] = [];
	try {
		if (options.rigsFile !== undefined) rigs = await readRigsFile(options.rigsFile);
	} catch (error) {
		if (error instanceof UsageError) return fail(2, error.message);
		throw error;
	}

	const names = new Set(rigs.flatMap((rig) => (rig.name === undefined ? [] : [rig.name])));
	const named = argv.filter((word, index) => index > 0 && names.has(word));
	const parsed = parse(argv.filter((word, index) => index === 0 || !names.has(word)));
	if (typeof parsed === 'string') {
		print(stderr, [`rigtop: ${parsed}`, '', ...CONFIG_USAGE]);
		return 2;
	}

	if (parsed.kind === 'set' && options.readOnly) {
		return fail(1, 'config set would write, but --read-only turns every write off; nothing was sent');
	}

	const urls = [...options.urls, ...parsed.urls];
	let client: MinerClient | null = null;
	try {
		// The file's rigs only when a word names one of them (or no address is given: the file's one rig); an address
		// given with --rigs is that miner alone.
		const result =
			options.rigsFile === undefined || (named.length === 0 && urls.length > 0)
				? await findTargets(options, urls, options.discovery)
				: await whereResult({
						tokenFile: options.tokenFile,
						tokenEnv: options.tokenEnv,
						tokenFlag: options.tokenFlag,
						configPath: options.configPath,
						mode: 'where',
						urls: [...named, ...urls],
						demo: false,
						rigsFile: options.rigsFile,
						intervalMs: 0,
						pausedAlertMs: 0,
						history: false,
					});
		if (result.targets.length === 0) {
			print(stderr, formatNoneFound(result));
			return 1;
		}

		if (result.targets.length > 1) {
			return fail(
				2,
				`config works on one miner at a time, and ${result.targets.length} were found: ${result.targets.map((target) => target.url).join(', ')}`,
				'give the one to use with --url (or as the URL argument)',
			);
		}

		for (const line of [...result.warnings, ...result.problems]) print(stderr, [`rigtop: ${line}`]);
		const [target] = result.targets;
		if (!target) return 1;
		client = new MinerClient({url: target.url, token: target.token});
		const tokenGiven = target.token !== null;
		let outcome: ScriptedResult;
		let identity: Promise<MinerSnapshot | null> | null = null;
		// An xmrig-proxy by the process found or the rigs file is said so from the start; else its config or summary says.
		const known = target.kind === undefined ? {} : {subject: target.kind};
		if (parsed.kind === 'get') {
			outcome = await configGet({client, tokenGiven, ...known, ...(parsed.path === undefined ? {} : {path: parsed.path})});
		} else {
			// A token the user did not give (a running miner's): said before the write, whatever --yes says.
			const whose = borrowedTokenOf(target);
			if (whose !== null) print(stderr, [`rigtop: ${borrowedTokenLine(whose)}`]);
			identity = options.history === false ? null : readIdentity(client);
			outcome = await configSet({
				client,
				tokenGiven,
				...known,
				assignments: parsed.assignments,
				confirmApiChanges: options.yes,
				confirmFlag: '--yes',
				addKeys: options.add === true,
				addFlag: '--add',
				...(options.backupDir === undefined ? {} : {backupDir: options.backupDir}),
				...(options.verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs: options.verifyTimeoutMs}),
				...(options.verifyIntervalMs === undefined ? {} : {verifyIntervalMs: options.verifyIntervalMs}),
			});
		}

		// An apply that stopped before its PUT (the config could not be read, or its backup not saved) changed nothing
		// on the miner: nothing to record, and a store in the same unusable folder would only say so a second time.
		const sentNothing = outcome.applied?.status === 'failed' && outcome.applied.stage !== 'put';
		if (outcome.applied && !sentNothing && options.history !== false) {
			const snapshot = identity === null ? null : await identity;
			await recordApply(outcome.applied, outcome.subject, snapshot, target.url, target.token, options.historyFile, (line) =>
				print(stderr, [`rigtop: ${line}`]),
			);
		}

		if (outcome.exitCode === 0) print(stdout, outcome.lines);
		else fail(outcome.exitCode, ...outcome.lines);
		return outcome.exitCode;
	} catch (error) {
		// Never a stack trace: one line (messages never hold the token).
		const message = error instanceof Error ? error.message : String(error);
		return fail(error instanceof UsageError ? 2 : 1, message);
	} finally {
		await client?.close();
	}
}
