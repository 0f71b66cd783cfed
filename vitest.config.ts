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
					// Vitest's default is one worker fewer than the cores: one file at a time on CI's two, where many unit
					// files mostly wait for real polls (a loopback miner at 250 ms) and the e2e runs beside them mostly wait
					// for tmux. Three at a time overlap those waits: 51 unit files on Node 22, alternating, 47 and 62 s with
					// two workers, 34 and 36 s with three, 28 and 31 s with four (docs/performance.md, "The CI run's time").
					maxWorkers: 3,
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
