import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
	{ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench-out/**']},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx}'],
		languageOptions: {
			parserOptions: {projectService: true, tsconfigRootDir: import.meta.dirname},
		},
		plugins: {'react-hooks': reactHooks},
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/consistent-type-imports': 'error',
			'@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
			'no-console': 'error',
		},
	},
	{
		// Screens clip rows, never columns: a box that cuts at its side edges makes Ink slice every line under it on
		// every frame (11.5 % of the steady CPU in a profile, docs/performance.md "Rows clipped, columns cut by each
		// line"). Each line is cut by its own Text (wrap="truncate-end", or wraps in Wrapped); test/ui/fits.test.tsx checks it.
		files: ['source/ui/**/*.tsx'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector: "JSXAttribute[name.name='overflow'], JSXAttribute[name.name='overflowX']",
					message:
						'Clip rows with overflowY="hidden"; cut lines with their Text (docs/performance.md, "Rows clipped, columns cut by each line").',
				},
				{
					selector: "JSXAttribute[name.name='wrap'] Literal[value='wrap']",
					message:
						'Draw wrapped text with Wrapped from source/ui/widgets/wrap.tsx: Ink\'s own wrap starts a line with the space a break left (docs/design.md, "Wrapped text").',
				},
			],
		},
	},
	{
		files: ['scripts/**/*.mjs', 'bench/**/*.mjs', '.ci/**/*.mjs', 'eslint.config.js'],
		languageOptions: {
			globals: {
				process: 'readonly',
				console: 'readonly',
				URL: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				Buffer: 'readonly',
			},
		},
	},
	{
		files: ['test/**/*.{ts,tsx}', 'bench/**/*.{ts,tsx}', 'source/cli.tsx', 'source/sim/main.ts'],
		rules: {'no-console': 'off'},
	},
	{
		// Its render comes with its cleanup from the helper; test/setup.ts no longer loads it for every file.
		files: ['test/**/*.{ts,tsx}'],
		ignores: ['test/ui/helpers/ink-testing.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{name: 'ink-testing-library', message: 'Import render from test/ui/helpers/ink-testing.ts (it cleans up after each test).'},
					],
				},
			],
		},
	},
);
