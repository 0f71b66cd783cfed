/**
 * The pending changes of the config view: path → before/after, checked against the schema when made,
 * turned into the edited text, listed as diff lines (secrets masked), and the `PATH=VALUE` parser of
 * `rigtop config set`.
 */
import {ConfigDocument, ConfigPathError} from './document.js';
import {formatPath, isPrefix, jsonEqual, samePath, showPath, showValue} from './json-values.js';
import {acceptsString, isApiGuarded, isSecret, nextInCycle, stepNumber, validate} from './schema.js';
import {SECRET_MASK} from './types.js';
import type {ConfigPath, JsonValue} from './types.js';
import {jsonText} from '../text/json-out.js';

export type ConfigEdit = {
	readonly path: ConfigPath;
	/** Dotted form, e.g. `cpu.huge-pages`. */
	readonly id: string;
	/** The value in the document the edits started from; undefined for a key that is new. */
	readonly before: JsonValue | undefined;
	readonly after: JsonValue;
	readonly secret: boolean;
	/** The change can cut rigtop off from the miner's API (the UI asks twice). */
	readonly guarded: boolean;
};

export type EditOutcome = {readonly ok: true; readonly edits: PendingEdits} | {readonly ok: false; readonly message: string};

/** The text shown for a secret that changed. */
export const SECRET_CHANGED = `${SECRET_MASK} (changed)`;

/** A value with every secret in it (at any depth, e.g. a whole pool object) replaced by the mask. Null secrets stay null. */
export function maskSecrets(path: ConfigPath, value: JsonValue): JsonValue {
	if (isSecret(path)) return value === null ? null : SECRET_MASK;
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return (value as readonly JsonValue[]).map((item, index) => maskSecrets([...path, index], item));
	const masked: Record<string, JsonValue> = {};
	for (const [key, item] of Object.entries(value as {readonly [key: string]: JsonValue})) {
		Object.defineProperty(masked, key, {value: maskSecrets([...path, key], item), enumerable: true, writable: true, configurable: true});
	}

	return masked;
}

/** A value for display: JSON text with secrets masked (a null secret shows as null: there is none). */
export function displayValue(path: ConfigPath, value: JsonValue | undefined): string {
	if (value === undefined) return showValue(value);
	if (isSecret(path) && value !== null) return SECRET_MASK;
	return showValue(maskSecrets(path, value));
}

/** One diff line: `cpu.huge-pages: true → false`; a secret shows only `•••••••• (changed)`. */
export function diffLine(edit: Pick<ConfigEdit, 'path' | 'id' | 'before' | 'after' | 'secret'>): string {
	if (edit.secret) return `${showPath(edit.id)}: ${SECRET_CHANGED}`;
	return `${showPath(edit.id)}: ${displayValue(edit.path, edit.before)} → ${displayValue(edit.path, edit.after)}`;
}

/**
 * An immutable set of pending edits over one base document. Every change returns a new set. Setting
 * a key back to its original value drops the edit, so the edited text is then byte-identical again.
 */
export class PendingEdits {
	/** Edits hold raw values, secrets included: a log, JSON dump or inspect shows only their count. */
	toJSON(): string {
		return `[${this.size} pending config edits]`;
	}

	[Symbol.for('nodejs.util.inspect.custom')](): string {
		return `PendingEdits [${this.size} pending]`;
	}

	readonly base: ConfigDocument;
	readonly #edits: readonly ConfigEdit[];
	#text: string | undefined;

	constructor(base: ConfigDocument | string, edits: readonly ConfigEdit[] = []) {
		this.base = typeof base === 'string' ? new ConfigDocument(base) : base;
		this.#edits = edits;
	}

	get size(): number {
		return this.#edits.length;
	}

	/** Whether any pending change can cut rigtop off from the miner's API. */
	get hasGuarded(): boolean {
		return this.#edits.some((edit) => edit.guarded);
	}

	list(): readonly ConfigEdit[] {
		return this.#edits;
	}

	get(path: ConfigPath): ConfigEdit | undefined {
		return this.#edits.find((edit) => samePath(edit.path, path));
	}

	isChanged(path: ConfigPath): boolean {
		return this.get(path) !== undefined;
	}

	/** The current (edited) value of a key. */
	valueOf(path: ConfigPath): JsonValue | undefined {
		const edit = this.get(path);
		return edit ? edit.after : this.base.get(path);
	}

