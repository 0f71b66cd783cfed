/** `rigtop --once`: every miner read once, printed as text or JSON; also what rigtop does off a terminal. */
import {pollOnce} from '../../monitor/monitor.js';
import {buildSession} from '../../session/build.js';
import {withRefusedToken, withSensors, type Session} from '../../session/session.js';
import type {Command, RunPlan} from '../command.js';
import {formatOnceText, proxyJson, type OnceResult} from './report.js';
import {jsonText} from '../../text/json-out.js';

/** The shortest time --once measures a package's power over (where it can be read at all). */
export const POWER_WINDOW_MS = 250;

const sleep = async (ms: number) =>
	ms > 0
		? new Promise<void>((resolve) => {
				setTimeout(resolve, ms);
			})
		: undefined;

export const run: Command<RunPlan> = async (plan, context) => {
	for (const notice of plan.notices) context.warn(notice);
	const session = await buildSession(plan, context.warn);
	try {
		return await runOnce(session, plan, process.stdout);
	} finally {
		await session.close();
	}
};

/**
 * Reads every miner once, in parallel, through the monitor's own poll (monitor.ts `pollOnce`): a failure is what the
 * live screens would make of it, and so is the miner's name. Prints text or JSON. Returns the exit code: 0 all read,
 * 1 otherwise.
 */
export async function runOnce(session: Session, plan: RunPlan, out: NodeJS.WritableStream): Promise<number> {
	// Power is energy between two readings: a first one, taken while the miner answers, so the poll's own reading has
	// watts. A package's counter moves about every millisecond; over the few ms of a loopback poll its figure would be
	// mostly rounding, so where a counter could be read the poll's reading waits until POWER_WINDOW_MS after the first.
	const polls = await Promise.all(
		session.miners.map(async (miner) => {
			const {target, reader, sensors} = miner;
			// Its time is taken once it is read, not as it starts, so the window is never shorter. read() never throws.
			const primed = sensors?.read(null).then((reading) => ({powered: reading.power.state === 'ok', at: Date.now()}));
			const state = await pollOnce(
				async (signal) => {
					const snapshot = await reader.read(signal).catch((error: unknown) => {
						throw withRefusedToken(error, target.tokenRefused, target.url);
					});
					const first = await primed;
					if (first?.powered) await sleep(POWER_WINDOW_MS - (Date.now() - first.at));
					return withSensors(sensors, snapshot);
				},
				target.url,
				target.name === undefined ? {} : {name: target.name},
			);
			const result: OnceResult = {url: target.url, name: state.name, snapshot: state.snapshot, error: state.error};
			return {result, state, configured: target.name};
		}),
	);
	// A cron --once adds its sample to the history (written when the session closes), with the link state the monitor
	// ended in: live, down (nothing answered, or not in time) or error (the user has to act).
	const at = Date.now();
	polls.forEach(({state, configured}, slot) => {
		session.recorder?.recordRead(slot, {
			url: state.url,
			configured,
			at,
			snapshot: state.snapshot,
			link: state.status === 'live' || state.status === 'error' ? state.status : 'down',
		});
	});

	const results = polls.map(({result}) => result);
	if (plan.json) {
		out.write(`${jsonText(toJson(results), 2)}\n`);
	} else {
		out.write(formatOnceText(results, Date.now()));
	}

	return results.every((result) => result.error === null) ? 0 : 1;
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
			miner: minerJson(result.snapshot),
			proxy: result.snapshot === null ? null : proxyJson(result.snapshot),
		})),
	};
}

/** The snapshot as the model has it; a proxy's own numbers are in `proxy` beside it (windows named), not twice. */
function minerJson(snapshot: OnceResult['snapshot']) {
	if (snapshot === null) return null;
	const {proxy: _proxy, ...rest} = snapshot;
	return rest;
}
