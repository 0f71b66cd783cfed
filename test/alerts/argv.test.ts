import {describe, expect, test} from 'vitest';
import {CommandSyntaxError, splitCommand} from '../../source/alerts/argv.js';

describe('splitting --on-alert into argv (no shell)', () => {
	test('words, quotes and backslashes', () => {
		expect(splitCommand('logger -t rigtop')).toEqual(['logger', '-t', 'rigtop']);
		expect(splitCommand('  notify-send   "rig alert"  ')).toEqual(['notify-send', 'rig alert']);
		expect(splitCommand(`sh -c 'jq -r .message | logger'`)).toEqual(['sh', '-c', 'jq -r .message | logger']);
		expect(splitCommand(String.raw`say "a \"quoted\" \\ word"`)).toEqual(['say', 'a "quoted" \\ word']);
		expect(splitCommand(String.raw`a\ b c`)).toEqual(['a b', 'c']);
		expect(splitCommand(`x ''`)).toEqual(['x', '']);
		expect(splitCommand(`pre'fix'"ed"`)).toEqual(['prefixed']);
	});

	test('nothing else is special: variables, globs, pipes and separators stay plain text', () => {
		expect(splitCommand('echo $HOME ~ * | tee x; rm -rf / && y > z')).toEqual([
			'echo',
			'$HOME',
			'~',
			'*',
			'|',
			'tee',
			'x;',
			'rm',
			'-rf',
			'/',
			'&&',
			'y',
			'>',
			'z',
		]);
		expect(splitCommand(`echo "$(id)" '\`id\`'`)).toEqual(['echo', '$(id)', '`id`']);
	});

	test('mistakes are reported, not guessed at', () => {
		expect(() => splitCommand('')).toThrow(CommandSyntaxError);
		expect(() => splitCommand('   ')).toThrow(/empty/);
		expect(() => splitCommand(`say 'open`)).toThrow(/unclosed single quote/);
		expect(() => splitCommand('say "open')).toThrow(/unclosed double quote/);
		expect(() => splitCommand('say \\')).toThrow(/backslash/);
		expect(() => splitCommand('a\nb')).toThrow(/line break/);
		expect(() => splitCommand(`'' x`)).toThrow(/empty/);
	});
});
