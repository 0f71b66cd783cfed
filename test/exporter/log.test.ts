import {describe, expect, it} from 'vitest';
import {UsageError} from '../../source/errors.js';
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
