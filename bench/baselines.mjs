// Pieces of the benchmarks that hold logic of their own, kept apart from bench/lib.mjs (which loads esbuild and the
// build's settings) so the unit tests can import them: finding a baseline program (btop, htop) on PATH, btop's scratch
// config, and the reading of an RSS curve.
import {accessSync, constants, mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';

/** Bytes in a megabyte: every RSS figure of the benchmarks is in MB of 10^6 bytes (the goals' unit). */
export const MB = 1e6;

/** The full path of an executable `name` on `PATH` (as the shell finds it), or null when there is none. */
export function commandPath(name, envPath = process.env.PATH ?? '') {
	for (const dir of envPath.split(path.delimiter)) {
		if (dir === '') continue;
		const file = path.join(dir, name);
		try {
			accessSync(file, constants.X_OK);
			return file;
		} catch {
			// not here
		}
	}

	return null;
}

/**
 * Writes btop's config into `configHome`/btop/btop.conf (btop reads `$XDG_CONFIG_HOME/btop/btop.conf`, else
 * `~/.config/btop/btop.conf`): btop's own defaults but `update_ms`, the time between its updates (its default is
 * 2000). Returns the file's path; run btop with XDG_CONFIG_HOME=`configHome` (btopEnv) to have it read it.
 */
export function writeBtopConfig(configHome, updateMs) {
	if (!Number.isInteger(updateMs) || updateMs < 100) throw new Error(`btop's update_ms is a whole number of ms from 100, not ${updateMs}`);
	const dir = path.join(configHome, 'btop');
	mkdirSync(dir, {recursive: true});
	const file = path.join(dir, 'btop.conf');
	writeFileSync(file, `#? Written by rigtop's benchmarks: btop's defaults but the update time.\nupdate_ms = ${updateMs}\n`);
	return file;
}

/**
 * The environment btop and htop run in for a benchmark: their config home a scratch folder (btop's config written
 * there, and neither writes into the user's on exit), and a UTF-8 locale (btop refuses to start without one).
 */
export function monitorEnv(configHome, env = process.env) {
	const utf8 = /utf-?8/i.test(env.LC_ALL || env.LC_CTYPE || env.LANG || '');
	return {...env, XDG_CONFIG_HOME: configHome, ...(utf8 ? {} : {LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8'})};
}

/** The update time btop's header shows ("- 1000ms +"), read from what it wrote to its terminal; null before it drew one. */
export function btopShownUpdateMs(output) {
	// eslint-disable-next-line no-control-regex -- the header is drawn with escape sequences between its parts
	const text = String(output).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
	const shown = [...text.matchAll(/- ?(\d+)ms ?\+/g)].at(-1);
	return shown ? Number(shown[1]) : null;
}

/**
 * Reads an RSS curve: `samples` are {at: ms since start, rss: bytes}, in time order. Returns, in MB, the first, last
 * and highest readings, and the creep: the slope of the least-squares line through the readings taken from
 * `warmupMs` on, in MB a minute (the rise the first minutes' growth would hide in an end-minus-start figure).
 */
export function rssCurve(samples, warmupMs = 0) {
	if (samples.length === 0) throw new Error('no RSS readings');
	const mb = (bytes) => bytes / MB;
	const settled = samples.filter((sample) => sample.at >= warmupMs);
	const points = settled.length >= 2 ? settled : samples.slice(-2);
	const n = points.length;
	const meanX = points.reduce((sum, point) => sum + point.at, 0) / n;
	const meanY = points.reduce((sum, point) => sum + point.rss, 0) / n;
	let covariance = 0;
	let variance = 0;
	for (const point of points) {
		covariance += (point.at - meanX) * (point.rss - meanY);
		variance += (point.at - meanX) ** 2;
	}

	const bytesPerMs = variance === 0 ? 0 : covariance / variance;
	return {
		start: mb(samples[0].rss),
		end: mb(samples.at(-1).rss),
		max: mb(Math.max(...samples.map((sample) => sample.rss))),
		creepPerMinute: mb(bytesPerMs * 60_000),
		creepFrom: points[0].at,
		readings: samples.length,
	};
}
