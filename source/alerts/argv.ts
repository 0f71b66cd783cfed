/**
 * Splits the --on-alert CMD text into a program and its arguments, with no shell involved:
 *
 * - words are separated by spaces or tabs;
 * - 'single quotes' keep everything inside as is;
 * - "double quotes" keep everything inside, except that \" and \\ stand for " and \;
 * - outside quotes, a backslash makes the next character literal (\  is a space inside a word);
 * - nothing else is special: $VAR, ~, *, |, ;, > and && are passed on as plain text.
 *
 * So `notify-send "rig alert"` runs notify-send with one argument. Someone who wants a shell says
 * so: `sh -c 'jq -r .message | logger -t rigtop'`. The alert itself never reaches the command
 * line; it is written to the command's standard input.
 */
export class CommandSyntaxError extends Error {
	override readonly name = 'CommandSyntaxError';
}

export function splitCommand(text: string): string[] {
	const words: string[] = [];
	let word = '';
	let inWord = false;
	let quote: "'" | '"' | null = null;
	for (let i = 0; i < text.length; i++) {
		const char = text[i]!;
		if (quote === "'") {
			if (char === "'") quote = null;
			else word += char;
			continue;
		}

		if (quote === '"') {
			if (char === '"') {
				quote = null;
			} else if (char === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
				word += text[i + 1];
				i++;
			} else {
				word += char;
			}

			continue;
		}

		if (char === ' ' || char === '\t') {
			if (inWord) words.push(word);
			word = '';
			inWord = false;
			continue;
		}

		if (char === '\n' || char === '\r') throw new CommandSyntaxError('the command holds a line break; give it on one line');
		inWord = true;
		if (char === "'" || char === '"') {
			quote = char;
		} else if (char === '\\') {
			if (i + 1 >= text.length) throw new CommandSyntaxError('the command ends with a lone backslash');
			word += text[i + 1];
			i++;
		} else {
			word += char;
		}
	}

	if (quote !== null) throw new CommandSyntaxError(`the command has an unclosed ${quote === "'" ? 'single' : 'double'} quote`);
	if (inWord) words.push(word);
	if (words.length === 0 || words[0] === '') throw new CommandSyntaxError('the command is empty');
	return words;
}
