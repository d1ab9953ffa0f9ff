/** The API contract: the one description of request and response shapes used by every test. */
export * from './primitives';
export * from './taxonomy';
export * from './identifiers';
export * from './resources';
export * from './requests';
export * from './feed';
export * from './errors';
export * from './playbook';
export * from './administration';
