/** `rigtop --once`: every miner read once, printed as text or JSON; also what rigtop does off a terminal. */
import {buildSession} from '../../session/build.js';
import type {Session} from '../../session/session.js';
import type {Command, RunPlan} from '../command.js';
import {MinerError} from '../../miner/errors.js';
import type {MinerSnapshot} from '../../miner/model.js';
import {withoutCredentials} from '../../monitor/name.js';
import {formatOnceText, type OnceResult} from './report.js';

export const run: Command<RunPlan> = async (plan, context) => {
	for (const notice of plan.notices) context.warn(notice);
	const session = await buildSession(plan, context.warn);
	try {
		return await runOnce(session, plan, process.stdout);
	} finally {
		await session.close();
	}
};

/** Reads every miner once, in parallel, and prints text or JSON. Returns the exit code: 0 all read, 1 otherwise. */
export async function runOnce(session: Session, plan: RunPlan, out: NodeJS.WritableStream): Promise<number> {
	const results = await Promise.all(
		session.miners.map(async (miner): Promise<OnceResult> => {
			try {
				const snapshot: MinerSnapshot = await miner.reader.read();
				return {url: miner.target.url, name: miner.target.name ?? snapshot.workerId ?? hostOf(miner.target.url), snapshot, error: null};
			} catch (error) {
				const minerError =
					error instanceof MinerError ? error : new MinerError('unreachable', error instanceof Error ? error.message : String(error));
				return {url: miner.target.url, name: miner.target.name ?? hostOf(miner.target.url), snapshot: null, error: minerError};
			}
		}),
	);
	// A cron --once adds its sample to the history (written when the session closes).
	const at = Date.now();
	results.forEach((result, slot) => {
		session.history?.recordRead(slot, {
			url: withoutCredentials(result.url),
			name: result.name,
			at,
			snapshot: result.snapshot,
			link: result.error === null ? 'live' : result.error.transient ? 'down' : 'error',
		});
	});

	if (plan.json) {
		out.write(`${JSON.stringify(toJson(results), null, 2)}\n`);
	} else {
		out.write(formatOnceText(results, Date.now()));
	}

	return results.every((result) => result.error === null) ? 0 : 1;
}

function hostOf(url: string): string {
	return url.replace(/^https?:\/\//, '');
}

function toJson(results: readonly OnceResult[]) {
	return {
		at: new Date().toISOString(),
		miners: results.map((result) => ({
			url: result.url,
			name: result.name,
			ok: result.error === null,
			error: result.error
				? {
						kind: result.error.kind,
						status: result.error.status,
						message: result.error.message,
						detail: result.error.detail,
						hint: result.error.hint,
					}
				: null,
			miner: result.snapshot,
		})),
	};
}
