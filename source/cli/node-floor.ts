/**
 * The oldest Node rigtop runs on: 22.13, the first 22 with node:sqlite without a flag (the history store;
 * Ink 8 needs 22, Vitest 22.12). CI runs the whole suite on exactly this version. Kept equal to package.json's
 * `engines` (a test checks). This module is loaded by the entry before anything else, on whatever Node
 * the user has, so it is kept to syntax that every Node since 14 parses.
 */
export const NODE_FLOOR = {major: 22, minor: 13} as const;

export function nodeIsSupported(version: string): boolean {
	const [major = 0, minor = 0] = version.split('.').map(Number);
	return major > NODE_FLOOR.major || (major === NODE_FLOOR.major && minor >= NODE_FLOOR.minor);
}

/**
 * One line: what rigtop needs, what this is, and the command that runs this same rigtop (`script`, the path it was
 * started by) on a supported Node, fetched by npx (rigtop itself is not on the npm registry).
 */
export function unsupportedNodeMessage(version: string, script: string): string {
	const {major, minor} = NODE_FLOOR;
	const path = /^[\w./+-]+$/.test(script) ? script : "'" + script.split("'").join("'\\''") + "'";
	return (
		`rigtop needs Node.js ${major}.${minor} or newer (this is Node.js ${version}); ` +
		`run it with a supported one: npx -y -p node@${major} node ${path}\n`
	);
}
