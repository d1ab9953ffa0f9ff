import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { parameterError } from '../Flare/shared/errors';
import type { FlareItem } from '../Flare/shared/item';
import type { FlareOperation, FlareResponse } from '../Flare/shared/operation';
import { DOCUMENTED_INTERVAL_MS } from '../Flare/shared/rateGate';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import { BACKFILL_MS } from './backfill';
import { fingerprint, instantOf, prune, readState, writeState, type TriggerState } from './state';

/**
 * One active poll of the Flare Trigger (docs/api-contract.md, "Flare Trigger"), whatever it watches:
 * - the **long-lived search**: the same search every poll — the user's query and filters, arrival
 *   `≥ start`, ascending, pages of the watch's size — resumed from its saved cursor, as Flare's own
 *   clients do; it brings the backlog and whatever Flare appends;
 * - the **sweep**, every {@link SWEEP_EVERY_MS}: the same search over what arrived since the last
 *   sweep began, less {@link LOOKBACK_MS}, from its first page; it brings what the saved cursor cannot
 *   (records that became searchable late, or that sort before the cursor), whatever order Flare returns;
 * - each record goes out once: its key is checked against what was emitted before (bounded, see
 *   state.ts), and the new state is stored only with the emit, so that a poll that fails stores nothing.
 */

/** What a kind of trigger watches (a search of Flare), and what it makes of new records. */
export interface Watch {
	/** The paged search; the poll walks it as a resumable walk. */
	operation: FlareOperation;
	/** Values of the search path's placeholders, e.g. `{identifier_id}`. */
	pathParameters?: Record<string, string | number>;
	/** What the user asks for (query, filters): a change starts a new long-lived search. */
	asked: IDataObject;
	/** The request body: what the user asks for, arrived at or after `gte` (ISO 8601), ascending. */
	body(gte: string): IDataObject;
	/** The request body of a test: what the user asks for, newest first. */
	newest: IDataObject;
	/** What identifies a record, stable across searches. */
	keyOf(record: IDataObject): string;
	/** When the record reached Flare (the field `body` filters on). */
	arrivedAt(record: IDataObject): unknown;
	/** Results asked for per page, the same for the trigger's life (Flare's paging rule). */
	pageSize: number;
	/** Most records one poll reads; the rest waits for the next poll. */
	maxRecords: number;
	/**
	 * Requests `output` sends per new record (e.g. one to fetch each full event): their time, counted
	 * as a page's, is kept free within the poll's time limit, so that the whole poll ends within it.
	 */
	outputRequestsPerRecord?: number;
	/** The output items of a page's new records (may ask Flare for more). */
	output(records: IDataObject[], response: FlareResponse): Promise<IDataObject[]>;
}

/** How late a record may become searchable (10 min), plus clocks apart by up to 5 min. */
export const LOOKBACK_MS = 15 * 60_000;
/**
 * A sweep runs when the last one began this long ago (less half a minute, for the timing of n8n's
 * polls): Flare counts the searches of one query within 10 minutes as one, so sweeps cost at most one
 * such window each, and a record that only a sweep finds waits at most this long.
 */
export const SWEEP_EVERY_MS = 10 * 60_000;
const POLL_TIMING_SLACK_MS = 30_000;
/** A poll stops fetching after this, within n8n's shortest interval (1 min); the rest waits a poll. */
export const POLL_TIME_LIMIT_MS = 45_000;
/** Records one poll holds at most, unless its kind sets fewer; the rest waits for the next poll. */
export const MAX_RECORDS_PER_POLL = 1_000;

/**
 * What this process knows of each trigger (workflow and node), shared by every activation of it:
 * whether a poll is running (n8n starts each tick without waiting for the last), and the newest state
 * (a second activation of the same workflow has a static data copy of its own).
 */
const triggers = new Map<string, { pollingUntil: number; state?: TriggerState }>();

/** The watched search with the trigger's form, sending `body`. */
export function searchFor(
	watch: Watch,
	properties: INodeProperties[],
	body: IDataObject,
): FlareOperation {
	return {
		...watch.operation,
		// The node's hints name fields of the node's form, not of the trigger's.
		narrow: undefined,
		properties,
		prepare(_item, request) {
			request.pathParameters = { ...watch.pathParameters };
			request.body = body;
		},
	};
}

/** A poll in progress: its item and form, its deadline, what it found and what it will store. */
class Poll {
	/** New records page by page, with the answer that brought them. */
	readonly found: Array<[IDataObject[], FlareResponse]> = [];
	private read = 0;
	/** New records kept for the output. */
	private kept = 0;
	/** The slowest page so far: what one more request is expected to take. */
	private slowestPageMs = 0;

	constructor(
		private readonly item: FlareItem,
		private readonly properties: INodeProperties[],
		private readonly watch: Watch,
		readonly state: TriggerState,
		private readonly deadline: number,
		/** At activation without backfill: what exists now is only noted, not emitted. */
		private readonly baseline: boolean,
	) {}

	/** Takes a page: notes each record not seen before, and keeps it unless this is the baseline. */
	private take(records: IDataObject[], response: FlareResponse, now: number): void {
		const fresh: IDataObject[] = [];
		for (const record of records) {
			const key = this.watch.keyOf(record);
			if (key in this.state.seen || this.state.lastPage.includes(key)) continue;
			const arrived = instantOf(this.watch.arrivedAt(record));
			this.state.seen[key] = Math.floor((Number.isNaN(arrived) ? now : arrived) / 1000);
			fresh.push(record);
		}
		this.read += records.length;
		if (!this.baseline && fresh.length > 0) {
			this.found.push([fresh, response]);
			this.kept += fresh.length;
		}
	}

