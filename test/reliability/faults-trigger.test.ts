import { FAULTS, faultMatrix, SUBJECTS, type Position } from './matrix';

const ALL: Position[] = ['first', 'middle', 'last'];

/**
 * The Flare Trigger's active poll over 25,000 new credentials (pages of 10,000, an empty and a short
 * page on the way). A poll that fails must emit nothing and store nothing; the next poll must then
 * emit every credential once.
 */
faultMatrix('faults-trigger', SUBJECTS.trigger, [
	[FAULTS.retryAfter, ALL],
	[FAULTS.noRetryAfter, ['middle']],
	[FAULTS.burst, ['last']],
	[FAULTS.http500, ['middle']],
	[FAULTS.http502, ['last']],
	[FAULTS.http503, ['first']],
	[FAULTS.http504, ['middle']],
	[FAULTS.http503Persistent, ['middle']],
	[FAULTS.reset, ['first', 'middle']],
	[FAULTS.slow, ['middle']],
	[FAULTS.malformed, ['first', 'last']],
	[FAULTS.tokenExpiry, ['middle', 'last']],
	[FAULTS.repeatedCursor, ['middle', 'last']],
	[FAULTS.quota, ALL],
]);
