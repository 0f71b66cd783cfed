/**
 * What the dashboard's reducer and its availability both read: the state the dashboard owns, the env it reads at each
 * dispatch, and the facts in that env which decide its keys.
 */
import type {MinerSnapshot} from '../../../miner/model.js';
import type {LinkStatus, MonitorState} from '../../../monitor/types.js';
import type {ThreadSort} from '../../panes/thread-order.js';

/** What of the miner's state decides its keys: whether it answers, and what it says it is (abilities.ts). */
export type MinerFacts = {
	readonly status: LinkStatus;
	readonly snapshot: Pick<MinerSnapshot, 'kind' | 'version' | 'dialect' | 'restricted' | 'paused'> | null;
};

/** The actions the app gave the dashboard (its callbacks): a key whose action was not given is not offered. */
export type Given = {
	readonly config: boolean;
	readonly pause: boolean;
	readonly resume: boolean;
	readonly refresh: boolean;
	/** Back to the fleet (Esc). */
	readonly back: boolean;
	readonly interval: boolean;
	readonly chart: boolean;
	readonly events: boolean;
};

/**
 * The threads pane: not on screen (a short terminal: its keys say so), on screen with every row shown (its sort keys
 * work, its scroll keys are not offered), or on screen with more rows than fit (they scroll).
 */
export type ThreadsShown = 'hidden' | 'fits' | 'scrolls';

/** What decides the dashboard's own keys (the rest of its env is sizes and the interval, which no key's offer reads). */
export type KeyFacts = {
	readonly miner: MinerFacts;
	readonly given: Given;
	/** --read-only: no pause, resume or config change is sent. */
	readonly readOnly: boolean;
	/** Whether rigtop sends this miner an access token. */
	readonly tokenGiven: boolean;
	readonly threads: ThreadsShown;
};

/** One line in the footer's place: why a key did nothing (warn), or a question. */
export type DashboardMessage = {readonly text: string; readonly tone: 'warn' | 'info'};

/** The moment `f` holds on screen: the miner's state (its last share with it), and the clock then (epoch ms). */
export type FrozenMoment = {readonly state: MonitorState; readonly at: number};

/** What the dashboard owns: its help, its scroll, its sort, what its last key said and the question it asks. */
export type DashboardState = {
	readonly help: boolean;
	/** The first help entry shown (at most the env's helpMax: helpOffsetOf). */
	readonly helpOffset: number;
	/** Index of the first thread row shown (at most what the env's page leaves: threadsOffsetOf). */
	readonly threadsOffset: number;
	/** The column the threads are sorted by (s cycles it, I reverses it). */
	readonly threadSort: ThreadSort;
	/** What the last key said; cleared by the next key (or after a few seconds, by the view). */
	readonly message: DashboardMessage | null;
	/** A question waiting for its answer: p asks before pausing (y pauses, any other key does not). */
	/** A question waiting for y: pause always; resume when the token is not the user's (tokenFrom). */
	readonly asking: 'pause' | 'resume' | null;
	/** f holds the display still at this moment while the polls go on; null shows the present. */
	readonly frozen: FrozenMoment | null;
};

/**
 * Everything the dashboard reads but does not own, as the frame on screen has it, passed at each dispatch: the
 * miner's facts, what the app gave, the mode (availability.ts's KeyFacts), and the sizes and the interval.
 */
export type DashboardEnv = KeyFacts & {
	/** Below the smallest size the screens serve: only the ways out work. */
	readonly tooSmall: boolean;
	/** How many thread rows fit in the pane now, and how many threads there are. */
	readonly pageSize: number;
	readonly threadCount: number;
	/** How far the help can scroll in its frame (helpMaxOffset). */
	readonly helpMax: number;
	/** The session's poll interval (ms), where it can be changed: + and - stop at the ends of its steps. */
	readonly intervalMs: number | null;
	/** The moment now, as f would hold it: the monitor's state and the clock (fixed, or the live one). */
	readonly moment: () => FrozenMoment;
	/** Whose token a write sends when the user gave none (a running process's), said in the question before it; null: given. */
	readonly tokenFrom?: string | null;
};
