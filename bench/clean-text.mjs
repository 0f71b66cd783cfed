#!/usr/bin/env node
// The text boundary's cost (source/text/clean.ts): cleanText runs on every string of every poll of every miner, so
// its price per call matters. Prints ns per call, median of 7 rounds, for a typical worker name (20 ASCII
// characters: the fast path, one regex test), a Cyrillic name, an emoji name, and a hostile 200-character string
// (escape sequences, bidi controls, zero-width characters, look-alike letters); then ms per call for 1 MB hostile strings
// (a run of tag characters, after a letter and after 🏴; a run of OSC openers) through cleanText, and through
// escapeUnsafe (the JSON and logfmt writers' pass over a whole document). A figure for people, not judged by the
// runner: `node bench/clean-text.mjs` (docs/performance.md, "Issue 36").
import process from 'node:process';
import {bundleEntry, median, round} from './lib.mjs';

const entry = await bundleEntry('source/text/clean.ts');
const {cleanText} = await import(entry);
const {escapeUnsafe} = await import(await bundleEntry('source/text/escape.ts'));

const hostile =
	`${'wk\u001B]52;c;SEFDS0VE\u0007\u001B]0;PWNTITLE\u0007 6.26.0\u001B[2J\u001B[H\u009B31m r\u0456g-01\u200B \u202Eevil\u2066 👨‍👩‍👧 '.repeat(3)}`.slice(
		0,
		200,
	);
const cases = {
	'ASCII name (20 chars)': 'rig-01.example-farm1',
	'Cyrillic name (12 chars)': 'ферма-01-юг',
	'emoji name (15 chars)': 'rig 👨‍👩‍👧 ❤️ 01',
	'hostile (200 chars)': hostile,
};

const rounds = 7;
const calls = Number(process.env['CLEAN_CALLS'] ?? 200_000);
let sink = 0;
for (const [name, text] of Object.entries(cases)) {
	const each = [];
	for (let round_ = 0; round_ < rounds; round_++) {
		const start = process.hrtime.bigint();
		for (let i = 0; i < calls; i++) sink += cleanText(text).length;
		each.push(Number(process.hrtime.bigint() - start) / calls);
	}

	console.log(`${name}: ${round(median(each), 0)} ns per call (median of ${rounds} rounds of ${calls})`);
}

// 1 MB (in UTF-16 code units) hostile strings: each must cost about what a short one does (cleanText reads 4 × max
// code units at most), or one linear pass (escapeUnsafe).
const tags = '\u{E0061}'.repeat(2 ** 19);
const large = {
	'1 MB tag run after a letter': `rig${tags}`,
	'1 MB tag run after 🏴': `🏴${tags}`,
	'1 MB of OSC openers': '\u001B]0;'.repeat(2 ** 18),
};
const largeRounds = Number(process.env['CLEAN_LARGE_ROUNDS'] ?? 5);
for (const [name, text] of Object.entries(large)) {
	for (const [writer, run] of [
		['cleanText', () => cleanText(text)],
		['escapeUnsafe', () => escapeUnsafe(text)],
	]) {
		const each = [];
		for (let round_ = 0; round_ < largeRounds; round_++) {
			const start = process.hrtime.bigint();
			sink += run().length;
			each.push(Number(process.hrtime.bigint() - start) / 1e6);
		}

		console.log(`${name}, ${writer}: ${round(median(each), 2)} ms per call (median of ${largeRounds})`);
	}
}

if (sink === 0) console.log('');
