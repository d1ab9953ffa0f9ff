/** Jest runs TypeScript tests through ts-jest; the harness loads the built package from dist/. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/support/jest-env.js'],
	testTimeout: 60000,
	maxWorkers: 2,
};
