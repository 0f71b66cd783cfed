/** `rigtop --where`: the miners a session with these options would watch, and where each setting came from. */
import {formatWhere} from '../../discovery/where.js';
import {whereResult} from '../../session/build.js';
import type {Command, RunPlan} from '../command.js';

export const run: Command<RunPlan> = async (plan, context) => {
	for (const notice of plan.notices) context.warn(notice);
	const result = await whereResult(plan);
	process.stdout.write(`${formatWhere(result).join('\n')}\n`);
	return result.targets.length > 0 ? 0 : 1;
};
