import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRefusedCursorError } from '../Flare/shared/errors';
import type { FlareItem } from '../Flare/shared/item';
import { recordsOf, type FlareResponse } from '../Flare/shared/operation';
import { DOCUMENTED_INTERVAL_MS } from '../Flare/shared/rateGate';
import { asNodeError, callFlare, tenantOf } from '../Flare/shared/runner';
import { FlareClock, LOOKBACK_MS, type ClockReading } from './clock';
import {
	isActivationPoll,
	keepsEmittedState,
	passingError,
	waitsForNextPoll,
	warnOfUnsavedState,
} from './lifecycle';
import {
	digest,
	fingerprint,
	instantOf,
	prune,
	readState,
	resumeAt,
	writeState,
	type TriggerState,
} from './state';
import { scopeOf, startOf, stateFor } from './start';
import { MAX_RECORDS_PER_POLL, OutputLater, searchFor, type Watch } from './watch';

/**
 * One active poll of the Flare Trigger (docs/api-contract.md, "Flare Trigger"), whatever it watches:
 * - the **long-lived search**: the same search every poll — the user's query and filters, arrival
 *   `≥ start`, ascending, pages of the watch's size — resumed from its saved cursor, as Flare's own
 *   clients do; it brings the backlog and whatever Flare appends;
 * - the **sweep**, every {@link SWEEP_EVERY_MS} once the long-lived search has caught up: the same
 *   search over what arrived since the last sweep began, less {@link LOOKBACK_MS}, from its first
 *   page (a sweep longer than a poll goes on at the next); it brings what the saved cursor cannot
 *   (records that became searchable late, or that sort before the cursor), whatever order Flare
 *   returns;
 * - where Flare leaves records out unless asked (the event feeds: remediated and ignored events),
 *   the watch's partitions: the long-lived search walks the first, each sweep all of them in turn;
 * - each record goes out once: its key is checked against what was emitted before (bounded, see
 *   state.ts), and the new state is stored only with the emit, so that a poll that fails stores
 *   nothing; a filter Flare cannot apply for good (what the tenant changes later) is decided at the
 *   record's first read, and remembered as long as its key. A poll emits its records in the order found; one that cannot finish (its deadline, a
 *   full event to ask for again) emits those before and leaves the rest, unread, to the next poll.
 * The model test (test/model/trigger-model.ts) checks these promises as docs/trigger.md states them.
 */

/**
 * A sweep runs when the last one began this long ago (less half a minute, for the timing of n8n's
 * polls): Flare counts the searches of one query within 10 minutes as one, so sweeps cost at most one
 * such window each, and a record that only a sweep finds waits at most this long.
 */
export const SWEEP_EVERY_MS = 10 * 60_000;
const POLL_TIMING_SLACK_MS = 30_000;
/**
 * A poll ends within this (less if n8n's poll budget is shorter), inside n8n's shortest interval
 * (1 min): it stops reading in time, and every request still under way is cancelled at this deadline.
 */
export const POLL_TIME_LIMIT_MS = 45_000;

/** What this process knows of one trigger (workflow and node), shared by its activations. */
export interface Shared {
	/** Whether a poll of it is under way: n8n starts each tick without waiting for the last. */
	polling: boolean;
	/**
	 * The state of the last poll, when it emitted nothing: a later activation (the workflow saved
	 * again) goes on from it rather than from what n8n stored at the last emit. Never the state of a
	 * poll that emitted: n8n may have dropped that poll (n8n 2.41 discards the result of a poll of a
	 * workflow saved meanwhile, and does not store its static data), and its records must come again;
	 * except on n8n 1.x where n8n saves nothing for the workflow (lifecycle.ts `keepsEmittedState`).
	 */
	state?: TriggerState;
	/** Polls in a row in which a record's output could not be made (e.g. Get Full Event failed). */
	failedPolls: number;
}

