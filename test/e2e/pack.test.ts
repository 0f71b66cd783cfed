import {execFile} from 'node:child_process';
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {isBuiltin} from 'node:module';
import {init as initModuleLexer, parse as parseModule} from 'es-module-lexer';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {promtool} from '../exporter/helpers/prometheus.js';
import {cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const run = promisify(execFile);

// What a user installs: the tarball npm pack makes (rigtop is not on the registry), installed with no registry at all.
const work = mkdtempSync(path.join(tmpdir(), 'rigtop-pack-'));
const prefix = path.join(work, 'prefix');
const bin = path.join(prefix, 'node_modules', '.bin', 'rigtop');
// The installed bin starts with `#!/usr/bin/env node`: put the node running the tests first on
// PATH, so a run under Node 24 really runs the package under Node 24.
const env: NodeJS.ProcessEnv = {
	...process.env,
	PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
	NO_UPDATE_NOTIFIER: '1',
};
delete env['CI'];

/** systemd-analyze, for checking the shipped unit; missing, the test fails saying how to get it (never skips). */
function systemdAnalyze(): string {
	for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) {
		const candidate = path.join(dir, 'systemd-analyze');
		if (existsSync(candidate)) return candidate;
	}

	throw new Error(
		'systemd-analyze is not installed: the package test checks the shipped systemd unit with it. apt-get install systemd (.ci/run does)',
	);
}

type PackResult = {filename: string; files: {path: string}[]};

