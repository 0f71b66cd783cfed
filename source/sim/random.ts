/**
 * Seeded randomness for the simulated miner: the same seed and the same sequence of simulated
 * seconds give the same numbers, so tests that pass a seed see the same rig every run.
 */

export type Random = {
	/** Uniform in [0, 1). */
	next(): number;
	/** Uniform in (0, 1]: safe to divide by or take the log of. */
	positive(): number;
	/** Uniform integer in [min, max]. */
	int(min: number, max: number): number;
	/** Standard normal (mean 0, sd 1). */
	normal(): number;
	/** How many events of a Poisson process with mean `lambda` happen. */
	poisson(lambda: number): number;
	/** Exponential waiting time with the given mean. */
	exponential(mean: number): number;
};

/** sfc32 seeded through splitmix32: fast, small state, good enough for a simulation. */
export function createRandom(seed: number): Random {
	let state = seed >>> 0;
	const splitmix = (): number => {
		state = (state + 0x9e3779b9) >>> 0;
		let z = state;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
		return (z ^ (z >>> 16)) >>> 0;
	};
	let a = splitmix();
	let b = splitmix();
	let c = splitmix();
	let d = splitmix();
	const next = (): number => {
		a >>>= 0;
		b >>>= 0;
		c >>>= 0;
		d >>>= 0;
		let t = (a + b) | 0;
		a = b ^ (b >>> 9);
		b = (c + (c << 3)) | 0;
		c = (c << 21) | (c >>> 11);
		d = (d + 1) | 0;
		t = (t + d) | 0;
		c = (c + t) | 0;
		return (t >>> 0) / 4294967296;
	};
	for (let i = 0; i < 12; i++) next();

	const random: Random = {
		next,
		positive: () => 1 - next(),
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		normal: () => {
			const u = 1 - next();
			const v = next();
			return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
		},
		poisson: (lambda) => {
			if (!(lambda > 0)) return 0;
			if (lambda > 40) {
				// Normal approximation: plenty for share counts over long skipped spans.
				return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * random.normal()));
			}
			const limit = Math.exp(-lambda);
			let k = 0;
			let p = next();
			while (p > limit) {
				k++;
				p *= next();
			}
			return k;
		},
		exponential: (mean) => -Math.log(1 - next()) * mean,
	};
	return random;
}

/** A seed from the wall clock, for runs that did not ask for one. */
export function randomSeed(): number {
	return (Date.now() ^ (process.pid << 16) ^ Math.floor(Math.random() * 0xffffffff)) >>> 0;
}
