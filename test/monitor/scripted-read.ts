import {MinerError} from '../../source/miner/errors.js';
import type {MinerSnapshot} from '../../source/miner/model.js';

/** What one read does: answer (or fail) after `ms` of (possibly fake) time; at once when ms is 0 or absent. */
export type Step = {readonly ms?: number; readonly result: MinerSnapshot | Error};

export type ReadLog = {
	/** Date.now() at the start of each read. */
	readonly starts: number[];
	readonly signals: AbortSignal[];
	inFlight: number;
	maxInFlight: number;
	aborted: number;
};

/**
 * A read function driven by a script, for the monitor's `read` option: a real function with timers,
 * honouring its AbortSignal like the client does (the read then rejects and clears its timer).
 * `steps` is indexed by call number; past its end the last step repeats.
 */
export function scriptedRead(steps: readonly Step[] | ((call: number) => Step)): {
	read: (signal: AbortSignal) => Promise<MinerSnapshot>;
	log: ReadLog;
} {
	const log: ReadLog = {starts: [], signals: [], inFlight: 0, maxInFlight: 0, aborted: 0};
	const read = (signal: AbortSignal) =>
		new Promise<MinerSnapshot>((resolve, reject) => {
			const call = log.starts.length;
			const step = typeof steps === 'function' ? steps(call) : steps[Math.min(call, steps.length - 1)];
			if (step === undefined) throw new Error('empty script');
			log.starts.push(Date.now());
			log.signals.push(signal);
			log.inFlight++;
			log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
			const settle = () => {
				log.inFlight--;
				if (step.result instanceof Error) reject(step.result);
				else resolve(step.result);
			};

			if (!step.ms) {
				settle();
				return;
			}

			const onAbort = () => {
				clearTimeout(timer);
				log.inFlight--;
				log.aborted++;
				reject(new MinerError('timeout', 'request aborted'));
			};

			const timer = setTimeout(() => {
				signal.removeEventListener('abort', onAbort);
				settle();
			}, step.ms);
			signal.addEventListener('abort', onAbort, {once: true});
		});
	return {read, log};
}

export const refused = () => new MinerError('unreachable', 'connection refused');
export const timedOut = () => new MinerError('timeout', 'no answer within 5 s');
export const unauthorized = () => new MinerError('unauthorized', 'the miner wants an access token', {status: 401});
