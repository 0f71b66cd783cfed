/**
 * What differs between the XMRig API generations the simulator speaks. Everything version-dependent
 * inside one dialect (a field that appeared in 6.2.3, /2/dmi in 6.8.0 ...) is decided from the version.
 */
import {STYLE_2, STYLE_6, type JsonStyle} from './json-writer.js';

export type SimDialect = '6' | '5' | '2' | '2.14';

export const SIM_DIALECTS: readonly SimDialect[] = ['6', '5', '2', '2.14'];

export function isSimDialect(value: string): value is SimDialect {
	return (SIM_DIALECTS as readonly string[]).includes(value);
}

export const DEFAULT_VERSIONS: Readonly<Record<SimDialect, string>> = {
	'6': '6.26.0',
	'5': '5.11.4',
	'2': '2.16.0-beta',
	'2.14': '2.14.4',
};

export type DialectInfo = {
	readonly dialect: SimDialect;
	readonly version: string;
	/** '6','5': the 2.99+ API with /2/*, /json_rpc. */
	readonly modern: boolean;
	/** 2.15.1+ custom HTTP server (llhttp / http-parser); false for the libmicrohttpd era. */
	readonly newServer: boolean;
	/** llhttp 9 (6.23+) reason phrases: NOT_FOUND; otherwise title case: Not Found. */
	readonly upperSnakeReasons: boolean;
	/** A window with samples but no progress reads 0.0 (6.22.2+) instead of null. */
	readonly zeroWindowIsZero: boolean;
	readonly json: JsonStyle;
	readonly corsMethods: string;
};

/** Compares dotted versions numerically, ignoring suffixes such as "-beta": -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
	const parts = (v: string): number[] =>
		v
			.split('-')[0]!
			.split('.')
			.map((p) => Number.parseInt(p, 10) || 0);
	const pa = parts(a);
	const pb = parts(b);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return d < 0 ? -1 : 1;
	}
	return 0;
}

export function atLeast(version: string, minimum: string): boolean {
	return compareVersions(version, minimum) >= 0;
}

export function dialectInfo(dialect: SimDialect, version: string = DEFAULT_VERSIONS[dialect]): DialectInfo {
	const modern = dialect === '6' || dialect === '5';
	return {
		dialect,
		version,
		modern,
		newServer: dialect !== '2.14',
		upperSnakeReasons: dialect === '6' && atLeast(version, '6.23.0'),
		zeroWindowIsZero: dialect === '6' && atLeast(version, '6.22.2'),
		json: modern ? STYLE_6 : STYLE_2,
		corsMethods: dialect === '2.14' ? 'GET, PUT' : 'GET, PUT, POST, DELETE',
	};
}

const TITLE_REASONS: Readonly<Record<number, string>> = {
	100: 'Continue',
	200: 'OK',
	204: 'No Content',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	500: 'Internal Server Error',
};

/** The status text both in the status line and in the `"error"` member of error bodies. */
export function reasonPhrase(info: DialectInfo, status: number): string {
	const title = TITLE_REASONS[status] ?? 'Unknown';
	if (!info.upperSnakeReasons || status === 200) return title;
	return title.toUpperCase().replaceAll(' ', '_');
}
