import { useVirtualTime } from '../support/clock';
import { FAULTS, faultMatrix, SUBJECTS, type Position } from './matrix';

const ALL: Position[] = ['first', 'middle', 'last'];

/**
 * The Flare Trigger's active poll over 30 new credentials (pages of 10, an empty and a short page on
 * the way, then the sweep). A poll that fails must emit nothing and store nothing; the next poll must
 * then emit every credential once. Unpaced: a poll is dozens of searches at Flare's 1 per second. On
 * virtual time: retries, rate-limit waits and slow answers take the clock's time, not the machine's.
 */
useVirtualTime();
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
	// The middle page is empty: an empty page that hands back its cursor is how a resumed walk learns
	// that Flare has nothing more yet (docs/api-contract.md), so the poll ends there and the next one
	// goes on; a page with credentials that repeats a cursor is the fault.
	[FAULTS.repeatedCursor, ['last']],
	[FAULTS.quota, ALL],
], { unpaced: true });
