import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					environment: 'node',
					pool: 'forks',
					include: ['test/**/*.test.{ts,tsx}'],
					exclude: ['test/e2e/**', 'node_modules/**'],
					setupFiles: ['test/setup.ts'],
					testTimeout: 20_000,
					hookTimeout: 20_000,
				},
			},
			{
				test: {
					name: 'e2e',
					environment: 'node',
					pool: 'forks',
					include: ['test/e2e/**/*.test.ts'],
					setupFiles: ['test/setup.ts'],
					testTimeout: 60_000,
					hookTimeout: 30_000,
					fileParallelism: false,
				},
			},
		],
	},
});