/** Triggers this process keeps in memory; beyond that, the one polled longest ago is forgotten. */
export const MAX_TRIGGERS = 1_000;
const triggers = new Map<string, Shared>();

/** The shared entry of a trigger, made the newest; the oldest idle ones go beyond the bound. */
export function sharedOf(id: string): Shared {
	const shared = triggers.get(id) ?? { polling: false, failedPolls: 0 };
	triggers.delete(id);
	triggers.set(id, shared);
	for (const [key, entry] of triggers) {
		if (triggers.size <= MAX_TRIGGERS) break;
		if (!entry.polling) triggers.delete(key);
	}
	return shared;
}

/** How many triggers this process keeps in memory. */
export const triggersInMemory = () => triggers.size;

type WalkKind = 'longLived' | 'sweep';

/** A page read by a walk: the cursor it was asked with, and the keys of its records in order. */
interface Page {
	walk: WalkKind;
	/** Which of the watch's partitions the walk searched. */
	part: number;
	from?: string;
	keys: string[];
	/** Keys of the page read last time at the walk's first cursor that the walk had not met before this page. */
	unmet: string[];
}

/** A record read by this poll that goes out (it is new and not part of the baseline). */
interface Found {
	record: IDataObject;
	key: string;
	response: FlareResponse;
	page: Page;
}

/** Where a walk ended: the cursor to resume at, whether it reached the end, and what to skip there. */
interface WalkEnd {
	cursor?: string;
	complete: boolean;
	/** Keys read before that the next walk from `cursor` may meet: it skips them (state.ts `lastPage`). */
	lastPage: string[];
}

/**
 * At most this many keys are kept to be skipped where the long-lived search resumes: the page there,
 * and those of the page read before it that the search has not met again (Flare may show a page
 * empty or short, and its records on the next).
 */
export const MAX_LAST_PAGE = 50;

/** The keys the next walk from a page skips: that page's, then those it may still meet, bounded. */
function lastPageAt(page: Page | undefined, unmet: string[], putBack?: Set<string>): string[] {
	const keys = (page?.keys ?? []).filter((key) => !putBack?.has(key));
	return [...new Set([...keys, ...unmet])].slice(0, MAX_LAST_PAGE);
}

/** A poll in progress: its item and form, its deadline, what it found and what it will store. */
class Poll {
	/** New records, in the order found. */
	readonly found: Found[] = [];
	/** Arrival (ms) of every record the long-lived search read, in order, with its page. */
	private readonly arrivals: Array<{ page: Page; key: string; arrived: number }> = [];
	private read = 0;
	/** The slowest page so far: what one more request is expected to take. */
	private slowestPageMs = 0;
	/** Flare's clock, by the poll's first answer (clock.ts). */
	readonly clock = new FlareClock();

	constructor(
		private readonly item: FlareItem,
		private readonly properties: INodeProperties[],
		private readonly watch: Watch,
		readonly state: TriggerState,
		private readonly deadline: number,
		private readonly cancel: AbortSignal,
		/** At activation without backfill: what exists now is only noted, not emitted. */
		readonly noteAll: boolean,
	) {}

	/** Whether a record that arrived at `arrived` is noted only: what existed at activation. */
	private noted(arrived: number): boolean {
		if (this.noteAll) return true;
		return this.state.baseline !== undefined && arrived < instantOf(this.state.baseline);
	}

	/** Whether a record of `key` was read before (emitted, noted, left out, or on the page resumed). */
	private known(key: string): boolean {
		const { seen, rejected, lastPage } = this.state;
		return key in seen || (rejected !== undefined && key in rejected) || lastPage.includes(key);
	}

