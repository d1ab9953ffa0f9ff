import { FAULTS, faultMatrix, SUBJECTS, type Position } from './matrix';

const ALL: Position[] = ['first', 'middle', 'last'];

/** The two identity lookups, Return All: id-cursor walks that end on an empty page. */
faultMatrix('faults-identities-by-password', SUBJECTS.byPassword, [
	[FAULTS.retryAfter, ALL],
	[FAULTS.noRetryAfter, ['middle']],
	[FAULTS.burst, ['first']],
	[FAULTS.http500, ['middle']],
	[FAULTS.http502, ['first']],
	[FAULTS.http503, ['last']],
	[FAULTS.http504, ['middle']],
	[FAULTS.reset, ['last']],
	[FAULTS.slow, ['first']],
	[FAULTS.malformed, ['middle']],
	[FAULTS.tokenExpiry, ['last']],
	[FAULTS.repeatedCursor, ['middle', 'last']],
	[FAULTS.quota, ['middle']],
]);

faultMatrix('faults-identities-by-keyword', SUBJECTS.byKeyword, [
	[FAULTS.retryAfter, ALL],
	[FAULTS.noRetryAfter, ['last']],
	[FAULTS.burst, ['last']],
	[FAULTS.http500, ['last']],
	[FAULTS.http502, ['middle']],
	[FAULTS.http503, ['first']],
	[FAULTS.http504, ['first']],
	[FAULTS.reset, ['middle']],
	[FAULTS.slow, ['middle']],
	[FAULTS.malformed, ['first']],
	[FAULTS.tokenExpiry, ['middle']],
	[FAULTS.repeatedCursor, ['middle', 'last']],
	[FAULTS.quota, ['last']],
]);
