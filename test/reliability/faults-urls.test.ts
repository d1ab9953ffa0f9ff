import { FAULTS, faultMatrix, SUBJECTS, type Position } from './matrix';

const ALL: Position[] = ['first', 'middle', 'last'];

/** ASTP URL → Get Many, Limit 100 through short and empty pages: cheap, so every fault at every page. */
faultMatrix('faults-urls', SUBJECTS.urls, [
	[FAULTS.retryAfter, ALL],
	[FAULTS.noRetryAfter, ['first']],
	[FAULTS.burst, ['middle']],
	[FAULTS.http500, ALL],
	[FAULTS.http502, ALL],
	[FAULTS.http503, ALL],
	[FAULTS.http504, ALL],
	[FAULTS.http503Persistent, ['last']],
	[FAULTS.reset, ALL],
	[FAULTS.slow, ['last']],
	[FAULTS.malformed, ALL],
	[FAULTS.tokenExpiry, ALL],
	[FAULTS.repeatedCursor, ['middle', 'last']],
	[FAULTS.quota, ALL],
]);
