/**
 * The usage of the batch commands (`rigtop pause`, `rigtop resume`, `rigtop config set … --rigs FILE`,
 * `rigtop config apply`, `rigtop config undo`), printed with a usage error and by `rigtop help pause`.
 */
export const BATCH_USAGE = [
	'Usage',
	'  $ rigtop pause [URL…|--rigs FILE]        pause each rig, its state read back',
	'  $ rigtop resume [URL…|--rigs FILE]       resume each rig, its state read back',
	'  $ rigtop config set PATH=VALUE… URL URL…|--rigs FILE',
	'                                           one change on every rig',
	'  $ rigtop config apply PATCH.json [URL…|--rigs FILE]',
	'                                           a JSON Merge Patch (RFC 7386) per rig',
	'  $ rigtop config undo [URL…|--rigs FILE]  put back what the last batch changed',
	'',
	'  Each rig gets what one rig gets: its own conflict check, backup, the whole',
	'  document with only this change, the read-back. In a patch, null removes a key,',
	"  objects merge, lists replace. --dry-run prints each rig's diff and changes",
	'  nothing; --parallel N rigs at once (default 8); --add adds keys a rig lacks;',
	'  --yes confirms http.*/api.* changes; Ctrl+C cancels (a rig already written is',
	"  read back). One line per rig, in the rigs file's order, then a summary as",
	"  Ansible's recap counts rigs:",
	'    5 rigs: ok=1 changed=2 skipped=1 failed=0 unreachable=1',
	'  ok: already so; changed: applied (or would change); skipped: not its change',
	"  (every key a miner's for a proxy, a proxy's for a miner, or a pause: even on a",
	"  restricted rig); a change of both kinds' keys: each rig takes its own and says",
	'  the others were not for it; failed: should have taken it and did not',
	'  (refused, restricted, a miner lacking the key, not read back). --json',
	"  prints one JSON document instead: each rig's url, name, result and error.",
	'',
	'  Exit codes, --dry-run too: 0 no rig failed, 1 a rig failed (or Ctrl+C),',
	'  2 bad usage, 3 none failed but a rig was unreachable.',
];

/** The usage, one line each, ending in a newline. */
export function batchHelp(): string {
	return `${BATCH_USAGE.join('\n')}\n`;
}
