/**
 * Where a JSON text goes wrong, in one line a person can act on: "not valid JSON at line 3, column 5
 * (CommaExpected)". Used for the files rigtop reads (a miner's config file, the rigs file); never the
 * parser's own message, which quotes the text (and so can run over several lines).
 */
import {parseTree, printParseErrorCode, type ParseError} from 'jsonc-parser';

/** The 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): {line: number; column: number} {
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

/** A parse error of jsonc-parser as that line. */
export function parseErrorText(text: string, error: ParseError): string {
	const {line, column} = lineAndColumn(text, error.offset);
	return `not valid JSON at line ${line}, column ${column} (${printParseErrorCode(error.error)})`;
}

/** The first error in `text` read as strict JSON (JSON.parse's grammar) as that line, or null when there is none. */
export function jsonProblem(text: string): string | null {
	const errors: ParseError[] = [];
	parseTree(text, errors, {allowTrailingComma: false, disallowComments: true, allowEmptyContent: false});
	const first = errors[0];
	return first ? parseErrorText(text, first) : null;
}
