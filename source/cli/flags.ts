/** rigtop's flags: what meow parses, and what checkArgv checks the command line against first. */
export const FLAGS = {
	url: {type: 'string', isMultiple: true},
	rigs: {type: 'string'},
	bell: {type: 'boolean', default: false},
	onAlert: {type: 'string'},
	pausedAlert: {type: 'string'},
	tokenFile: {type: 'string'},
	token: {type: 'string'},
	config: {type: 'string', shortFlag: 'c'},
	where: {type: 'boolean', default: false},
	// No default here: the live view polls every 2 s, the exporter every 10 s (cli/options.ts).
	interval: {type: 'number', shortFlag: 'i'},
	demo: {type: 'boolean', default: false},
	once: {type: 'boolean', default: false},
	json: {type: 'boolean', default: false},
	readOnly: {type: 'boolean', default: false},
	yes: {type: 'boolean', default: false},
	add: {type: 'boolean', default: false},
	// The batch commands' (rigtop pause, resume, config set --rigs, config apply, config undo).
	dryRun: {type: 'boolean', default: false},
	parallel: {type: 'number'},
	color: {type: 'boolean', default: true},
	history: {type: 'boolean', default: true},
	since: {type: 'string'},
	until: {type: 'string'},
	csv: {type: 'boolean', default: false},
	list: {type: 'boolean', default: false},
	// Also spelt --web.listen-address, and --web.config.file, as Prometheus's exporters do (cli/argv.ts).
	listen: {type: 'string', isMultiple: true},
	metrics: {type: 'string'},
	metricsTokenFile: {type: 'string'},
	webConfigFile: {type: 'string'},
	// Also spelt --log.format and --log.level, as Prometheus's own components do (cli/argv.ts).
	logFormat: {type: 'string'},
	// No default: only `--no-thread-metrics` (rigtop exporter) sets it.
	threadMetrics: {type: 'boolean'},
	logLevel: {type: 'string'},
} as const;

export const VALUE_HINTS = {
	url: 'a miner address, host:port',
	rigs: 'a JSON file listing the rigs',
	onAlert: 'the command to run on an alert',
	pausedAlert: 'a duration such as 10m; 0 never',
	tokenFile: "a file holding the miner's access token",
	token: "the miner's access token; --token-file keeps it out of the process list",
	config: "the miner's config file",
	interval: 'seconds between polls, e.g. -i 2',
	parallel: 'how many rigs at once, e.g. --parallel 8',
	since: 'a duration back from now such as 24h, or a date',
	until: 'a duration back from now such as 2h, or a date',
	listen: 'the address /metrics listens on, host:port or :port',
	metrics: 'the address /metrics listens on, host:port or :port',
	metricsTokenFile: 'a file holding the token /metrics wants',
	webConfigFile: 'a web config file: TLS and basic auth, as for node_exporter',
	logFormat: 'logfmt or json',
	logLevel: 'debug, info, warn or error',
};
