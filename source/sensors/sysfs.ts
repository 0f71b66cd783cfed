/**
 * The kernel's sysfs as the sensor reader sees it: a root (default /sys, RIGTOP_SYSFS or an option in tests and the
 * demo), text reads that never throw, and paths shown as a user would `cat` them (under /sys even when the root moved).
 */
import {readdir, readFile} from 'node:fs/promises';
import path from 'node:path';

/** Where sysfs is read: the option, else RIGTOP_SYSFS, else /sys. */
export function sysfsRoot(option?: string): string {
	const root = option ?? process.env['RIGTOP_SYSFS'];
	return root === undefined || root === '' ? '/sys' : root;
}

/** Reads one file's text; replaceable in tests (as root, a file's mode does not stop a read). */
export type ReadText = (file: string) => Promise<string>;

export const readText: ReadText = async (file) => readFile(file, 'utf8');

/** The outcome of one read: its text trimmed, or the error's code (ENOENT, EACCES…). */
export type ReadResult = {readonly ok: true; readonly text: string} | {readonly ok: false; readonly code: string};

export class Sysfs {
	readonly root: string;
	readonly #read: ReadText;

	constructor(root: string, read: ReadText = readText) {
		this.root = root;
		this.#read = read;
	}

	/** The absolute path of `relative` ("class/hwmon/hwmon0/temp1_input") under the root. */
	resolve(relative: string): string {
		return path.join(this.root, relative);
	}

	/** The path as a user would cat it: "/sys/class/hwmon/hwmon0/temp1_input". */
	shown(relative: string): string {
		return path.posix.join('/sys', relative);
	}

	async read(relative: string): Promise<ReadResult> {
		try {
			return {ok: true, text: (await this.#read(this.resolve(relative))).trim()};
		} catch (error) {
			const code = (error as NodeJS.ErrnoException | undefined)?.code;
			return {ok: false, code: typeof code === 'string' ? code : 'EIO'};
		}
	}

	/** The file's text, or null where it cannot be read. */
	async text(relative: string): Promise<string | null> {
		const result = await this.read(relative);
		return result.ok ? result.text : null;
	}

	/** The file's integer, or null where it cannot be read or is not one. */
	async integer(relative: string): Promise<number | null> {
		const text = await this.text(relative);
		if (text === null || !/^-?\d+$/.test(text)) return null;
		return Number(text);
	}

	/** A folder's entries (symlinks included, as /sys/class/* holds them), sorted naturally; empty where it cannot be read. */
	async list(relative: string): Promise<string[]> {
		try {
			const names = await readdir(this.resolve(relative));
			return names.sort(naturalCompare);
		} catch {
			return [];
		}
	}
}

/**
 * sysfs names in natural order ("hwmon2" before "hwmon10", "cpu9" before "cpu10"): runs of digits compare as numbers,
 * the rest by code unit. Written here rather than with localeCompare, whose first call with options loads ICU's
 * collation data: 13 ms of every local `--once` on Node 22 (docs/performance.md), for names that are ASCII.
 */
export function naturalCompare(a: string, b: string): number {
	const chunks = /(\d+)|(\D+)/g;
	const left = a.match(chunks) ?? [];
	const right = b.match(chunks) ?? [];
	for (let i = 0; i < Math.min(left.length, right.length); i++) {
		const x = left[i]!;
		const y = right[i]!;
		if (x === y) continue;
		const xDigits = x.charCodeAt(0) >= 48 && x.charCodeAt(0) <= 57;
		const yDigits = y.charCodeAt(0) >= 48 && y.charCodeAt(0) <= 57;
		if (xDigits && yDigits) {
			const byNumber = Number(x) - Number(y);
			if (byNumber !== 0) return byNumber;
		}

		return x < y ? -1 : 1;
	}

	return left.length - right.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** A kernel CPU list ("0-7,16-23", "3", "") as CPU numbers, ascending. Anything malformed is left out. */
export function parseCpuList(text: string): number[] {
	const cpus = new Set<number>();
	for (const part of text.trim().split(',')) {
		const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
		if (!match) continue;
		const from = Number(match[1]);
		const to = match[2] === undefined ? from : Number(match[2]);
		for (let cpu = from; cpu <= to && cpu - from < 4096; cpu++) cpus.add(cpu);
	}

	return [...cpus].sort((a, b) => a - b);
}

/** "cpu{0-7,16-23}": a set of CPUs as the pattern the `file` fields show. */
export function cpuPattern(cpus: readonly number[]): string {
	const ranges: string[] = [];
	let start: number | undefined;
	let previous: number | undefined;
	const flush = () => {
		if (start === undefined || previous === undefined) return;
		ranges.push(start === previous ? String(start) : `${start}-${previous}`);
	};

	for (const cpu of cpus) {
		if (previous !== undefined && cpu === previous + 1) {
			previous = cpu;
			continue;
		}

		flush();
		start = cpu;
		previous = cpu;
	}

	flush();
	return ranges.length === 1 && !ranges[0]?.includes('-') ? `cpu${ranges[0]}` : `cpu{${ranges.join(',')}}`;
}
