/**
 * Parses JSON the way XMRig reads API request bodies: rapidjson with kParseCommentsFlag and
 * kParseTrailingCommasFlag, stopping at the first NUL (the body is read as a C string), and failing with
 * rapidjson's own English messages ("Missing a name for object member." ...) that the miner puts in its
 * 400 answers. Duplicate keys keep the first value, as rapidjson's FindMember does.
 */
import {JsonDouble} from './json-writer.js';

export type ParsedJson = null | boolean | number | string | JsonDouble | ParsedJson[] | {[key: string]: ParsedJson};

export type ParseResult =
	{readonly ok: true; readonly value: ParsedJson} | {readonly ok: false; readonly error: string; readonly offset: number};

export const PARSE_ERRORS = {
	documentEmpty: 'The document is empty.',
	rootNotSingular: 'The document root must not be followed by other values.',
	valueInvalid: 'Invalid value.',
	objectMissName: 'Missing a name for object member.',
	objectMissColon: 'Missing a colon after a name of object member.',
	objectMissCommaOrCurlyBracket: "Missing a comma or '}' after an object member.",
	arrayMissCommaOrSquareBracket: "Missing a comma or ']' after an array element.",
	unicodeEscapeInvalidHex: 'Incorrect hex digit after \\u escape in string.',
	unicodeSurrogateInvalid: 'The surrogate pair in string is invalid.',
	escapeInvalid: 'Invalid escape character in string.',
	missQuotationMark: 'Missing a closing quotation mark in string.',
	invalidEncoding: 'Invalid encoding in string.',
	numberTooBig: 'Number too big to be stored in double.',
	numberMissFraction: 'Miss fraction part in number.',
	numberMissExponent: 'Miss exponent in number.',
	termination: 'Terminate parsing due to Handler error.',
	unspecificSyntaxError: 'Unspecific syntax error.',
} as const;

class ParseFailure extends Error {
	constructor(
		readonly reason: string,
		readonly offset: number,
	) {
		super(reason);
	}
}

const MAX_DEPTH = 512;

export type ParseOptions = {
	/** Return numbers written with a fraction or exponent as JsonDouble (to echo them as rapidjson would). */
	readonly doubles?: boolean;
};