	/**
	 * Whether another page fits: time left for it (`nextPageMs`) and for the output's requests for
	 * what was kept so far and what the page may bring (each as slow as the slowest page, and no
	 * faster than Flare's Basic pace), and room.
	 */
	private fits(nextPageMs: number): boolean {
		const perRecord = this.watch.outputRequestsPerRecord ?? 0;
		const requestMs = Math.max(this.slowestPageMs, DOCUMENTED_INTERVAL_MS.basic);
		const outputMs = (this.kept + this.watch.pageSize) * perRecord * requestMs;
		return Date.now() + nextPageMs + outputMs < this.deadline && this.read < this.watch.maxRecords;
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
		let lastPage: string[] = [];
		let stopped = false;
		const search = searchFor(this.watch, this.properties, body);
		const resumable = { ...search, paging: { ...search.paging!, resumable: true } };
		const end = await callFlare(this.item, resumable, {
			pageSize: this.watch.pageSize,
			from,
			onPage: (records, response) => {
				const now = Date.now();
				this.slowestPageMs = Math.max(this.slowestPageMs, now - pageStart);
				pageStart = now;
				this.take(records, response, now);
				if (records.length > 0) lastPage = records.map((record) => this.watch.keyOf(record));
				stopped = !this.fits(this.slowestPageMs);
				return !stopped;
			},
		});
		if (end.next === undefined) {
			// The end: keep the cursor of the last page read, and read that page again next time
			// (Flare's tenant-events guide keeps the last non-null `next` the same way).
			const cursor = end.lastFrom === undefined ? undefined : String(end.lastFrom);
			return { cursor, complete: true, lastPage };
		}
		// Stopped for time or room, or at the walk's bound of pages without a new record (filters leave
		// pages empty), or caught up (an empty page that handed back its cursor).
		return { cursor: String(end.next), complete: !stopped && !end.atBound, lastPage };
	}

	/** Whether time is left for another walk. */
	get timeLeft(): boolean {
		return this.fits(0);
	}

	/** The output items of everything new, in the order found. */
	async items(): Promise<IDataObject[]> {
		const items: IDataObject[] = [];
		for (const [records, response] of this.found) {
			items.push(...(await this.watch.output(records, response)));
		}
		return items;
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

/**
 * Whether a poll at `now` sweeps: the last sweep began {@link SWEEP_EVERY_MS} ago or more, or at a
 * time that cannot be (none, unreadable, or after `now`: the host's clock went back), so that the
 * sweeps never stop.
 */
export function sweepDue(state: TriggerState, now: number): boolean {
	const last = instantOf(state.sweptAt ?? '');
	return !(last <= now && now - last < SWEEP_EVERY_MS - POLL_TIMING_SLACK_MS);
}

/** A saved cursor that Flare no longer accepts. */
function isStaleCursor(error: unknown): boolean {
	return error instanceof NodeApiError && ['400', '422'].includes(error.httpCode ?? '');
}

/** An active poll: see the top of this file. */
export async function pollWatch(
	context: IPollFunctions,
	item: FlareItem,
	properties: INodeProperties[],
	watch: Watch,
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
		const search = fingerprint({ query: watch.asked, backfill });
		const fresh = known?.search !== search;
		const state: TriggerState = fresh
			? {
					rev: (known?.rev ?? 0) + 1,
					search,
					start,
					since: new Date(startedAt - LOOKBACK_MS).toISOString(),
					// The long-lived search starts at least as early as a sweep would.
					sweptAt: new Date(startedAt).toISOString(),
					seen: { ...known?.seen },
					lastPage: [],
				}
			: JSON.parse(JSON.stringify({ ...known, rev: known!.rev + 1 }));
		const poll = new Poll(item, properties, watch, state, startedAt + budget, fresh && !backfill);

		let walked;
		try {
			walked = await poll.walk(watch.body(state.start), state.cursor);
		} catch (error) {
			if (!isStaleCursor(error)) throw asNodeError(item, watch.operation, error);
			// Flare refuses the saved cursor: the long-lived search starts again where the sweep
			// starts, whose records are all known, so that none is emitted twice.
			state.start = state.since;
			state.search = fingerprint({ query: watch.asked, backfill, start: state.start });
			walked = await poll.walk(watch.body(state.start));
		}
		state.cursor = walked.cursor;
		if (walked.cursor === undefined) delete state.cursor;
		state.lastPage = walked.lastPage;

		if (sweepDue(state, startedAt) && poll.timeLeft) {
			const sweep = await poll.walk(watch.body(state.since));
			if (sweep.complete) {
				state.since = new Date(startedAt - LOOKBACK_MS).toISOString();
				state.sweptAt = new Date(startedAt).toISOString();
			}
		}
		prune(state);
		const items = await poll.items();

		// n8n stores the static data with an emit, and after the poll of an activation; the progress
		// of a poll that emits nothing stays in memory, and is simply made again after a restart.
		writeState(staticData, state);
		shared.state = state;
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	} finally {
		shared.pollingUntil = 0;
	}
}
