/** Which command lines are batches (source/commands/batch/), and the batch flags refused elsewhere. */
import {expect, test} from 'vitest';
import {planCommand, type CliFlags} from '../../source/cli/options.js';
import {UsageError} from '../../source/session/errors.js';

const flags: CliFlags = {interval: undefined, demo: false, once: false, json: false, where: false, color: true, readOnly: false};
const plan = (input: string[], extra: Partial<CliFlags> = {}) =>
	planCommand({input, flags: {...flags, ...extra}, env: {}, stdinIsTty: true, stdoutIsTty: true});

test('pause, resume, config apply and config undo are batches; config set is one on --rigs or several addresses', () => {
	expect(plan(['pause']).command).toBe('batch');
	expect(plan(['resume', '10.0.0.5:8080']).command).toBe('batch');
	expect(plan(['config', 'apply', 'patch.json']).command).toBe('batch');
	expect(plan(['config', 'undo'], {rigs: 'rigs.json'}).command).toBe('batch');
	expect(plan(['config', 'set', 'cpu.huge-pages=false'], {rigs: 'rigs.json'}).command).toBe('batch');
	expect(plan(['config', 'set', 'cpu.huge-pages=false', '10.0.0.5:8080', '10.0.0.6:8080']).command).toBe('batch');
	expect(plan(['config', 'set', 'cpu.huge-pages=false'], {url: ['10.0.0.5:8080', '10.0.0.6:8080']}).command).toBe('batch');
	// One miner: the one-rig path, as before.
	expect(plan(['config', 'set', 'cpu.huge-pages=false', '10.0.0.5:8080']).command).toBe('config');
	expect(plan(['config', 'get']).command).toBe('config');
});

test('the batch plan carries its flags', () => {
	const request = plan(['config', 'set', 'a=1'], {rigs: 'rigs.json', dryRun: true, parallel: 3, yes: true, add: true});
	expect(request.command === 'batch' && request.plan).toMatchObject({
		words: ['config', 'set', 'a=1'],
		rigsFile: 'rigs.json',
		dryRun: true,
		parallel: 3,
		yes: true,
		add: true,
	});
});

test('--dry-run and --parallel go with a batch only; a typo of pause is named', () => {
	expect(() => plan(['10.0.0.5:8080'], {dryRun: true})).toThrow(UsageError);
	expect(() => plan(['config', 'set', 'a=1'], {parallel: 2})).toThrow(/--parallel goes with rigtop pause/);
	expect(() => plan(['puase'])).toThrow("unknown command 'puase': did you mean 'rigtop pause'?");
});

test('config set --dry-run on one miner (or the one found) prints its diff as a batch does, not a usage error', () => {
	const one = plan(['config', 'set', 'cpu.huge-pages=false', '10.0.0.5:8080'], {dryRun: true});
	expect(one.command === 'batch' && one.plan).toMatchObject({
		words: ['config', 'set', 'cpu.huge-pages=false', '10.0.0.5:8080'],
		dryRun: true,
	});
	expect(plan(['config', 'set', 'cpu.huge-pages=false'], {dryRun: true}).command).toBe('batch');
	// config get has nothing to try: --dry-run stays refused there.
	expect(() => plan(['config', 'get'], {dryRun: true})).toThrow(/--dry-run goes with/);
});

test('--json goes to the batch (one document), and makes config set on one miner a batch of one', () => {
	const paused = plan(['pause'], {json: true});
	expect(paused.command === 'batch' && paused.plan.json).toBe(true);
	const one = plan(['config', 'set', 'cpu.huge-pages=false', '10.0.0.5:8080'], {json: true});
	expect(one.command === 'batch' && one.plan.json).toBe(true);
	const text = plan(['pause']);
	expect(text.command === 'batch' && text.plan.json).toBeFalsy();
});
