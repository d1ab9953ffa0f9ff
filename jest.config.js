/** Jest runs TypeScript tests through ts-jest; the harness loads the built package from dist/. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/support/jest-env.js'],
	// Every file on virtual time: no test waits, none depends on the machine's load (test/support/clock.ts).
	setupFilesAfterEnv: ['<rootDir>/test/support/virtual-time.ts'],
	// Evidence of the whole run: secret scan of every harness run and n8n log, reliability figures.
	globalSetup: '<rootDir>/test/reliability/global-setup.js',
	globalTeardown: '<rootDir>/test/reliability/global-teardown.js',
	testTimeout: 60000,
	maxWorkers: 2,
};
