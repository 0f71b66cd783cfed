/**
 * Claims: which rigtop sharing the store tells a trouble (docs/notify-delivery.md). A trouble is a rig (its URL and a
 * proxy's worker), a trouble kind and since when; two rigtops see the same happening at slightly different times (they
 * poll at different moments), so a claim of the same rig and trouble whose `since` lies within SAME_HAPPENING_MS of
 * another's is the same one, unless it ended before the other began. The first rigtop to claim it in a transaction
 * holds it and sends its notices; the others do not. The holder keeps a lease while it runs; a holder whose lease ran
 * out (or whose process is gone) is taken over, so the trouble's resolved notice is still sent.
 */
import type {Notice, RigRef} from '../types.js';
import type {OutboxDb} from './db.js';

/** Two rigtops' `since` of one happening differ by at most their poll intervals and the group window. */
export const SAME_HAPPENING_MS = 60_000;

/** The rig's key in the claims: the same in every rigtop watching it (no name: names differ between rigs files). */
export function rigKey(ref: RigRef): string {
	return ref.worker === undefined ? ref.url : `${ref.url}#worker=${ref.worker}`;
}

type ClaimRow = {id: number; holder: string; lease: number; ended: number | null};

export type ClaimContext = {
	readonly db: OutboxDb;
	/** This rigtop's writer id. */
	readonly me: string;
	readonly now: number;
	readonly leaseMs: number;
	/** Whether a writer (another rigtop) is gone: its lease ran out or its process is dead. */
	readonly dead: (writer: string) => boolean;
};

/**
 * Claims each trouble of a notice's rigs for one channel (call inside a write transaction). True when this rigtop
 * sends the notice there: at least one of its rigs is this rigtop's to tell on that channel. Claims are per channel
 * (its id): two rigtops sharing the store with the same channel tell it once; a rigtop with a channel the other has
 * not tells its own. A test and a collapsed notice (recovery decided) claim nothing.
 */
export function claimNotice(context: ClaimContext, notice: Notice, channel: string): boolean {
	if (notice.kind === 'test' || notice.kind === 'collapsed' || notice.rigs.length === 0) return true;
	let send = false;
	for (const rig of notice.rigs) if (claimOne(context, notice, rig.since, `${rigKey(rig)}\u0000${channel}`, rig.until)) send = true;
	return send;
}

function claimOne(context: ClaimContext, notice: Notice, since: number, rig: string, until: number | undefined): boolean {
	const {db, me, now, leaseMs} = context;
	const resolved = notice.kind === 'resolved';
	// One-shot news ends as it begins.
	const ends = resolved ? (until ?? now) : notice.kind === 'info' ? since : null;
	const row = db.get<ClaimRow>(
		`SELECT id, holder, lease, ended FROM notify_claim WHERE rig = ? AND trouble = ? AND since BETWEEN ? AND ?
			AND (? OR ended IS NULL OR ended >= ?) ORDER BY abs(since - ?) LIMIT 1`,
		rig,
		notice.trouble,
		since - SAME_HAPPENING_MS,
		since + SAME_HAPPENING_MS,
		resolved ? 1 : 0,
		since,
		since,
	);
	if (row === undefined) {
		db.run(
			'INSERT INTO notify_claim (rig, trouble, since, holder, lease, ended) VALUES (?, ?, ?, ?, ?, ?)',
			rig,
			notice.trouble,
			since,
			me,
			now + leaseMs,
			ends,
		);
		return true;
	}

	// Ended by its holder (its all-clear sent, or news): told in full; nothing more for another rigtop to say.
	if (row.ended !== null && row.holder !== me) return false;
	if (row.holder === me) {
		db.run('UPDATE notify_claim SET lease = ?, ended = coalesce(?, ended) WHERE id = ?', now + leaseMs, ends, row.id);
		return true;
	}

	if (row.lease >= now && !context.dead(row.holder)) return false;
	// Its holder is gone: this rigtop tells what follows (a repeat, the all-clear). The first notice was the holder's to
	// send: if it is still pending, recovery sends it (or what it became); sending ours too could tell it twice.
	db.run('UPDATE notify_claim SET holder = ?, lease = ?, ended = coalesce(?, ended) WHERE id = ?', me, now + leaseMs, ends, row.id);
	return notice.kind === 'repeat' || resolved;
}
