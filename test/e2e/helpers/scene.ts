import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, beforeEach} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../../source/sim/simulator.js';
import {cliIsBuilt, TmuxTerminal} from './tmux.js';

/**
 * What one e2e test runs against, made fresh for each test by `sceneForEachTest`: `dir` is its own temporary folder,
 * `simulate` starts simulated miners (all at once, in the order given), `rigsFile` writes `dir`/rigs.json (and, given a
 * token, `dir`/token, mode 0600, named as every rig's tokenFile) and returns its path, `tokenFleet` does both for warm,
 * unrestricted simulators that all want `token` (each rig named by its workerId), and `start` runs the built CLI (or any
 * command) in a tmux terminal; after the test every terminal is killed, every simulator stopped and the folder removed.
 */
export type Scene = {
	readonly dir: string;
	simulate(options: readonly SimOptions[]): Promise<Simulator[]>;
	rigsFile(rigs: readonly {name?: string | undefined; url: string}[], token?: string): Promise<string>;
	tokenFleet(token: string, rigs: readonly (SimOptions & {workerId: string})[]): Promise<{simulators: Simulator[]; rigs: string}>;
	start(...args: Parameters<typeof TmuxTerminal.start>): Promise<TmuxTerminal>;
};

/**
 * Registers, in the calling test file, the hooks of a `Scene` whose folders are named after `prefix`
 * (`rigtop-fleet-e2e-` …): the file fails at once when dist/cli.js has not been built (`npm run build`).
 */
export function sceneForEachTest(prefix: string): Scene {
	let dir = '';
	let terminals: TmuxTerminal[] = [];
	let simulators: Simulator[] = [];

	beforeAll(() => {
		if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	});

	beforeEach(async () => {
		dir = await mkdtemp(path.join(tmpdir(), prefix));
	});

	afterEach(async () => {
		await Promise.all(terminals.map(async (terminal) => terminal.kill()));
		terminals = [];
		await Promise.all(simulators.map(async (sim) => sim.stop()));
		simulators = [];
		await rm(dir, {recursive: true, force: true});
	});

	const scene: Scene = {
		get dir() {
			return dir;
		},
		async simulate(options) {
			const started = await Promise.all(options.map(async (each) => startSimulator(each)));
			simulators.push(...started);
			return started;
		},
		async tokenFleet(token, rigs) {
			const started = await scene.simulate(rigs.map((rig) => ({warm: true, restricted: false, ...rig, token})));
			const file = await scene.rigsFile(
				started.map((sim, index) => ({name: rigs[index]?.workerId, url: sim.url})),
				token,
			);
			return {simulators: started, rigs: file};
		},
		async rigsFile(rigs, token) {
			const tokenFile = path.join(dir, 'token');
			if (token !== undefined) {
				await writeFile(tokenFile, token);
				await chmod(tokenFile, 0o600);
			}

			const file = path.join(dir, 'rigs.json');
			await writeFile(file, JSON.stringify(rigs.map((rig) => (token === undefined ? rig : {...rig, tokenFile}))));
			return file;
		},
		async start(...args) {
			const terminal = await TmuxTerminal.start(...args);
			terminals.push(terminal);
			return terminal;
		},
	};
	return scene;
}
