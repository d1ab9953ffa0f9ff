import { FAULTS, faultMatrix, SUBJECTS, type Position } from './matrix';

const ALL: Position[] = ['first', 'middle', 'last'];

/**
 * Leaked Credential → Search, Return All over 25,000 matches (pages of 10,000, an empty and a short
 * page on the way): the rate limit at every position, each other fault at one or more positions.
 */
faultMatrix('faults-search', SUBJECTS.search, [
	[FAULTS.retryAfter, ALL],
	[FAULTS.noRetryAfter, ALL],
	[FAULTS.burst, ['middle']],
	[FAULTS.http500, ['first']],
	[FAULTS.http502, ['middle']],
	[FAULTS.http503, ['last']],
	[FAULTS.http504, ['middle']],
	[FAULTS.http503Persistent, ['middle']],
	[FAULTS.reset, ['first', 'last']],
	[FAULTS.slow, ['middle']],
	[FAULTS.malformed, ['middle', 'last']],
	[FAULTS.tokenExpiry, ['first', 'middle']],
	[FAULTS.repeatedCursor, ['middle', 'last']],
	[FAULTS.quota, ALL],
]);
