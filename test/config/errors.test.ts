import {describe, expect, it} from 'vitest';
import {BackupError} from '../../source/config/backups.js';
import {ConfigDocument, ConfigParseError} from '../../source/config/document.js';
import {describeConfigError, layoutForVersion, layoutOf, problemLine, scrubSecrets} from '../../source/config/errors.js';
import {MinerError} from '../../source/miner/errors.js';
import {v214Config, v216Config, v6Config} from './helpers/fixtures.js';

describe('describeConfigError', () => {
	it('401: no token given, or a token sent to a miner that has none', () => {
		const error = new MinerError('unauthorized', 'not authorized (HTTP 401)', {status: 401});
		const noToken = describeConfigError(error, {operation: 'read', layout: 'http', tokenGiven: false});
		expect(noToken.kind).toBe('unauthorized');
		expect(noToken.fix).toMatch(/wants its access token: pass the value of http\.access-token/);
		const sent = describeConfigError(error, {operation: 'write', layout: 'http', tokenGiven: true});
		expect(sent.fix).toMatch(/has no access token set, so it refuses requests that carry one/);
		const unknown = describeConfigError(error, {operation: 'read'});
		expect(unknown.fix).toMatch(/either the miner wants its access token .*or it has none set/);
		expect(unknown.fix).toMatch(/api\.access-token on miners before 2\.15/);
	});

	it('403: restricted mode when the summary reads, wrong token when it does not', () => {
		const error = new MinerError('forbidden', 'forbidden (HTTP 403)', {status: 403});
		const restricted = describeConfigError(error, {operation: 'write', layout: 'http', summaryReadable: true});
		expect(restricted.kind).toBe('restricted');
		expect(restricted.fix).toMatch(/^set http\.restricted to false in the miner's config/);
		const old = describeConfigError(error, {operation: 'read', layout: 'api', summaryReadable: true});
		expect(old.fix).toMatch(/^set api\.restricted to false/);
		const wrong = describeConfigError(error, {operation: 'read', layout: 'http', summaryReadable: false});
		expect(wrong.kind).toBe('wrong-token');
		expect(wrong.fix).toMatch(/use the value of http\.access-token/);
		expect(describeConfigError(error, {operation: 'read'}).fix).toMatch(/either the token is wrong .* or the miner is in restricted mode/);
	});

	it('415 and 400 (with the miner’s own message)', () => {
		const media = describeConfigError(new MinerError('unsupported-media-type', 'unsupported media type (HTTP 415)', {status: 415}), {
			operation: 'write',
		});
		expect(media.message).toMatch(/refused the request body type \(415\); nothing was changed/);
		expect(media.fix).toMatch(/Content-Type: application\/json/);
		const bad = describeConfigError(
			new MinerError('bad-request', 'the miner rejected /1/config (HTTP 400)', {status: 400, detail: 'Missing a name for object member.'}),
			{operation: 'write'},
		);
		expect(bad.kind).toBe('rejected');
		expect(bad.detail).toBe('Missing a name for object member.');
		expect(problemLine(bad)).toBe(
			'the miner rejected the new config (400); nothing was changed (Missing a name for object member.) — ' +
				'check the values you set: the miner needs at least one enabled pool with a valid url',
		);
	});

	it('unreachable, backups and bad documents', () => {
		const down = describeConfigError(new MinerError('unreachable', 'connection refused'), {operation: 'read'});
		expect(down).toMatchObject({kind: 'unreachable', message: 'could not read its config: connection refused'});
		const backup = describeConfigError(new BackupError('disk-full', 'could not save a backup … the disk is full', '/x'), {
			operation: 'write',
		});
		expect(backup.fix).toBe('nothing was sent to the miner; its config is unchanged');
		expect(describeConfigError(new ConfigParseError('the config is not a JSON object'), {operation: 'read'}).kind).toBe('not-json');
		expect(describeConfigError('weird', {operation: 'write'}).message).toBe('could not change its config: weird');
	});
});

describe('layouts and scrubbing', () => {
	it('tells the config layouts apart', () => {
		expect(layoutOf(new ConfigDocument(v6Config()).value)).toBe('http');
		expect(layoutOf(new ConfigDocument(v216Config()).value)).toBe('http');
		expect(layoutOf(new ConfigDocument(v214Config()).value)).toBe('api');
		expect(layoutOf({colors: true})).toBeNull();
		expect(layoutForVersion('2.14.4')).toBe('api');
		expect(layoutForVersion('2.15.0-beta')).toBe('api');
		expect(layoutForVersion('2.15.1-beta')).toBe('http');
		expect(layoutForVersion('2.16.0-beta')).toBe('http');
		expect(layoutForVersion('6.26.0')).toBe('http');
		expect(layoutForVersion('1.9.0')).toBe('api');
		expect(layoutForVersion(null)).toBeNull();
	});

	it('scrubs secret values of 4+ characters from outside text', () => {
		expect(scrubSecrets('token testtoken leaked', ['testtoken', 'x'])).toBe('token •••••••• leaked');
	});
});
