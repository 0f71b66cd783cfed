/**
 * Where a JSON text goes wrong, in one line a person can act on: "not valid JSON at line 3, column 5
 * (CommaExpected)". Used for the files rigtop reads (a miner's config file, the rigs file); never the
 * parser's own message, which quotes the text (and so can run over several lines).
 */
import {parseTree, printParseErrorCode, type ParseError} from 'jsonc-parser';

/** The 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): {line: number; column: number} {
	let line = 1;
	let lineStart = 0;
	for (let index = 0; index < offset && index < text.length; index++) {
		if (text.charCodeAt(index) === 10) {
			line++;
			lineStart = index + 1;
		}
	}
	return {line, column: offset - lineStart + 1};
}

/**
 * The first error in `text` as "not valid JSON at line L, column C (Code)", or null when there is none. `relaxed`
 * allows comments and trailing commas (XMRig's rapidjson reads its config so); strict is JSON.parse's grammar.
 */
export function jsonProblem(text: string, relaxed: boolean): string | null {
	const errors: ParseError[] = [];
	parseTree(text, errors, {allowTrailingComma: relaxed, disallowComments: !relaxed, allowEmptyContent: false});
	const first = errors[0];
	if (!first) return null;
	const {line, column} = lineAndColumn(text, first.offset);
	return `not valid JSON at line ${line}, column ${column} (${printParseErrorCode(first.error)})`;
}