	/**
	 * Takes a page: decides each record not read before, once: noted (the baseline's), left out (by
	 * `Watch.accepts`, remembered in `rejected`), or kept to go out.
	 */
	private take(records: IDataObject[], response: FlareResponse, page: Page, now: number): void {
		this.clock.note(response, now);
		const partition = this.watch.partitions?.[page.part];
		for (const record of records) {
			const key = this.watch.keyOf(record);
			page.keys.push(key);
			const arrived = instantOf(this.watch.arrivedAt(record));
			if (page.walk === 'longLived') this.arrivals.push({ page, key, arrived });
			if (this.known(key)) continue;
			if (this.watch.legacyKeysOf?.(record).some((legacy) => this.known(legacy))) continue;
			const arrivedS = Math.floor((Number.isNaN(arrived) ? now : arrived) / 1000);
			if (!this.noted(arrived) && this.watch.accepts?.(record, partition) === false) {
				(this.state.rejected ??= {})[key] = arrivedS;
				continue;
			}
			this.state.seen[key] = arrivedS;
			// Whether it goes out (e.g. a cookie's expiry) is judged as positions are, at the earlier of
			// n8n's clock and Flare's (clock.ts): one clock ahead never loses a valid cookie.
			if (this.noted(arrived) || this.watch.wanted?.(record, this.clock.at(now).present) === false) continue;
			this.found.push({ record, key, response, page });
		}
		this.read += records.length;
	}

	/**
	 * Time (ms) kept free for the output's requests: for what was kept so far (and `coming` more),
	 * each as slow as the slowest page, and no faster than Flare's Basic pace.
	 */
	private outputMs(coming = 0): number {
		const perRecord = this.watch.outputRequestsPerRecord ?? 0;
		const requestMs = Math.max(this.slowestPageMs, DOCUMENTED_INTERVAL_MS.basic);
		return (this.found.length + coming) * perRecord * requestMs;
	}

	/**
	 * Whether another page fits: time left for it (`nextPageMs`) and for the output of what was kept
	 * and what the page may bring, and room.
	 */
	private fits(nextPageMs: number): boolean {
		const coming = this.noteAll ? 0 : this.watch.pageSize;
		return (
			Date.now() + nextPageMs + this.outputMs(coming) < this.deadline &&
			this.read < MAX_RECORDS_PER_POLL &&
			this.found.length < this.watch.maxRecords
		);
	}

	/**
	 * Walks `body` from `from` (a page read before; `rereads`: the keys to skip there) while pages
	 * come and fit (through empty pages, which filters cause). A page that takes longer than the time
	 * left (for it and the output's requests) is dropped, and the walk ends where it had got to.
	 */
	async walk(
		walk: WalkKind,
		body: IDataObject,
		from?: string,
		rereads: string[] = [],
		part = 0,
	): Promise<WalkEnd> {
		let pageStart = Date.now();
		let at = from;
		let read: Page | undefined;
		let stopped = false;
		const unmet = new Set(rereads);
		// The walk's own time limit, earlier than the poll's by the output's time for what was found,
		// so that a page slower than expected leaves time to emit what was found before it.
		const outOfTime = new AbortController();
		let armed: AbortSignal | undefined;
		const arm = () => {
			const ms = Math.max(0, this.deadline - this.outputMs() - Date.now());
			const signal = AbortSignal.timeout(ms);
			armed = signal;
			signal.addEventListener('abort', () => armed === signal && outOfTime.abort(), { once: true });
		};
		arm();
		const item = this.item.withCancel(AbortSignal.any([this.cancel, outOfTime.signal]));
		const search = searchFor(this.watch, this.properties, body);
		const paging = { ...search.paging!, resumable: true };
		let end;
		try {
			end = await callFlare(
				item,
				{ ...search, paging },
				{
					pageSize: this.watch.pageSize,
					from,
					onPage: (records, response) => {
						const now = Date.now();
						this.slowestPageMs = Math.max(this.slowestPageMs, now - pageStart);
						pageStart = now;
						read = { walk, part, from: at, keys: [], unmet: [...unmet] };
						this.take(records, response, read, now);
						for (const key of read.keys) unmet.delete(key);
						const next = paging.next(response.body, recordsOf(response, true));
						at = next === undefined ? at : String(next);
						stopped = !this.fits(this.slowestPageMs);
						arm();
						return !stopped;
					},
				},
			);
		} catch (error) {
			if (!this.cancel.aborted && !outOfTime.signal.aborted) {
				throw asNodeError(this.item, this.watch.operation, error);
			}
			// Out of time: the walk resumes at the page that was under way, not read.
			return { cursor: at, complete: false, lastPage: [...unmet].slice(0, MAX_LAST_PAGE) };
		} finally {
			armed = undefined;
		}
		if (end.next === undefined) {
			// The end: keep the cursor of the last page read, and read that page again next time
			// (Flare's tenant-events guide keeps the last non-null `next` the same way).
			const cursor = end.lastFrom === undefined ? undefined : String(end.lastFrom);
			return { cursor, complete: true, lastPage: lastPageAt(read, read?.unmet ?? [...unmet]) };
		}
		// Stopped for time or room, or at the walk's bound of pages without a new record (Flare's
		// filters leave pages empty: the next poll goes on), or caught up (an empty page that handed
		// back its cursor): the next page is not read yet.
		return {
			cursor: String(end.next),
			complete: !stopped && !end.atBound,
			lastPage: [...unmet].slice(0, MAX_LAST_PAGE),
		};
	}

