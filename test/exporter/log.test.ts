import {describe, expect, it} from 'vitest';
import {UsageError} from '../../source/session/errors.js';
import {createLogger, logSettings, type LoggerOptions} from '../../source/exporter/log.js';

const at = new Date('2026-11-26T07:00:00.000Z');

function logged(options: Omit<LoggerOptions, 'write' | 'now'>) {
	const lines: string[] = [];
	const logger = createLogger({...options, write: (line) => lines.push(line), now: () => at});
	return {logger, lines};
}

describe('the exporter log', () => {
	it('writes logfmt by default: time, level, message, fields; quoting only what needs it', () => {
		const {logger, lines} = logged({format: 'logfmt', level: 'info'});
		logger.info('listening', {address: '[::]:9201'});
		logger.warn('rig "x" said\na\\b', {empty: '', n: 3});
		expect(lines).toEqual([
			'ts=2026-11-26T07:00:00.000Z level=info msg=listening address=[::]:9201\n',
			'ts=2026-11-26T07:00:00.000Z level=warn msg="rig \\"x\\" said\\na\\\\b" empty="" n=3\n',
		]);
	});

	it('writes one JSON object a line with --log.format=json', () => {
		const {logger, lines} = logged({format: 'json', level: 'info'});
		logger.error('cannot listen on 127.0.0.1:9189', {miner: 'rig-01'});
		expect(lines).toHaveLength(1);
		expect(JSON.parse(lines[0]!)).toEqual({ts: at.toISOString(), level: 'error', msg: 'cannot listen on 127.0.0.1:9189', miner: 'rig-01'});
	});

	it("writes no control character raw in either format: a miner's ESC, BEL, C1 CSI and bidi override are escapes", () => {
		const hostile = 'v6\u001b]0;PWN\u0007\u009b31m\u202Egnp.exe\u2028\u007f\u200b';
		const logfmt = logged({format: 'logfmt', level: 'info'});
		logfmt.logger.warn(`restarted as ${hostile}`, {version: hostile, plain: 'rig-01', name: 'rig-01é'});
		expect(logfmt.lines).toEqual([
			'ts=2026-11-26T07:00:00.000Z level=warn msg="restarted as v6\\u001b]0;PWN\\u0007\\u009b31m\\u202egnp.exe\\u2028\\u007f\\u200b" ' +
				'version="v6\\u001b]0;PWN\\u0007\\u009b31m\\u202egnp.exe\\u2028\\u007f\\u200b" plain=rig-01 name="rig-01é"\n',
		]);
		const json = logged({format: 'json', level: 'info'});
		json.logger.warn('restarted', {version: hostile});
		expect(json.lines[0]).toBe(
			'{"ts":"2026-11-26T07:00:00.000Z","level":"warn","msg":"restarted","version":"v6\\u001b]0;PWN\\u0007\\u009b31m\\u202egnp.exe\\u2028\\u007f\\u200b"}\n',
		);
		expect(JSON.parse(json.lines[0]!)).toMatchObject({version: hostile});
		for (const line of [...logfmt.lines, ...json.lines])
			// eslint-disable-next-line no-control-regex
			expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u200b]/u);
	});

	it('leaves out the levels below --log.level', () => {
		const {logger, lines} = logged({format: 'logfmt', level: 'warn'});
		logger.debug('a');
		logger.info('b');
		logger.warn('c');
		logger.error('d');
		expect(lines.map((line) => /level=(\w+)/.exec(line)![1])).toEqual(['warn', 'error']);
		const debug = logged({format: 'logfmt', level: 'debug'});
		debug.logger.debug('a');
		expect(debug.lines).toHaveLength(1);
	});

	it('reads --log.format and --log.level (default logfmt, info); anything else is bad usage naming the choices', () => {
		expect(logSettings(undefined, undefined)).toEqual({format: 'logfmt', level: 'info'});
		expect(logSettings('JSON', 'Debug')).toEqual({format: 'json', level: 'debug'});
		expect(() => logSettings('text', undefined)).toThrow(new UsageError('--log.format "text": write logfmt, json'));
		expect(() => logSettings(undefined, 'verbose')).toThrow(UsageError);
		expect(() => logSettings(undefined, 'verbose')).toThrow(/--log\.level "verbose": write debug, info, warn, error/);
	});
});
