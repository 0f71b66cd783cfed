/**
 * `rigtop history --help` (and `rigtop help history`): the history command's own usage, as `rigtop exporter --help`
 * prints the exporter's. Loaded only when asked for.
 */
const HISTORY_USAGE = [
	'Usage',
	'  $ rigtop history [URL] [--since 24h] [--until TIME] [--json | --csv]',
	'  $ rigtop history [URL] --worker NAME [--since 24h] [--json | --csv]',
	'  $ rigtop history --list',
	'',
	'  The stored polls and events of a miner (URL, --url, --config or the local',
	'  XMRig; without one running, the miner seen last). --since and --until take a',
	'  duration back from now (90m, 24h, 7d) or a date (2026-11-20 or',
	'  2026-11-20T22:00); default the last 24 hours. The polls of the last hour are',
	'  printed one by one, older times as min/avg/max summaries of 1 and 10 minutes.',
	"  In place of URL, a rig's name as --list shows it (its --rigs name, else",
	'  host:port; the worker id beside it) or its worker id.',
	'',
	'  For an xmrig-proxy: its polls (its 1m and 10m rates), with the workers stored',
	"  named; --worker NAME prints that worker's own polls (its 1m rate,",
	'  accepted/rejected/invalid shares) and its events.',
	'',
	'  Exit codes: 0 printed, 1 nothing stored for that miner (or no store),',
	'  2 bad usage.',
];

/** The usage, one line each, ending in a newline. */
export function historyHelp(): string {
	return `${HISTORY_USAGE.join('\n')}\n`;
}