	/**
	 * Sets a key, after checking the value (type, range). A path that overlaps another pending edit
	 * (a parent or child of it) is refused: change one level at a time.
	 */
	set(path: ConfigPath, value: JsonValue): EditOutcome {
		const before = this.base.get(path);
		const problem = validate(path, value, before);
		if (problem) return {ok: false, message: problem};
		const overlapping = this.#edits.find((edit) => !samePath(edit.path, path) && (isPrefix(edit.path, path) || isPrefix(path, edit.path)));
		if (overlapping)
			return {
				ok: false,
				message: `${showPath(path)} overlaps the pending change to ${showPath(overlapping.id)}; apply or discard that first`,
			};
		if (before === undefined) {
			try {
				this.base.set(path, value);
			} catch (error) {
				if (error instanceof ConfigPathError) return {ok: false, message: error.message};
				throw error;
			}
		}

		const rest = this.#edits.filter((edit) => !samePath(edit.path, path));
		if (jsonEqual(before, value)) return {ok: true, edits: new PendingEdits(this.base, rest)};
		const edit: ConfigEdit = {path, id: formatPath(path), before, after: value, secret: isSecret(path), guarded: isApiGuarded(path)};
		const index = this.#edits.findIndex((item) => samePath(item.path, path));
		const next = index === -1 ? [...this.#edits, edit] : this.#edits.map((item, position) => (position === index ? edit : item));
		return {ok: true, edits: new PendingEdits(this.base, next)};
	}

	/** Space: flips a boolean, or moves a key with a known set of values to the next one. */
	toggle(path: ConfigPath, direction: 1 | -1 = 1): EditOutcome {
		const next = nextInCycle(path, this.valueOf(path), direction);
		if (next === undefined) return {ok: false, message: `${showPath(path)} has no set of values to cycle through; edit it instead`};
		return this.set(path, next);
	}

	/** `+` / `-`: steps a number, clamped to the key's range. */
	step(path: ConfigPath, delta: number): EditOutcome {
		const next = stepNumber(path, this.valueOf(path), delta);
		if (next === undefined) return {ok: false, message: `${showPath(path)} is not a number`};
		return this.set(path, next);
	}

	/** Drops the change to one key, or every change. */
	discard(path?: ConfigPath): PendingEdits {
		if (!path) return new PendingEdits(this.base);
		return new PendingEdits(
			this.base,
			this.#edits.filter((edit) => !samePath(edit.path, path)),
		);
	}

	/** The base text with every pending edit applied in place. */
	text(): string {
		this.#text ??= applyEditsToText(this.base.text, this.#edits);
		return this.#text;
	}

	/** The edited document. */
	document(): ConfigDocument {
		return new ConfigDocument(this.text());
	}

	/** The diff of every pending change, one line each, secrets masked. */
	diffLines(): string[] {
		return this.#edits.map((edit) => diffLine(edit));
	}
}

/** Applies edits (path → after) to a text in place; every other byte stays as it was. */
export function applyEditsToText(text: string, edits: readonly Pick<ConfigEdit, 'path' | 'after'>[]): string {
	let current = text;
	for (const edit of edits) current = new ConfigDocument(current).set(edit.path, edit.after);
	return current;
}

/** A `PATH=VALUE` argument of `rigtop config set`. */
export type Assignment = {readonly path: string; readonly value: JsonValue; readonly raw: string};

/** A bad `PATH=VALUE` argument. */
export class AssignmentError extends Error {
	override readonly name = 'AssignmentError';
}

/**
 * Parses `PATH=VALUE`. VALUE is read as JSON when it parses (`true`, `null`, `30`, `"x"`, `[0,1]`),
 * else taken as a plain string (`fast`, `pool.example.org:3333`).
 */
export function parseAssignment(argument: string): Assignment {
	const at = argument.indexOf('=');
	if (at <= 0) throw new AssignmentError(`expected PATH=VALUE (e.g. cpu.huge-pages=false), got ${jsonText(argument.slice(0, 60))}`);
	const path = argument.slice(0, at).trim();
	const raw = argument.slice(at + 1);
	if (path === '' || path.split('.').some((part) => part === ''))
		throw new AssignmentError(`${jsonText(path)} is not a key path (e.g. pools.0.tls)`);
	let value: JsonValue;
	try {
		value = JSON.parse(raw) as JsonValue;
	} catch {
		value = raw;
	}

	return {path, value, raw};
}

/**
 * The value an assignment means for a key: a VALUE that parsed as a number or boolean for a key that
 * takes a string but not that type (`pools.0.rig-id=123`) is the string as typed.
 */
export function assignmentValue(path: ConfigPath, assignment: Assignment, current: JsonValue | undefined): JsonValue {
	const {value, raw} = assignment;
	if (typeof value === 'string' || value === null) return value;
	if (validate(path, value, current) === null) return value;
	return acceptsString(path, current) ? raw : value;
}
