import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the Flare Trigger keeps in the workflow's static data between polls (docs/api-contract.md,
 * "Flare Trigger"): the saved cursor of its one long-lived search, where the next sweep of recent
 * arrivals starts, and the records it already emitted or found there at activation, bounded. The
 * names are read by every later version: fields are added, never renamed.
 */
export interface TriggerState {
	/** Revision, counted up at every change: of two copies (two activations), the newer wins. */
	rev: number;
	/** Fingerprint of what the user asks for (query, filters, whether to backfill). */
	search: string;
	/** Arrival date the long-lived search starts at (ISO 8601); moves back only when it restarts. */
	start: string;
	/** Where the long-lived search resumes; none before its first page (or while it fits in one). */
	cursor?: string;
	/** Arrival date the next sweep starts at (ISO 8601). */
	since: string;
	/** When the last complete sweep began (ISO 8601); none in a state saved before sweeps were spaced. */
	sweptAt?: string;
	/** A sweep under way (longer than a poll): when it began (ISO 8601), and where it goes on. */
	sweepStarted?: string;
	sweepFrom?: string;
	/** Which of the watch's searches (watch.ts `Watch.partitions`) the sweep under way, or the next, walks; none: the first. */
	sweepPart?: number;
	/** Keys of the records emitted (or found at activation) that a sweep may read again: key → arrival (s). */
	seen: Record<string, number>;
	/**
	 * Keys of the records read and left out by a filter Flare cannot apply for good (what the tenant
	 * changes later: watch.ts `Watch.accepts`), kept as `seen` is: decided at their first read, they
	 * are not decided again, however they change. None in a state saved before, or when none was.
	 */
	rejected?: Record<string, number>;
	/**
	 * Keys the long-lived search read before that it may meet again where it resumes: those of the
	 * page at `cursor` (the next poll reads it again), and of the page read before that it has not met
	 * again since (Flare may show a page empty or short, and its records on the next).
	 */
	lastPage: string[];
	/**
	 * The long-lived search has read what arrived before this (ISO 8601): the newest arrival it read,
	 * or, once it reached its end, the poll's time less the look-back. None before its first record.
	 */
	reached?: string;
	/**
	 * Activation without backfill (ISO 8601, Flare's time then), until the long-lived search first
	 * reaches its end: records that arrived before it are noted, not emitted.
	 */
	baseline?: string;
	/**
	 * Nothing that arrived before this (ISO 8601) is read again: keys were dropped beyond
	 * {@link MAX_SEEN}, so a restarted or changed search, and every sweep, start here at the earliest.
	 */
	floor?: string;
	/**
	 * What else the saved search belongs to, part by part, each a digest (start.ts `scopeOf`): e.g.
	 * `account`, the Flare instance and tenant the credential reads. A part that differs starts a new
	 * search, as a change of the query does; a part the state lacks (saved by an earlier version, or
	 * added since) is taken as it is now, so that an upgrade keeps the saved search.
	 */
	scope?: Record<string, string>;
}

/** At most this many keys are kept in `seen`, `rejected` and `lastPage` together; see {@link prune}. About 32 bytes each. */
export const MAX_SEEN = 2_000;

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The state stored by an earlier poll, or undefined on first activation (or if it is unreadable). */
export function readState(data: IDataObject): TriggerState | undefined {
	const { rev, search, start, cursor, since, sweptAt, seen, lastPage } = data;
	const { reached, baseline, sweepStarted, sweepFrom, floor, rejected, sweepPart, scope } = data;
	if (typeof rev !== 'number' || typeof search !== 'string' || typeof start !== 'string')
		return undefined;
	if (typeof since !== 'string' || !isRecord(seen) || !Array.isArray(lastPage)) return undefined;
	return {
		rev,
		search,
		start,
		...(typeof cursor === 'string' ? { cursor } : {}),
		since,
		...(typeof sweptAt === 'string' ? { sweptAt } : {}),
		seen: { ...(seen as Record<string, number>) },
		lastPage: lastPage.map(String),
		...(typeof reached === 'string' ? { reached } : {}),
		...(typeof baseline === 'string' ? { baseline } : {}),
		...(typeof sweepStarted === 'string' ? { sweepStarted } : {}),
		...(typeof sweepFrom === 'string' ? { sweepFrom } : {}),
		...(typeof floor === 'string' ? { floor } : {}),
		...(isRecord(rejected) ? { rejected: { ...(rejected as Record<string, number>) } } : {}),
		...(Number.isInteger(sweepPart) && (sweepPart as number) > 0 ? { sweepPart: sweepPart as number } : {}),
		...(isRecord(scope) ? { scope: textsOf(scope) } : {}),
	};
}

