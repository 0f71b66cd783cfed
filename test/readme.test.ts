/**
 * The readme is for users and ships in the package: under 230 lines, the Quick start's two commands on a fresh
 * clone and the install from the packed file, no command that needs rigtop on the npm registry (it is not there),
 * and every link to a file of the repository pointing at one that exists.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, it} from 'vitest';

const readme = readFileSync('readme.md', 'utf8');

// 200 until issue 38 added the Notifications section (one example per channel, the commands, the messages).
it('is under 230 lines', () => {
	expect(readme.trimEnd().split('\n').length).toBeLessThan(230);
});

it("has the Quick start's two commands", () => {
	const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
	expect(quickStart).toMatch(/^npm ci && npm run demo\b/m);
	expect(quickStart).toMatch(/^npm ci && npm test\b/m);
	const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as {scripts: Record<string, string>}).scripts;
	expect(scripts['demo']).toBeDefined();
	expect(scripts['test']).toBeDefined();
});

it('installs from the packed file of this version, and never from the npm registry, where rigtop is not', () => {
	const {version} = JSON.parse(readFileSync('package.json', 'utf8')) as {version: string};
	const quickStart = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
	expect(quickStart).toMatch(/^npm run build && npm pack\b/m);
	expect(quickStart).toContain(`npm install -g ./rigtop-${version}.tgz`);
	// npx of the packed file runs it with nothing installed (test/e2e/pack.test.ts runs the line).
	expect(quickStart).toMatch(new RegExp(`^npx \\./rigtop-${version.replaceAll('.', '\\.')}\\.tgz --demo\\b`, 'm'));
	// npx rigtop, npx -y -p node@22 -p rigtop rigtop, npm i -g rigtop, pnpm add rigtop, npm exec rigtop: all the registry.
	expect(readme.replaceAll(`npx ./rigtop-${version}.tgz`, 'npx FILE')).not.toMatch(/\bnpx\b[^\n`]*\brigtop\b/);
	expect(readme).not.toMatch(/\b(?:npm|pnpm|yarn|bun)\s+(?:i|install|add|exec|x|dlx)(?:\s+-\S+)*\s+rigtop(?:@\S*)?(?=[\s`]|$)/m);
	for (const bad of ['npx rigtop --demo', 'npx -y -p node@22 -p rigtop rigtop', 'npm i -g rigtop', 'npm install -g rigtop@0.1.0']) {
		expect(`run \`${bad}\``).toMatch(
			/\bnpx\b[^\n`]*\brigtop\b|\b(?:npm|pnpm|yarn|bun)\s+(?:i|install|add|exec|x|dlx)(?:\s+-\S+)*\s+rigtop(?:@\S*)?(?=[\s`]|$)/m,
		);
	}
});

it('links only to files that exist', () => {
	const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
		.map((match) => match[1] ?? '')
		.filter((link) => !/^[a-z]+:/.test(link));
	expect(links.length).toBeGreaterThan(3);
	for (const link of links) expect(existsSync(path.normalize(link)), link).toBe(true);
});
