#!/usr/bin/env node
// The baseline of the steady and fleet benchmarks: a bare node:http script that polls what rigtop polls — the
// summary and the per-thread document (/2/summary and /2/backends) of each miner, or with --summary-only the summary
// alone (what the fleet view reads for rigs whose dashboard is not open), with the token — every INTERVAL seconds,
// parses the JSON and draws nothing.
//
//   node bench/bare-poller.mjs INTERVAL_SECONDS TOKEN_FILE|- [--summary-only] URL…
import {readFileSync} from 'node:fs';
import http from 'node:http';
import process from 'node:process';
import {setInterval} from 'node:timers';

const [intervalText, tokenFile, ...rest] = process.argv.slice(2);
const summaryOnly = rest[0] === '--summary-only';
const urls = summaryOnly ? rest.slice(1) : rest;
const token = tokenFile === '-' ? null : readFileSync(tokenFile, 'utf8').trim();
const headers = token === null ? {} : {authorization: `Bearer ${token}`};
let answered = 0;

function get(url) {
	return new Promise((resolve) => {
		const request = http.get(url, {headers}, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => {
				try {
					JSON.parse(Buffer.concat(chunks).toString('utf8'));
					answered++;
				} catch {
					// counted as not answered
				}

				resolve();
			});
		});
		request.on('error', () => resolve());
	});
}

const poll = async () => {
	await Promise.all(urls.flatMap((url) => (summaryOnly ? [get(`${url}/2/summary`)] : [get(`${url}/2/summary`), get(`${url}/2/backends`)])));
};

await poll();
setInterval(poll, Number(intervalText) * 1000);
process.on('SIGTERM', () => {
	process.stdout.write(`${JSON.stringify({answered})}\n`);
	process.exit(0);
});