/** The text values of a record (the others dropped). */
const textsOf = (value: IDataObject): Record<string, string> =>
	Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** Replaces the static data's content with `state`, in place, as n8n expects. */
export function writeState(data: IDataObject, state: TriggerState): void {
	for (const key of Object.keys(data)) delete data[key];
	Object.assign(data, JSON.parse(JSON.stringify(state)) as IDataObject);
}

/** Milliseconds since the epoch of a date-time; one without an offset is UTC, as Flare means it. */
export function instantOf(value: unknown): number {
	if (typeof value !== 'string') return Number.NaN;
	const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
	return Date.parse(hasOffset ? value : `${value}Z`);
}

/** A short digest of a text. */
export const digest = (value: string) =>
	createHash('sha256').update(value).digest('hex').slice(0, 16);

/** A short, stable fingerprint (the query itself may hold a password). */
export const fingerprint = (value: unknown): string => digest(JSON.stringify(value));

/**
 * Where the trigger's knowledge ends (ms): the earliest arrival that its long-lived search may not
 * have read yet, or that a sweep may read again: the earlier of `since` and `reached` (`start` before
 * the search read anything), but not before `floor`; `fallback` when none can be read. A restarted
 * or changed search starts there, and the keys of records that arrived since are kept, so that none
 * is emitted twice.
 */
export function resumeAt(state: TriggerState, fallback: number): number {
	const known = [instantOf(state.since), instantOf(state.reached ?? state.start)].filter(
		(ms) => !Number.isNaN(ms),
	);
	if (known.length === 0) return fallback;
	const floor = instantOf(state.floor);
	return Number.isNaN(floor) ? Math.min(...known) : Math.max(floor, Math.min(...known));
}

/**
 * Keeps `seen` and `rejected` bounded: keys of records that arrived before {@link resumeAt} are
 * dropped (no sweep reads them again, no restarted search either, and the long-lived search only
 * meets again the keys kept in `lastPage`); beyond {@link MAX_SEEN} keys of the three, those of records
 * left out (`rejected`) go first, oldest first: one read again is decided again (docs/trigger.md,
 * "What the tenant does to an event"). Beyond {@link MAX_SEEN} keys of records emitted, the oldest
 * go, and `floor` moves after them; `since` (where every sweep starts) is never before `floor`, so
 * that nothing reads them again: the rest of their second is skipped.
 */
export function prune(state: TriggerState): void {
	const sinceS = Math.floor(resumeAt(state, instantOf(state.since)) / 1000);
	const recent = (keys: Record<string, number> | undefined) =>
		Object.entries(keys ?? {})
			.filter(([, arrivedS]) => arrivedS >= sinceS)
			.sort((a, b) => b[1] - a[1]);
	const room = MAX_SEEN - state.lastPage.length;
	const seen = recent(state.seen);
	const kept = seen.slice(0, room);
	if (seen.length > kept.length) {
		const afterOldest = (kept[kept.length - 1][1] + 1) * 1000;
		if (!(afterOldest <= instantOf(state.floor))) state.floor = new Date(afterOldest).toISOString();
	}
	// A sweep, too, starts at the floor at the earliest (one that completes sets `since` earlier).
	if (state.floor && instantOf(state.since) < instantOf(state.floor)) state.since = state.floor;
	const floorS = state.floor ? Math.floor(instantOf(state.floor) / 1000) : -Infinity;
	const rejected = recent(state.rejected)
		.filter(([, arrivedS]) => arrivedS >= floorS)
		.slice(0, room - kept.length);
	state.seen = Object.fromEntries(kept);
	if (rejected.length > 0) state.rejected = Object.fromEntries(rejected);
	else delete state.rejected;
}
