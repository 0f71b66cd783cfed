/**
 * The errors every command shares, which decide how rigtop exits (cli.tsx): bad usage is exit 2 with a pointer
 * to --help, nothing to watch is exit 1 with the whole explanation. Below the commands, so that any layer can
 * throw them (the session's targets and rigs file, the exporter's addresses and web config); kept free of imports,
 * so the entry can match them by type without loading anything else.
 */

/** A mistake in what the user gave rigtop (flags, files, addresses, tokens): shown as is, with no stack. */
export class UsageError extends Error {
	override readonly name = 'UsageError';
}

/** Nothing to watch was found; the message is the whole multi-line explanation (what was looked at, how to turn the API on). */
export class NothingToWatchError extends Error {
	override readonly name = 'NothingToWatchError';
}
