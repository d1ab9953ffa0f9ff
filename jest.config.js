/** Jest runs TypeScript tests through ts-jest; the harness loads the built package from dist/. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/support/jest-env.js'],
	// Evidence of the whole run: secret scan of every harness run and n8n log, reliability figures.
	globalSetup: '<rootDir>/test/reliability/global-setup.js',
	globalTeardown: '<rootDir>/test/reliability/global-teardown.js',
	testTimeout: 60000,
	maxWorkers: 2,
};
