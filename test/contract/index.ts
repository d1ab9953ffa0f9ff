/** The API contract: the one description of request and response shapes used by every test. */
export * from './primitives';
export * from './resources';
export * from './requests';
export * from './errors';
