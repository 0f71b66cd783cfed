import {describe, expect, it} from 'vitest';
import {askedFor, checkArgv, prometheusSpellings} from '../../source/cli/argv.js';
import {FLAGS, VALUE_HINTS} from '../../source/cli/flags.js';

const check = (...argv: string[]) => checkArgv(argv, FLAGS, VALUE_HINTS);

describe("rigtop's command line, checked before meow reads it", () => {
	it('accepts what rigtop takes: values after a space or =, short flags, negations, repeated --url, words after --', () => {
		expect(check()).toBeNull();
		expect(check('127.0.0.1:18081', '--interval', '1', '--once', '--json')).toBeNull();
		expect(check('-i', '0.5', '-c', '/etc/xmrig.json', '--token-file=/run/token')).toBeNull();
		expect(check('-i2', '--url', 'a:1', '--url=b:2', '--no-color', '--read-only', '--bell')).toBeNull();
		expect(check('--on-alert', 'logger -t rigtop', '--rigs', 'rigs.json')).toBeNull();
		expect(check('config', 'set', 'cpu.huge-pages=false', '--yes', '--add')).toBeNull();
		expect(check('--help')).toBeNull();
		expect(check('--version')).toBeNull();
		expect(check('--once', '--', '--not-a-flag')).toBeNull();
	});

	it('a flag without its value is a usage error that says what the value is', () => {
		expect(check('-i')).toBe('-i needs a value (seconds between polls, e.g. -i 2)');
		expect(check('--url')).toBe('--url needs a value (a miner address, host:port)');
		expect(check('127.0.0.1:1', '--interval')).toBe('--interval needs a value (seconds between polls, e.g. -i 2)');
		expect(check('--once', '--token-file')).toBe("--token-file needs a value (a file holding the miner's access token)");
		expect(check('--token-file', '--once')).toBe("--token-file needs a value (a file holding the miner's access token)");
		expect(check('--config=')).toBe("--config needs a value (the miner's config file)");
		expect(check('-i', 'abc')).toBe('-i needs a number (seconds between polls, e.g. -i 2), not "abc"');
	});

	it('an unknown flag is named; a boolean flag given a value is refused', () => {
		expect(check('--foo')).toBe('unknown flag --foo');
		expect(check('-x')).toBe('unknown flag -x');
		expect(check('--intervall', '2')).toBe('unknown flag --intervall');
		expect(check('--no-interval')).toBe('unknown flag --no-interval');
		expect(check('--json=yes')).toBe('--json takes no value (got "yes")');
		expect(check('--json=false')).toBeNull();
	});

	it('echoes what the user typed with its controls, bidi and invisibles escaped (issue 36)', () => {
		expect(check('--bogus\u202E\u009B')).toBe('unknown flag --bogus\\u202e\\u009b');
		expect(check('--json=\u001B]0;T\u0007\u200B')).toBe('--json takes no value (got "\\u001b]0;T\\u0007\\u200b")');
		expect(check('-i', '2\u202E\u0085')).toBe('-i needs a number (seconds between polls, e.g. -i 2), not "2\\u202e\\u0085"');
	});

	it("takes Prometheus exporters' spellings: --web.listen-address (as --listen) and --web.config.file", () => {
		expect(
			check('exporter', '--web.listen-address', ':9189', '--web.listen-address=127.0.0.1:9190', '--web.config.file', 'web.yml'),
		).toBeNull();
		expect(check('exporter', '--web.config.file')).toBe(
			'--web.config.file needs a value (a web config file: TLS and basic auth, as for node_exporter)',
		);
		expect(check('--web.listen-address')).toBe('--web.listen-address needs a value (the address /metrics listens on, host:port or :port)');
		expect(
			prometheusSpellings([
				'exporter',
				'--web.listen-address',
				':1',
				'--web.listen-address=:2',
				'--web.config.file=w.yml',
				'--',
				'--web.config.file',
			]),
		).toEqual(['exporter', '--listen', ':1', '--listen=:2', '--web-config-file=w.yml', '--', '--web.config.file']);
	});
});

describe('askedFor: --help and --version wherever they stand', () => {
	it('finds them after a command or a URL, the help first, nothing after --', () => {
		expect(askedFor(['exporter', '--help'])).toBe('help');
		expect(askedFor(['--help', '127.0.0.1:18092'])).toBe('help');
		expect(askedFor(['exporter', '--version', '--listen', ':9189'])).toBe('version');
		expect(askedFor(['--version', '--help'])).toBe('help');
		expect(askedFor(['exporter', '--', '--help'])).toBe(null);
		expect(askedFor(['127.0.0.1:18092', '-i', '2'])).toBe(null);
	});
});