	/** Whether time is left for another walk. */
	get timeLeft(): boolean {
		return this.fits(0);
	}

	/**
	 * Newest arrival the long-lived search read before `stop` (a page and a key on it, where the
	 * poll stopped emitting), or in all.
	 */
	newestRead(stop?: { page: Page; key: string }): number {
		let newest = Number.NaN;
		for (const { page, key, arrived } of this.arrivals) {
			if (stop && page === stop.page && key === stop.key) break;
			if (!Number.isNaN(arrived) && !(arrived <= newest)) newest = arrived;
		}
		return newest;
	}
}

/**
 * Whether a poll at `now` sweeps: the last sweep began {@link SWEEP_EVERY_MS} ago or more, or at a
 * time that cannot be (none, unreadable, or after `now`: the host's clock went back), so that the
 * sweeps never stop.
 */
export function sweepDue(state: TriggerState, now: number): boolean {
	if (state.sweepStarted !== undefined) return true; // one under way goes on
	const last = instantOf(state.sweptAt ?? '');
	return !(last <= now && now - last < SWEEP_EVERY_MS - POLL_TIMING_SLACK_MS);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a sweep got to: the partition it walked last, and where that walk ended. */
interface SweepEnd extends WalkEnd {
	part: number;
}

/**
 * The sweep: each partition in turn, from the one under way (at its saved cursor) to the last; it
 * is complete when the last is. One whose time runs out between two goes on at the next poll from
 * the next partition's first page.
 */
async function sweepWalk(
	item: FlareItem,
	poll: Poll,
	watch: Watch,
	state: TriggerState,
): Promise<SweepEnd> {
	const parts = watch.partitions?.length ?? 1;
	let part = Math.min(state.sweepPart ?? 0, parts - 1);
	let from = state.sweepFrom;
	for (;;) {
		let end: WalkEnd;
		try {
			end = await poll.walk('sweep', watch.body(state.since, part), from, [], part);
		} catch (error) {
			if (!isRefusedCursorError(error)) throw asNodeError(item, watch.operation, error);
			// From its first page again.
			end = await poll.walk('sweep', watch.body(state.since, part), undefined, [], part);
		}
		if (!end.complete || part === parts - 1) return { ...end, part };
		part++;
		from = undefined;
		if (!poll.timeLeft) return { complete: false, lastPage: [], part };
	}
}

/**
 * A 4xx other than a refused cursor, on the first page of a search resumed from its saved cursor:
 * said as such, with the way out (Flare documents no other answer for a cursor: docs/api-contract.md,
 * "Flare Trigger").
 */
function savedPositionRefused(item: FlareItem, error: unknown, cursor: string): unknown {
	const status = Number((error as NodeApiError).httpCode ?? Number.NaN);
	if (!(error instanceof NodeApiError) || !(status >= 400 && status < 500)) return error;
	if (status === 408 || status === 429) return error;
	return new NodeApiError(
		item.node(),
		{ message: error.message, httpCode: String(status) },
		{
			message: `Flare refused to go on with the trigger's saved search (HTTP ${status}): ${error.message}`,
			description: `The trigger resumes its search at the position Flare gave it last (saved with the workflow, "${cursor.slice(0, 40)}"). If Flare keeps refusing it, change the search and save the workflow (e.g. add a filter, then remove it and save again): the trigger then starts its search again from where it had got to, and nothing already emitted comes again.`,
			httpCode: String(status),
		},
	);
}

/**
 * A record's key for the node's Tenant: a digest of both, no longer than a record's own, so that the
 * state's bound holds (docs/trigger.md, "Bounded"). States saved before keep `<tenant>:<key>`, read
 * as legacy keys.
 */
export const tenantRecordKey = (tenant: number, key: string) => `t:${digest(`${tenant}:${key}`)}`;

/** An active poll (`parameters`: this poll's, read afresh): see the top of this file. */
export async function pollWatch(
	parameters: FlareItem,
	watchOf: (item: FlareItem) => Watch,
	startedAt: number,
): Promise<INodeExecutionData[][] | null> {
	const context = parameters.context as IPollFunctions;
	const shared = sharedOf(`${context.getWorkflow().id}/${context.getNode().id}`);
	const activation = isActivationPoll(context);
	if (shared.polling) return null; // the poll before is still under way
	shared.polling = true;
	try {
		return await pollOnce(parameters, watchOf, startedAt, shared).catch((error: unknown) => {
			// An activation at n8n's start or a save, while Flare fails for now: n8n keeps the trigger
			// only if this poll succeeds (lifecycle.ts); the saved state is as it was. Any other
			// error goes on as it is (a NodeApiError or NodeOperationError already).
			const hasState = shared.state !== undefined || readState(context.getWorkflowStaticData('node')) !== undefined;
			if (activation && waitsForNextPoll(context, hasState, error)) return null;
			throw error;
		});
	} finally {
		shared.polling = false;
	}
}

/** The poll itself, `shared` held for it. */
async function pollOnce(
	parameters: FlareItem,
	watchOf: (item: FlareItem) => Watch,
	startedAt: number,
	shared: Shared,
): Promise<INodeExecutionData[][] | null> {
	const context = parameters.context as IPollFunctions;
	const { properties } = parameters;
	const budget = Math.min(context.getPollBudgetMs?.() ?? Infinity, POLL_TIME_LIMIT_MS);
	const deadline = startedAt + budget;
	const cancel = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
	const item = parameters.withCancel(cancel);
	// The node's Tenant is part of the search (another tenant starts a new one), and of each
	// record's key: a record emitted for one tenant (Flare's event uid names the event, which
	// several tenants may have) still comes for another. Without a Tenant, keys are as saved
	// triggers have them, and the credential's tenant is the search's scope (`scopeOf`;
	// docs/trigger.md, "Changing the query").
	const tenant = tenantOf(item);
	const asked = watchOf(item);
	const watch: Watch =
		tenant === undefined
			? asked
			: {
					...asked,
					keyOf: (record) => tenantRecordKey(tenant, asked.keyOf(record)),
					legacyKeysOf: (record) =>
						[asked.keyOf(record), ...(asked.legacyKeysOf?.(record) ?? [])].map((key) => `${tenant}:${key}`),
				};
	const staticData = context.getWorkflowStaticData('node');
	const stored = readState(staticData);
	const known =
		shared.state && (!stored || shared.state.rev > stored.rev) ? shared.state : stored;
	if (!known) warnOfUnsavedState(context);
	const first = startOf(item, startedAt);
	const search = fingerprint({ query: watch.asked, backfill: first.backfill, tenant });
	const partitioned = (watch.partitions?.length ?? 1) > 1;
	const scope = await scopeOf(item);
	const state = stateFor(known, { search, scope }, first, startedAt, partitioned);
	const poll = new Poll(
		item,
		properties,
		watch,
		state,
		deadline,
		cancel,
		!known && !first.backfill,
	);

	let longLived: WalkEnd;
	try {
		longLived = await poll.walk(
			'longLived',
			watch.body(state.start),
			state.cursor,
			state.lastPage,
		);
	} catch (error) {
		if (!isRefusedCursorError(error)) {
			const refused = state.cursor ? savedPositionRefused(item, error, state.cursor) : error;
			throw asNodeError(item, watch.operation, refused);
		}
		// Flare no longer accepts the saved cursor: the same search starts again where the
		// trigger's knowledge ends, so that nothing is skipped and nothing emitted twice.
		state.start = iso(resumeAt(state, startedAt - LOOKBACK_MS));
		delete state.cursor;
		state.lastPage = [];
		longLived = await poll.walk('longLived', watch.body(state.start));
	}
	// Where the search and the sweeps got to is kept at the earlier of Flare's clock, which dates the
	// records, and n8n's: a step of n8n's clock (NTP, a VM resumed), or one answer dated far ahead,
	// then moves none of it ahead (clock.ts; docs/trigger.md, "How it follows Flare").
	const clocks = poll.clock.at(startedAt);
	let sweep: SweepEnd | undefined;
	if (longLived.complete && sweepDue(state, clocks.present) && poll.timeLeft) {
		sweep = await sweepWalk(item, poll, watch, state);
	}

	const { items, stop, later } = await emit(item, poll, watch, shared, cancel);
	if (later) {
		const message = `Flare could not send ${later.what} (try ${shared.failedPolls} of ${later.tries})`;
		const description = `${later.reason.message}. The trigger asks again at the next poll; after ${later.tries} polls in a row in which Flare could not send it, it emits it anyway, marked with the failure, and at once the others that fail the same way. What came after it waits until then.`;
		if (items.length === 0)
			throw passingError(new NodeOperationError(context.getNode(), message, { description }));
		context.logger?.warn(`${message}: ${description}`);
	}
	settle(state, poll, longLived, sweep, stop, startedAt, clocks);

	// n8n stores the static data with an emit, and after the poll of an activation; the progress
	// of a poll that emits nothing stays in memory, and is simply made again after a restart.
	writeState(staticData, state);
	shared.state = items.length > 0 && !keepsEmittedState(context) ? undefined : state;
	return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
}

/**
 * The output items of the new records, in the order found, up to the first that cannot go out in
 * this poll (`stop`): the deadline came, or its output asked to wait (`later`). A request of the
 * output that fails for now counts once per poll, whichever record it was for (`shared.failedPolls`):
 * once it has failed in as many polls in a row as its output allows, the records go out marked.
 */
async function emit(
	item: FlareItem,
	poll: Poll,
	watch: Watch,
	shared: Shared,
	cancel: AbortSignal,
): Promise<{ items: IDataObject[]; stop?: Found; later?: OutputLater }> {
	const items: IDataObject[] = [];
	const failedBefore = shared.failedPolls;
	const asks = (watch.outputRequestsPerRecord ?? 0) > 0;
	for (const found of poll.found) {
		// Out of time before asking Flare: this record and those after it wait, no try counted.
		if (asks && cancel.aborted) return { items, stop: found };
		let output: IDataObject | OutputLater;
		try {
			output = await watch.output(found.record, found.response);
		} catch (error) {
			if (cancel.aborted) return { items, stop: found };
			throw asNodeError(item, watch.operation, error);
		}
		if (output instanceof OutputLater) {
			// Out of time after others went out: this record and those after it wait for the next
			// poll, where it comes first (no try counted). Out of time on the first: a try, so that
			// it ends.
			if (cancel.aborted && items.length > 0) return { items, stop: found };
			if (failedBefore + 1 < output.tries) {
				shared.failedPolls = failedBefore + 1;
				return { items, stop: found, later: output };
			}
			items.push(output.anyway);
			continue;
		}
		shared.failedPolls = 0;
		items.push(output);
	}
	return { items };
}

/**
 * The state after this poll: where each walk got to; when the poll stopped emitting at `stop`, the
 * records from there on are put back (not seen), and the walk that found the first of them resumes at
 * its page (the sweep, when it ran, then counts as not done), so that the next poll reads them again.
 */
function settle(
	state: TriggerState,
	poll: Poll,
	longLived: WalkEnd,
	sweep: SweepEnd | undefined,
	stop: Found | undefined,
	startedAt: number,
	{ present, latest }: ClockReading,
): void {
	let longLivedEnd = longLived;
	let sweepComplete = sweep?.complete === true;
	if (stop) {
		const putBack = new Set(poll.found.slice(poll.found.indexOf(stop)).map((found) => found.key));
		for (const key of putBack) delete state.seen[key];
		sweepComplete = false;
		if (stop.page.walk === 'longLived') {
			const lastPage = lastPageAt(stop.page, stop.page.unmet, putBack);
			longLivedEnd = { cursor: stop.page.from, complete: false, lastPage };
		}
	}
	// Read up to the newest arrival it read; at its end, up to what may still come late.
	const newest = poll.newestRead(stop?.page.walk === 'longLived' ? stop : undefined);
	// Never after the later clock's present (a state saved while a clock ran ahead), nor before where
	// the search started: what arrived before its start was never read, and a changed search that
	// resumes there would take it as new (the host's clock ahead of Flare's at activation).
	const reached = Math.min(
		latest,
		Math.max(
			...[newest, instantOf(state.reached ?? ''), instantOf(state.start)].filter((ms) => !Number.isNaN(ms)),
			longLivedEnd.complete ? present - LOOKBACK_MS : -Infinity,
		),
	);
	if (Number.isFinite(reached)) state.reached = iso(reached);
	state.cursor = longLivedEnd.cursor;
	if (longLivedEnd.cursor === undefined) delete state.cursor;
	state.lastPage = longLivedEnd.lastPage;
	// What existed at activation: what arrived before Flare's time then (its clock, not n8n's).
	if (poll.noteAll) state.baseline = iso(poll.clock.activationTime(startedAt));
	if (sweepComplete) {
		// Done: the next sweep reads what arrived since this one began, less the look-back, at the
		// earlier clock; never from before where the last one started (the activation's, on the host's
		// clock, may be later; or a clock behind now: reading before it again would emit records whose
		// keys `prune` dropped), nor after the later clock's present (a state saved while a clock ran
		// ahead).
		const began = Math.min(instantOf(state.sweepStarted ?? ''), present);
		const sweptAt = Number.isNaN(began) ? present : began;
		const sinceBefore = instantOf(state.since ?? '');
		const since = Math.max(sweptAt - LOOKBACK_MS, Number.isNaN(sinceBefore) ? -Infinity : sinceBefore);
		state.since = iso(Math.min(since, latest));
		state.sweptAt = iso(sweptAt);
		delete state.sweepFrom;
		delete state.sweepStarted;
		delete state.sweepPart;
	} else if (sweep) {
		// Not done: the next poll goes on from where this one got to (or from its stop).
		const [from, part] =
			stop?.page.walk === 'sweep'
				? [stop.page.from, stop.page.part]
				: stop
					? [state.sweepFrom, state.sweepPart]
					: [sweep.cursor, sweep.part];
		state.sweepStarted ??= iso(present);
		if (from === undefined) delete state.sweepFrom;
		else state.sweepFrom = from;
		if (!part) delete state.sweepPart;
		else state.sweepPart = part;
	}
	// Caught up once, and swept once since activation: what existed then has all been read.
	if (longLivedEnd.complete && state.sweptAt !== undefined) delete state.baseline;
	prune(state);
}
