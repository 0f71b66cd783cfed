import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {survivePipeClosing} from '../../source/cli/closed-pipe.js';

/** A stream like stdout on a pipe whose reader went away: every write fails with EPIPE. */
function closedPipe(): Writable {
	return new Writable({
		highWaterMark: 4,
		write(_chunk, _encoding, done) {
			setImmediate(() => done(Object.assign(new Error('write EPIPE'), {code: 'EPIPE'})));
		},
	});
}

function capture(): Writable & {text: () => string} {
	let text = '';
	const stream = new Writable({
		write(chunk: Buffer, _encoding, done) {
			text += chunk.toString();
			done();
		},
	});
	return Object.assign(stream, {text: () => text});
}

describe('survivePipeClosing', () => {
	it('a writer waiting for a drain that never comes: the process is ended with its status, nothing said', async () => {
		const stdout = closedPipe();
		const stderr = capture();
		const exits: number[] = [];
		const timers: number[] = [];
		const ended = new Promise<void>((resolve) => {
			survivePipeClosing(stdout, stderr, {
				exit: (code) => {
					exits.push(code);
					resolve();
				},
				exitCode: () => 0,
				setTimer: (run, ms) => {
					timers.push(ms);
					setImmediate(run);
				},
			});
		});
		let drained = false;
		if (!stdout.write('a long report\n')) stdout.once('drain', () => (drained = true));
		await ended;
		expect(drained).toBe(false);
		expect(exits).toEqual([0]);
		expect(timers).toEqual([2000]);
		expect(stderr.text()).toBe('');
	});

	it('another write error on stdout is said in one line on stderr; errors on stderr itself are dropped', async () => {
		const stdout = new Writable({write: (_chunk, _encoding, done) => done(Object.assign(new Error('i/o error'), {code: 'EIO'}))});
		const stderr = capture();
		const exits: number[] = [];
		survivePipeClosing(stdout, stderr, {exit: (code) => exits.push(code), exitCode: () => 1, setTimer: (run) => setImmediate(run)});
		stdout.write('x');
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(stderr.text()).toBe('rigtop: cannot write to stdout (EIO)\n');
		expect(exits).toEqual([1]);
		stderr.emit('error', Object.assign(new Error('write EPIPE'), {code: 'EPIPE'}));
	});
});