export function parseRapidJson(input: string, options: ParseOptions = {}): ParseResult {
	const nul = input.indexOf('\0');
	const text = nul === -1 ? input : input.slice(0, nul);
	let pos = 0;
	let depth = 0;
	const fail = (reason: string, at = pos): never => {
		throw new ParseFailure(reason, at);
	};

	const skipWhitespaceAndComments = (): void => {
		for (;;) {
			const c = text[pos];
			if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
				pos++;
				continue;
			}
			if (c !== '/') return;
			const next = text[pos + 1];
			if (next === '*') {
				const end = text.indexOf('*/', pos + 2);
				if (end === -1) fail(PARSE_ERRORS.unspecificSyntaxError, text.length);
				pos = end + 2;
			} else if (next === '/') {
				const end = text.indexOf('\n', pos + 2);
				pos = end === -1 ? text.length : end + 1;
			} else {
				fail(PARSE_ERRORS.unspecificSyntaxError, pos + 1);
			}
		}
	};

	const literal = (word: string, value: ParsedJson): ParsedJson => {
		if (text.startsWith(word, pos)) {
			pos += word.length;
			return value;
		}
		return fail(PARSE_ERRORS.valueInvalid, pos + 1);
	};

	const hex4 = (): number => {
		const digits = text.slice(pos, pos + 4);
		if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail(PARSE_ERRORS.unicodeEscapeInvalidHex);
		pos += 4;
		return Number.parseInt(digits, 16);
	};

	const parseString = (): string => {
		pos++; // opening quote
		let out = '';
		let start = pos;
		for (;;) {
			if (pos >= text.length) fail(PARSE_ERRORS.missQuotationMark);
			const code = text.charCodeAt(pos);
			if (code === 0x22) {
				out += text.slice(start, pos);
				pos++;
				return out;
			}
			if (code < 0x20) fail(PARSE_ERRORS.invalidEncoding);
			if (code !== 0x5c) {
				pos++;
				continue;
			}
			out += text.slice(start, pos);
			const escapeAt = pos;
			pos++;
			const e = text[pos];
			pos++;
			switch (e) {
				case '"':
				case '\\':
				case '/':
					out += e;
					break;
				case 'b':
					out += '\b';
					break;
				case 'f':
					out += '\f';
					break;
				case 'n':
					out += '\n';
					break;
				case 'r':
					out += '\r';
					break;
				case 't':
					out += '\t';
					break;
				case 'u': {
					const high = hex4();
					if (high >= 0xd800 && high <= 0xdbff) {
						if (text[pos] !== '\\' || text[pos + 1] !== 'u') fail(PARSE_ERRORS.unicodeSurrogateInvalid);
						pos += 2;
						const low = hex4();
						if (low < 0xdc00 || low > 0xdfff) fail(PARSE_ERRORS.unicodeSurrogateInvalid);
						out += String.fromCharCode(high, low);
					} else {
						out += String.fromCharCode(high);
					}
					break;
				}
				default:
					fail(PARSE_ERRORS.escapeInvalid, escapeAt);
			}
			start = pos;
		}
	};

	const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

	const parseNumber = (): number | JsonDouble => {
		const start = pos;
		if (text[pos] === '-') pos++;
		if (text[pos] === '0') {
			pos++;
		} else if (isDigit(text[pos])) {
			while (isDigit(text[pos])) pos++;
		} else {
			fail(PARSE_ERRORS.valueInvalid, start);
		}
		let isDouble = false;
		if (text[pos] === '.') {
			pos++;
			if (!isDigit(text[pos])) fail(PARSE_ERRORS.numberMissFraction);
			while (isDigit(text[pos])) pos++;
			isDouble = true;
		}
		if (text[pos] === 'e' || text[pos] === 'E') {
			pos++;
			if (text[pos] === '+' || text[pos] === '-') pos++;
			if (!isDigit(text[pos])) fail(PARSE_ERRORS.numberMissExponent);
			while (isDigit(text[pos])) pos++;
			isDouble = true;
		}
		const value = Number(text.slice(start, pos));
		if (!Number.isFinite(value)) fail(PARSE_ERRORS.numberTooBig, start);
		if (!Number.isSafeInteger(value) && !isDouble) isDouble = true; // past 64 bits rapidjson falls back to double
		return isDouble && options.doubles ? new JsonDouble(value) : value;
	};

	const enter = (): void => {
		depth++;
		if (depth > MAX_DEPTH) fail(PARSE_ERRORS.termination);
	};

	const parseValue = (): ParsedJson => {
		switch (text[pos]) {
			case 'n':
				return literal('null', null);
			case 't':
				return literal('true', true);
			case 'f':
				return literal('false', false);
			case '"':
				return parseString();
			case '{': {
				enter();
				pos++;
				const object: {[key: string]: ParsedJson} = {};
				skipWhitespaceAndComments();
				if (text[pos] === '}') {
					pos++;
					depth--;
					return object;
				}
				for (;;) {
					if (text[pos] !== '"') fail(PARSE_ERRORS.objectMissName);
					const key = parseString();
					skipWhitespaceAndComments();
					if (text[pos] !== ':') fail(PARSE_ERRORS.objectMissColon);
					pos++;
					skipWhitespaceAndComments();
					const member = parseValue();
					if (!Object.hasOwn(object, key)) {
						Object.defineProperty(object, key, {value: member, enumerable: true, writable: true, configurable: true});
					}
					skipWhitespaceAndComments();
					const c = text[pos];
					if (c === ',') {
						pos++;
						skipWhitespaceAndComments();
						if (text[pos] === '}') {
							pos++;
							depth--;
							return object;
						}
					} else if (c === '}') {
						pos++;
						depth--;
						return object;
					} else {
						fail(PARSE_ERRORS.objectMissCommaOrCurlyBracket);
					}
				}
			}
			case '[': {
				enter();
				pos++;
				const array: ParsedJson[] = [];
				skipWhitespaceAndComments();
				if (text[pos] === ']') {
					pos++;
					depth--;
					return array;
				}
				for (;;) {
					array.push(parseValue());
					skipWhitespaceAndComments();
					const c = text[pos];
					if (c === ',') {
						pos++;
						skipWhitespaceAndComments();
						if (text[pos] === ']') {
							pos++;
							depth--;
							return array;
						}
					} else if (c === ']') {
						pos++;
						depth--;
						return array;
					} else {
						fail(PARSE_ERRORS.arrayMissCommaOrSquareBracket);
					}
				}
			}
			default:
				return parseNumber();
		}
	};

	try {
		skipWhitespaceAndComments();
		if (pos >= text.length) fail(PARSE_ERRORS.documentEmpty);
		const value = parseValue();
		skipWhitespaceAndComments();
		if (pos < text.length) fail(PARSE_ERRORS.rootNotSingular);
		return {ok: true, value};
	} catch (error) {
		if (error instanceof ParseFailure) return {ok: false, error: error.reason, offset: error.offset};
		throw error;
	}
}

/** A JSON object (not array, not null), as rapidjson's IsObject(). */
export function isJsonObject(value: ParsedJson | undefined): value is {[key: string]: ParsedJson} {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JsonDouble);
}
