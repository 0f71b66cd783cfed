/**
 * Writes JSON exactly the way XMRig's bundled rapidjson PrettyWriter does: 4-space indent, `"key": value`,
 * empty containers as `{}` / `[]`, doubles always with a decimal point (`0.0`), at most 10 decimals,
 * control characters escaped as `\u001F` (upper-case hex), `/` and non-ASCII left as is.
 *
 * 6.x (and 5.x) set kFormatSingleLineArray with XMRig's patch: scalars inside an array stay on one line
 * (`[1.27, 1.12, 0.51]`) while objects and arrays inside an array each start a new line. 2.x used the
 * plain PrettyWriter: every array element on its own line.
 */

/** A number rapidjson holds as a double: written with a decimal point even when integral (`0.0`). */
export class JsonDouble {
	constructor(readonly value: number) {}
}

export type JsonValue = null | boolean | number | string | JsonDouble | readonly JsonValue[] | JsonObject;
/** Members are written in insertion order; an `undefined` member is left out. */
export type JsonObject = {readonly [key: string]: JsonValue | undefined};

export type JsonStyle = {
	/** 6.x/5.x: scalars in arrays on one line. 2.x: one element per line. */
	readonly singleLineArrays: boolean;
};

export const STYLE_6: JsonStyle = {singleLineArrays: true};
export const STYLE_2: JsonStyle = {singleLineArrays: false};

type Level = {readonly inArray: boolean; count: number; inLine: boolean};

export function writeJson(value: JsonValue, style: JsonStyle): string {
	const out: string[] = [];
	const stack: Level[] = [];
	const indent = (): string => '    '.repeat(stack.length);

	const prefix = (container: boolean): void => {
		const level = stack.at(-1);
		if (!level) return;
		if (level.inArray) {
			level.inLine = style.singleLineArrays && !container;
			if (level.count > 0) out.push(level.inLine ? ', ' : ',');
			if (!level.inLine) out.push('\n', indent());
		} else {
			if (level.count === 0) out.push('\n');
			else out.push(level.count % 2 === 0 ? ',\n' : ': ');
			if (level.count % 2 === 0) out.push(indent());
		}
		level.count++;
	};

	const visit = (node: JsonValue): void => {
		if (Array.isArray(node)) {
			prefix(true);
			stack.push({inArray: true, count: 0, inLine: false});
			out.push('[');
			for (const element of node as readonly JsonValue[]) visit(element);
			const level = stack.pop()!;
			if (level.count > 0 && !level.inLine) out.push('\n', indent());
			out.push(']');
			return;
		}
		if (node !== null && typeof node === 'object' && !(node instanceof JsonDouble)) {
			prefix(true);
			stack.push({inArray: false, count: 0, inLine: false});
			out.push('{');
			for (const [key, member] of Object.entries(node as JsonObject)) {
				if (member === undefined) continue;
				prefix(false);
				out.push(writeString(key));
				visit(member);
			}
			const level = stack.pop()!;
			if (level.count > 0) out.push('\n', indent());
			out.push('}');
			return;
		}
		prefix(false);
		out.push(writeScalar(node));
	};

	visit(value);
	return out.join('');
}

function writeScalar(value: null | boolean | number | string | JsonDouble): string {
	if (value === null) return 'null';
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'string') return writeString(value);
	if (value instanceof JsonDouble) return writeDouble(value.value);
	return Number.isInteger(value) ? String(value) : writeDouble(value);
}

/** rapidjson's Grisu output through Prettify with maxDecimalPlaces 10 (digits past the 10th are cut, not rounded). */
export function writeDouble(value: number): string {
	if (!Number.isFinite(value)) return 'null';
	let text = String(value);
	if (text.includes('e')) return text.replace('e+', 'e');
	if (!text.includes('.')) return `${text}.0`;
	const [whole, fraction = ''] = text.split('.') as [string, string?];
	if (fraction.length > 10) {
		const cut = fraction.slice(0, 10).replace(/0+$/, '');
		text = `${whole}.${cut === '' ? '0' : cut}`;
	}
	return text;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
	0x08: '\\b',
	0x09: '\\t',
	0x0a: '\\n',
	0x0c: '\\f',
	0x0d: '\\r',
	0x22: '\\"',
	0x5c: '\\\\',
};

export function writeString(value: string): string {
	let out = '"';
	let start = 0;
	for (let i = 0; i < value.length; i++) {
		const code = value.charCodeAt(i);
		if (code >= 0x20 && code !== 0x22 && code !== 0x5c) continue;
		out += value.slice(start, i);
		out += SHORT_ESCAPES[code] ?? `\\u00${code.toString(16).toUpperCase().padStart(2, '0')}`;
		start = i + 1;
	}
	return `${out}${value.slice(start)}"`;
}