/**
 * The environment as a user's shell has it: without the npm_* variables of the npm (or `npx -p node@22`, which
 * scripts/supported-node.mjs runs the tests under) that started the tests, which npx would take for its own options.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {...Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name))), ...extra};
}

function packedVersion(): string {
	return (JSON.parse(readFileSync('package.json', 'utf8')) as {version: string}).version;
}
let packed: PackResult;

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	const {stdout} = await run('npm', ['pack', '--json', '--pack-destination', work], {env, timeout: 60_000});
	const [result] = JSON.parse(stdout) as PackResult[];
	if (!result) throw new Error(`npm pack printed no result: ${stdout}`);
	packed = result;
	// An unreachable registry proves the install needs none.
	await run(
		'npm',
		[
			'install',
			'--prefix',
			prefix,
			path.join(work, result.filename),
			'--offline',
			'--registry',
			'http://127.0.0.1:9/',
			'--no-audit',
			'--no-fund',
			'--no-update-notifier',
		],
		{env, timeout: 60_000},
	);
}, 120_000);

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

describe('the npm package', () => {
	it('holds exactly dist/cli.js, its chunks, docs/prometheus/, docs/notify/, readme.md, LICENSE and package.json', () => {
		const files = packed.files.map((file) => file.path).sort();
		const chunks = files.filter((file) => file.startsWith('dist/chunks/'));
		expect(chunks.length).toBeGreaterThan(0);
		for (const chunk of chunks) expect(chunk).toMatch(/^dist\/chunks\/[\w-]+\.js$/);
		// docs/prometheus/ and docs/notify/ whole, as in the repository: `rigtop --help` and the readme send users there.
		const docs = files.filter((file) => file.startsWith('docs/'));
		const inRepository = ['docs/notify', 'docs/prometheus']
			.flatMap((folder) =>
				readdirSync(folder, {recursive: true, withFileTypes: true})
					.filter((entry) => entry.isFile())
					.map((entry) => path.posix.join(folder, path.relative(folder, path.join(entry.parentPath, entry.name)))),
			)
			.sort();
		expect(docs).toEqual(inRepository);
		for (const file of [
			'README.md',
			'alerts.yml',
			'alerts.test.yml',
			'prometheus.yml',
			'targets/rigtop-exporters.yml',
			'grafana-dashboard.json',
			'rigtop-exporter.service',
		])
			expect(docs).toContain(`docs/prometheus/${file}`);
		expect(docs).toContain('docs/notify/rigtop-watch.service');
		expect(files.filter((file) => !chunks.includes(file) && !docs.includes(file))).toEqual([
			'LICENSE',
			'dist/cli.js',
			'package.json',
			'readme.md',
		]);
	});

	it('names its repository, homepage and bug tracker', () => {
		const manifest = JSON.parse(readFileSync(path.join(prefix, 'node_modules', 'rigtop', 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(manifest['repository']).toEqual({type: 'git', url: 'git+https://github.com/rigtop/rigtop.git'});
		expect(manifest['homepage']).toBe('https://github.com/rigtop/rigtop#readme');
		expect(manifest['bugs']).toEqual({url: 'https://github.com/rigtop/rigtop/issues'});
	});

	it('the installed docs/prometheus/ works where it lands: the rules pass their tests, the scrape config checks', async () => {
		const installedDocs = path.join(prefix, 'node_modules', 'rigtop', 'docs', 'prometheus');
		const rules = await promtool(['test', 'rules', path.join(installedDocs, 'alerts.test.yml')]);
		expect(rules.stdout + rules.stderr).toContain('SUCCESS');
		expect(rules.code).toBe(0);
		const config = await promtool(['check', 'config', path.join(installedDocs, 'prometheus.yml')]);
		expect(config.stdout + config.stderr).toMatch(/SUCCESS: \d+ rules found/);
		expect(config.code).toBe(0);
	});

	it('the systemd unit runs a version-pinned install, never npx, needs no network at boot, and systemd accepts it', async () => {
		const {version} = JSON.parse(readFileSync('package.json', 'utf8')) as {version: string};
		const unit = readFileSync(path.join(prefix, 'node_modules', 'rigtop', 'docs', 'prometheus', 'rigtop-exporter.service'), 'utf8');
		const directives = unit.split('\n').filter((line) => !line.startsWith('#'));
		const execStart = directives.filter((line) => line.startsWith('ExecStart='));
		expect(execStart).toHaveLength(1);
		const pinned = `/opt/rigtop/${version}/node_modules/.bin/rigtop`;
		expect(execStart[0]).toBe(`ExecStart=${pinned} exporter --rigs /etc/rigtop/rigs.json`);
		// The install the comment tells you to make is the one ExecStart runs.
		// From the packed file: rigtop is not on the npm registry.
		expect(unit).toContain(`npm install --prefix /opt/rigtop/${version} ./rigtop-${version}.tgz`);
		expect(unit).not.toContain(`rigtop@${version}`);
		expect(directives).toContain('ExecReload=/bin/kill -HUP $MAINPID');
		expect(directives.join('\n')).not.toMatch(/npx|network-online/);
		expect(directives).toContain('After=network.target');

		// systemd's own check of the unit, with ExecStart pointing at this test's install of the same package.
		const unitDir = path.join(work, 'unit');
		const unitFile = path.join(unitDir, 'rigtop-exporter.service');
		mkdirSync(unitDir);
		writeFileSync(unitFile, unit.replace(pinned, bin));
		const verify = await new Promise<{code: number; stderr: string}>((resolve) => {
			execFile(systemdAnalyze(), ['verify', unitFile], {cwd: unitDir, timeout: 30_000}, (error, _stdout, stderr) => {
				resolve({code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr});
			});
		});
		expect(verify).toEqual({code: 0, stderr: ''});
	});

	it('every file of its own that the program imports is in the package, and nothing else is imported but Node built-ins', async () => {
		await initModuleLexer;
		const installed = path.join(prefix, 'node_modules', 'rigtop');
		const packedFiles = new Set(packed.files.map((file) => file.path));
		const seen = new Set<string>();
		const pending = ['dist/cli.js'];
		while (pending.length > 0) {
			const file = pending.pop() ?? '';
			if (seen.has(file)) continue;
			seen.add(file);
			expect(packedFiles.has(file), `${file} is imported but not packed`).toBe(true);
			const [imports] = parseModule(readFileSync(path.join(installed, file), 'utf8'));
			for (const entry of imports) {
				if (entry.type === 'import-meta') continue;
				const specifier = entry.specifier ?? '(a computed import)';
				if (specifier.startsWith('.')) pending.push(path.posix.join(path.posix.dirname(file), specifier));
				// Ink imports React DevTools only when DEV=true and the user has it installed.
				else expect(specifier === 'react-devtools-core' || isBuiltin(specifier), `${file} imports ${specifier}`).toBe(true);
			}
		}

		// The walk did reach the chunks (the live dashboard's among them).
		expect(seen.size).toBeGreaterThan(5);
	});

	it('has no runtime dependencies and no install scripts', () => {
		const manifest = JSON.parse(readFileSync(path.join(prefix, 'node_modules', 'rigtop', 'package.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies']) {
			expect(manifest[field], field).toBeUndefined();
		}

		const scripts = (manifest['scripts'] ?? {}) as Record<string, string>;
		for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[hook], hook).toBeUndefined();
		expect(manifest['bin']).toEqual({rigtop: 'dist/cli.js'});
		// Only rigtop itself was installed.
		const lock = JSON.parse(readFileSync(path.join(prefix, 'package-lock.json'), 'utf8')) as {packages: Record<string, unknown>};
		expect(Object.keys(lock.packages).filter((key) => key !== '')).toEqual(['node_modules/rigtop']);
	});

	it('the installed bin answers --version with the package version', async () => {
		const {version} = JSON.parse(readFileSync('package.json', 'utf8')) as {version: string};
		const {stdout, stderr} = await run(bin, ['--version'], {env, timeout: 20_000});
		expect(stdout.trim()).toBe(version);
		expect(stderr).toBe('');
	});

	it("installs as the readme's Quick start says (npm install -g ./rigtop-VERSION.tgz) and `rigtop --demo` runs", async () => {
		const readme = readFileSync('readme.md', 'utf8');
		const line = /`npm install -g (\.\/rigtop-[\w.-]+\.tgz) && rigtop --demo`/.exec(readme);
		expect(line?.[1]).toBe(`./${packed.filename}`);
		// A global install into a prefix of the test's own (npm's -g with --prefix), from the folder the file is in.
		const global = path.join(work, 'global');
		await run(
			'npm',
			['install', '-g', '--prefix', global, line?.[1] ?? '', '--offline', '--registry', 'http://127.0.0.1:9/', '--no-audit', '--no-fund'],
			{env, cwd: work, timeout: 60_000},
		);
		const term = await TmuxTerminal.start(['rigtop', '--demo'], {
			cols: 80,
			rows: 24,
			env: {PATH: `${path.join(global, 'bin')}${path.delimiter}${env['PATH'] ?? ''}`, HOME: work, XDG_STATE_HOME: path.join(work, 'state')},
		});
		try {
			await term.waitFor(/demo-rig · XMRig 6\.\d+\.\d+/, 20_000);
			await term.send('q', true);
			await term.waitFor('[exit 0]', 10_000);
		} finally {
			await term.kill();
		}
	}, 120_000);

	it("runs with npx from the packed file in an empty folder, as the readme's Quick start shows, with no registry", async () => {
		const readme = readFileSync('readme.md', 'utf8');
		const line = /^npx (\.\/rigtop-[\w.-]+\.tgz) --demo\b/m.exec(readme);
		expect(line?.[1]).toBe(`./${packed.filename}`);
		// On the rig: an empty folder with the file copied into it, npm's cache empty, the registry unreachable.
		const rig = path.join(work, 'rig');
		mkdirSync(rig);
		copyFileSync(path.join(work, packed.filename), path.join(rig, packed.filename));
		const offline = ['--offline', '--registry', 'http://127.0.0.1:9/', '--cache', path.join(work, 'npx-cache')];
		const {stdout, stderr} = await run('npx', ['--yes', ...offline, line?.[1] ?? '', '--demo', '--once'], {
			env: userEnv({HOME: work, XDG_STATE_HOME: path.join(work, 'npx-state')}),
			cwd: rig,
			timeout: 60_000,
		});
		expect(stderr).toBe('');
		expect(stdout).toContain('demo-rig');
		expect(stdout).toMatch(/XMRig 6\.\d+\.\d+/);
		// npx left the folder as it was: the package went to its cache.
		expect(readdirSync(rig)).toEqual([packed.filename]);
	}, 90_000);

	it('npm publish --dry-run is clean: files, bin, engines, repository, license and keywords, no warning', async () => {
		const result = await new Promise<{code: number; stdout: string; stderr: string}>((resolve) => {
			// --ignore-scripts: prepublishOnly builds, which this run (after npm run build) need not do again.
			execFile(
				'npm',
				// No retries: the registry is unreachable, and a dry run asks it nothing it needs.
				['publish', '--dry-run', '--ignore-scripts', '--registry', 'http://127.0.0.1:9/', '--fetch-retries=0', '--no-update-notifier'],
				{env: userEnv(), timeout: 60_000},
				(error, stdout, stderr) => {
					resolve({code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr});
				},
			);
		});
		expect(result.code).toBe(0);
		expect(result.stdout.trim()).toBe('+ rigtop@0.1.0'.replace('0.1.0', packedVersion()));
		// Only the one line any dry run says without a login; nothing npm had to correct in package.json.
		const warnings = result.stderr.split('\n').filter((text) => /^npm (warn|error)\b/.test(text));
		expect(warnings.filter((text) => !text.includes('requires you to be logged in'))).toEqual([]);
		expect(result.stderr).toContain(`total files: ${packed.files.length}`);
		const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
		expect(manifest['license']).toBe('MIT');
		expect(manifest['engines']).toEqual({node: '>=22.13.0'});
		expect(manifest['keywords']).toEqual(expect.arrayContaining(['xmrig', 'monitor', 'tui']));
		expect(manifest['bin']).toEqual({rigtop: 'dist/cli.js'});
		expect((manifest['scripts'] as Record<string, string>)['prepublishOnly']).toBe('npm run build');
	}, 90_000);

	it('the installed bin runs --demo --once: a snapshot of the simulated miner, exit 0', async () => {
		const {stdout, stderr} = await run(bin, ['--demo', '--once'], {env, timeout: 20_000});
		expect(stderr).toBe('');
		expect(stdout).toContain('demo-rig');
		expect(stdout).toMatch(/XMRig 6\.\d+\.\d+/);
		expect(stdout).toMatch(/\d kH\/s/);
	});
});
