import type { FlareItem } from '../Flare/shared/item';
import { tenantKey } from '../Flare/shared/connection';
import { parameterError } from '../Flare/shared/errors';
import { settingsOf } from '../Flare/shared/runner';
import { BACKFILL_MS } from './backfill';
import { LOOKBACK_MS } from './clock';
import { resumeAt, type TriggerState } from './state';

/**
 * Where a poll of the Flare Trigger starts (poll.ts): the state stored by the last, a new one at first
 * activation, or a new long-lived search when the user changed the search or its scope.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a first long-lived search starts, and whether what exists now is emitted (a backfill). */
export function startOf(item: FlareItem, now: number): { start: string; backfill: boolean } {
	const choice = item.parameter<string>('options.backfill', 'none');
	const window = BACKFILL_MS[choice];
	if (window === undefined) {
		throw parameterError(item, 'options.backfill', `has an unknown value: "${choice}"`);
	}
	return {
		start: new Date(now - Math.max(window, LOOKBACK_MS)).toISOString(),
		backfill: window > 0,
	};
}

/**
 * What the saved search belongs to besides what the user asks for, part by part (state.ts `scope`):
 * `account`, the Flare instance and tenant of the credential. More parts may come (e.g. a tenant
 * chosen on the trigger): a state that lacks one takes it as it is now.
 */
export async function scopeOf(item: FlareItem): Promise<Record<string, string>> {
	return { account: tenantKey(await settingsOf(item)) };
}

/** Whether a saved scope is the same: every part it has is the same now. */
const sameScope = (saved: Record<string, string> | undefined, now: Record<string, string>) =>
	Object.entries(now).every(([part, value]) => saved?.[part] === undefined || saved[part] === value);

/**
 * The state this poll starts from: the stored one; a new one at first activation; or, when the user
 * changed the search (or its scope: the credential reads another tenant), a new long-lived search
 * that goes on from where the last one's knowledge ends (state.ts `resumeAt`), so that what arrived
 * since the last poll is not lost; what the last search left out is decided again.
 */
export function stateFor(
	known: TriggerState | undefined,
	fingerprints: { search: string; scope: Record<string, string> },
	first: { start: string; backfill: boolean },
	now: number,
	partitioned: boolean,
): TriggerState {
	const { search, scope } = fingerprints;
	if (!known) {
		return {
			rev: 1,
			search,
			start: first.start,
			// Partitioned, the first sweep comes at activation and reads the other partitions from the
			// start (a backfill's included); else the long-lived search reads what a sweep would.
			...(partitioned
				? { since: first.start, sweepPart: 1 }
				: { since: iso(now - LOOKBACK_MS), sweptAt: iso(now) }),
			seen: {},
			lastPage: [],
			// Set from Flare's clock once the activation has read (see settle).
			...(first.backfill ? {} : { baseline: iso(now) }),
			scope,
		};
	}
	const state = JSON.parse(JSON.stringify({ ...known, rev: known.rev + 1 })) as TriggerState;
	state.scope = { ...known.scope, ...scope };
	if (known.search === search && sameScope(known.scope, scope)) return state;
	// Never before where the knowledge ends: the keys of what arrived before it are gone (state.ts
	// `prune`), even when the host's clock went back since.
	const start = iso(resumeAt(known, now - LOOKBACK_MS));
	delete state.cursor;
	delete state.reached;
	delete state.sweepFrom;
	delete state.sweepStarted;
	delete state.sweepPart;
	delete state.rejected;
	// The long-lived search starts at least as early as a sweep would; the other partitions are
	// swept when due (at once if they never were).
	if (!partitioned) state.sweptAt = iso(now);
	return { ...state, search, start, lastPage: [] };
}
