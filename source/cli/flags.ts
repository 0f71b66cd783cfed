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
	interval: {type: 'number', shortFlag: 'i', default: 2},
	demo: {type: 'boolean', default: false},
	once: {type: 'boolean', default: false},
	json: {type: 'boolean', default: false},
	readOnly: {type: 'boolean', default: false},
	yes: {type: 'boolean', default: false},
	add: {type: 'boolean', default: false},
	color: {type: 'boolean', default: true},
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
};
