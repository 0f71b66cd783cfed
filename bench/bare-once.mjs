#!/usr/bin/env node
// The baseline of the start and --once benchmarks: a bare node:http script that makes the single request
// `rigtop --once --json URL --token-file FILE` stands for (GET URL/2/summary with the token) and prints the body.
//
//   node bench/bare-once.mjs URL TOKEN_FILE
import {readFileSync} from 'node:fs';
import http from 'node:http';
import process from 'node:process';

const [url, tokenFile] = process.argv.slice(2);
const token = readFileSync(tokenFile, 'utf8').trim();
http.get(`${url}/2/summary`, {headers: {authorization: `Bearer ${token}`}}, (response) => {
	const chunks = [];
	response.on('data', (chunk) => chunks.push(chunk));
	response.on('end', () => {
		process.stdout.write(`${Buffer.concat(chunks).toString('utf8')}\n`);
	});
});
