import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { searchOperation } from '../Flare/resources/leakedCredential/search';
import { parameterError } from '../Flare/shared/errors';
import type { FlareItem } from '../Flare/shared/item';
import type { FlareOperation, FlareResponse } from '../Flare/shared/operation';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import {
	fingerprint,
	instantOf,
	keyOf,
	prune,
	readState,
	writeState,
	type TriggerState,
} from './state';

/**
 * One active poll of the Flare Trigger (docs/api-contract.md, "Flare Trigger"):
 * - the **long-lived search**: the same global search every poll — query, `imported_at ≥ start`,
 *   ascending, pages of {@link POLL_PAGE_SIZE} — resumed from its saved cursor, as Flare's own
 *   clients do; it brings the backlog and whatever Flare appends;
 * - the **sweep**: the same query over what Flare imported since the last sweep began, less
 *   {@link LOOKBACK_MS}, from its first page; it brings what the saved cursor cannot (credentials that
 *   became searchable late, or that sort before the cursor), whatever order Flare returns;
 * - each credential goes out once: its key is checked against what was emitted before (bounded, see
 *   state.ts), and the new state is stored only with the emit, so that a poll that fails stores nothing.
 */

/** Results a poll asks for per page: polls usually find few, and the quota may count what is asked. */
export const POLL_PAGE_SIZE = 10;
/** How late a credential may become searchable (10 min), plus clocks apart by up to 5 min. */
export const LOOKBACK_MS = 15 * 60_000;
/** A poll stops fetching after this, within n8n's shortest interval (1 min); the rest waits a poll. */
export const POLL_TIME_LIMIT_MS = 45_000;
/** Credentials one poll holds at most; the rest waits for the next poll. */
export const MAX_RECORDS_PER_POLL = 1_000;

const HOUR_MS = 3_600_000;
const BACKFILL_MS: Record<string, number> = {
	none: 0,
	last24Hours: 24 * HOUR_MS,
	last7Days: 7 * 24 * HOUR_MS,
	last30Days: 30 * 24 * HOUR_MS,
};

/**
 * What this process knows of each trigger (workflow and node), shared by every activation of it:
 * whether a poll is running (n8n starts each tick without waiting for the last), and the newest state
 * (a second activation of the same workflow has a static data copy of its own).
 */
const triggers = new Map<string, { pollingUntil: number; state?: TriggerState }>();

/** The global search with the trigger's form, sending `body`, its walks resumable later. */
function searchFor(properties: INodeProperties[], body: IDataObject): FlareOperation {
	return {
		...searchOperation,
		paging: { ...searchOperation.paging!, resumable: true },
		properties,
		prepare: (_item, request) => (request.body = body),
	};
}

/** A poll in progress: its item and form, its deadline, what it found and what it will store. */
class Poll {
	readonly items: IDataObject[] = [];
	private read = 0;

	constructor(
		private readonly item: FlareItem,
		private readonly properties: INodeProperties[],
		readonly state: TriggerState,
		private readonly deadline: number,
		/** At activation without backfill: what exists now is only noted, not emitted. */
		private readonly baseline: boolean,
	) {}

	/** Takes a page: notes each credential not seen before, and emits it unless this is the baseline. */
	private take(records: IDataObject[], response: FlareResponse, now: number): void {
		const fresh: IDataObject[] = [];
		for (const record of records) {
			const key = keyOf(record);
			if (key in this.state.seen || this.state.lastPage.includes(key)) continue;
			const imported = instantOf(record.imported_at);
			this.state.seen[key] = Math.floor((Number.isNaN(imported) ? now : imported) / 1000);
			fresh.push(record);
		}
		this.read += records.length;
		if (!this.baseline) this.items.push(...searchOperation.output(this.item, fresh, response));
	}

	/** Whether another page fits: time left for one more page as slow as the slowest, and room. */
	private fits(slowestPageMs: number): boolean {
		return Date.now() + slowestPageMs < this.deadline && this.read < MAX_RECORDS_PER_POLL;
	}

