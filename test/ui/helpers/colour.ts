import {createRequire} from 'node:module';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll} from 'vitest';

/** Ink's own chalk (ink/node_modules/chalk, not the root one): the instance whose level decides whether Ink colours. */
export async function inkChalk(): Promise<{level: number}> {
	const require = createRequire(import.meta.url);
	const chalkPath = createRequire(require.resolve('ink')).resolve('chalk');
	return ((await import(pathToFileURL(chalkPath).href)) as {default: {level: number}}).default;
}

/**
 * Switches Ink's chalk to truecolor before the tests of the calling file (or describe block) and back after them: the
 * test setup pins it to none (FORCE_COLOR=0), so without this a check of colour could not fail.
 */
export function inkTruecolorForTests(): void {
	let chalk: {level: number} | undefined;
	let previous = 0;
	beforeAll(async () => {
		chalk = await inkChalk();
		previous = chalk.level;
		chalk.level = 3;
	});
	afterAll(() => {
		if (chalk) chalk.level = previous;
	});
}