	/**
	 * Walks `body` from `from` while pages come and fit (through empty pages, which filters cause).
	 * Returns the cursor to save, whether the walk reached the end, and the keys of its last page.
	 */
	async walk(
		body: IDataObject,
		from?: string,
	): Promise<{ cursor?: string; complete: boolean; lastPage: string[] }> {
		let pageStart = Date.now();
		let slowest = 0;
		let lastPage: string[] = [];
		let stopped = false;
		const end = await callFlare(this.item, searchFor(this.properties, body), {
			pageSize: POLL_PAGE_SIZE,
			from,
			onPage: (records, response) => {
				const now = Date.now();
				slowest = Math.max(slowest, now - pageStart);
				pageStart = now;
				this.take(records, response, now);
				if (records.length > 0) lastPage = records.map(keyOf);
				stopped = !this.fits(slowest);
				return !stopped;
			},
		});
		if (end.next === undefined) {
			// The end: keep the cursor of the last page read, and read that page again next time
			// (Flare's tenant-events guide keeps the last non-null `next` the same way).
			const cursor = end.lastFrom === undefined ? undefined : String(end.lastFrom);
			return { cursor, complete: true, lastPage };
		}
		// Stopped for time or room, or caught up (an empty page that handed back its cursor).
		return { cursor: String(end.next), complete: !stopped, lastPage };
	}

	/** Whether time is left for another walk. */
	get timeLeft(): boolean {
		return this.fits(0);
	}
}

/** Where a new long-lived search starts, and whether what exists now is emitted (a backfill). */
function startOf(item: FlareItem, now: number): { start: string; backfill: boolean } {
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

/** A saved cursor that Flare no longer accepts. */
function isStaleCursor(error: unknown): boolean {
	return error instanceof NodeApiError && ['400', '422'].includes(error.httpCode ?? '');
}

/** An active poll: see the top of this file. */
export async function newCredentials(
	context: IPollFunctions,
	item: FlareItem,
	properties: INodeProperties[],
	query: IDataObject,
	startedAt: number,
): Promise<INodeExecutionData[][] | null> {
	const id = `${context.getWorkflow().id}/${context.getNode().id}`;
	const shared = triggers.get(id) ?? { pollingUntil: 0 };
	triggers.set(id, shared);
	if (shared.pollingUntil > startedAt) return null; // the poll before is still running
	const budget = Math.min(context.getPollBudgetMs?.() ?? Infinity, POLL_TIME_LIMIT_MS);
	shared.pollingUntil = startedAt + budget + 10_000;
	try {
		const staticData = context.getWorkflowStaticData('node');
		const stored = readState(staticData);
		const known =
			shared.state && (!stored || shared.state.rev > stored.rev) ? shared.state : stored;
		const { start, backfill } = startOf(item, startedAt);
		const search = fingerprint({ query, backfill });
		const fresh = known?.search !== search;
		const state: TriggerState = fresh
			? {
					rev: (known?.rev ?? 0) + 1,
					search,
					start,
					since: new Date(startedAt - LOOKBACK_MS).toISOString(),
					seen: { ...known?.seen },
					lastPage: [],
				}
			: JSON.parse(JSON.stringify({ ...known, rev: known!.rev + 1 }));
		const poll = new Poll(item, properties, state, startedAt + budget, fresh && !backfill);

		const body = { query, filters: { imported_at: { gte: state.start } }, order: 'asc' };
		let walked;
		try {
			walked = await poll.walk(body, state.cursor);
		} catch (error) {
			if (!isStaleCursor(error)) throw asNodeError(item, searchOperation, error);
			// Flare refuses the saved cursor: the long-lived search starts again where the sweep
			// starts, whose credentials are all known, so that none is emitted twice.
			state.start = state.since;
			state.search = fingerprint({ query, backfill, start: state.start });
			walked = await poll.walk({ ...body, filters: { imported_at: { gte: state.start } } });
		}
		state.cursor = walked.cursor;
		if (walked.cursor === undefined) delete state.cursor;
		state.lastPage = walked.lastPage;

		if (poll.timeLeft) {
			const sweep = await poll.walk({ ...body, filters: { imported_at: { gte: state.since } } });
			if (sweep.complete) state.since = new Date(startedAt - LOOKBACK_MS).toISOString();
		}
		prune(state);

		// n8n stores the static data with an emit, and after the poll of an activation; the progress
		// of a poll that emits nothing stays in memory, and is simply made again after a restart.
		writeState(staticData, state);
		shared.state = state;
		return poll.items.length > 0 ? [context.helpers.returnJsonArray(poll.items)] : null;
	} finally {
		shared.pollingUntil = 0;
	}
}
