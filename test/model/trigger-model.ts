/**
 * The Flare Trigger checked against a model (docs/trigger.md, "Exactly once, and when";
 * docs/api-contract.md, "What the model checks"): random sequences of what Flare and n8n can do —
 * records arriving (on time, searchable up to 10 minutes late, with one timestamp for several,
 * bursts up to past the 2,000 keys the state keeps, matching one search and not the other), ticks
 * that overlap a slow poll, slow answers, 429s and 5xx mid-walk, a refused cursor, restarts and saves
 * of the workflow with a changed search or Backfill (also while a poll is under way), on n8n 2.41 or
 * 1.123 as each run draws, as test/harness/poll.ts reproduces them (n8n 2.41 drops that poll's result
 * and keeps a trigger saved unchanged; n8n 1.123 emits it, which may repeat its records: the stated
 * limit), long runs of empty pages, full events that
 * fail, Flare's clock up to 5 minutes off and the host's clock stepped; for New Event also what the
 * tenant does to an event after it entered the feed (remediate, ignore and undo them, a severity
 * override, a tag), by this workflow on what it emitted or by anyone at any time, before or after
 * the trigger's first read, and the same uid filed again — run against the fake Flare API in
 * n8n-core's real poll context, on virtual time.
 *
 * The model is simple: what must reach the workflow, and when.
 * - **Exactly once**: every record that became searchable after activation (or lies in the Backfill
 *   window at activation) and matches the search from then on is emitted once; so is one that
 *   matches only a search the user changed to, when it became searchable after the last poll before
 *   the change; no record is emitted twice.
 * - **Nothing else**: no emitted record fails to match the search of the poll that emitted it (for
 *   New Event: at some instant while that poll ran); none that existed before activation, outside the
 *   Backfill window.
 * - **Decided at the first read** (New Event, docs/trigger.md): an event is required when it matches
 *   the search at every instant from when a poll could first read it until it is emitted, whoever
 *   changed it before (remediated or ignored events included: Flare's feed leaves them out unless
 *   asked); one that matched at no instant from then until the trigger must have read it (the "in
 *   time" bound below) is never emitted under that search, however it changes later — unless n8n
 *   restarted after that without storing the trigger's state since (what it read since its last
 *   execution is read again: a stated limit). Each filing of a uid is its own entry: one filed again
 *   is required again; the filing it replaced, not any more.
 * - **In time**, counted in clean polls (below) from when the record is due: a record on time (dated
 *   after every record before it, searchable at once) by the first clean poll that starts after it
 *   became searchable; any other (searchable late, or sorted before others) by the third clean poll
 *   that starts 10 minutes or more after (the sweep's period); plus one poll per batch a poll reads
 *   ahead of it (records still to emit before it, a backlog or burst, a run of empty pages, what a
 *   restart, a refused cursor or a changed search reads again: {@link capacityOf} says how much a
 *   poll of the run's budget reads). Counted again from a restart or a change of the search.
 * - **Bounded**: after every poll the trigger's static data is under 64 KB, with at most 2,000 keys.
 * - **Stated limits** (docs/trigger.md), where the model does not require a record: one that becomes
 *   searchable late, dated before the activation, while the activation's baseline stands (an
 *   activation that could not read everything); one dated before the newest 2,000 that a sweep or a
 *   restarted search would have to read again.
 *
 * A poll is clean when it ran alone (no other in flight when it started), ended without an error and
 * was not dropped, and no fault could touch it (none pending when it started or ended, none added
 * meanwhile or in the 2 minutes before it started, no full event failing for ever still to be
 * emitted). Ticks are scheduled with fast-check's scheduler, so a tick fires at a random point among
 * the commands that follow it; time moves only by `advance`.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FakeFlare, FakeFlareOptions } from '../fake-flare';
import type { FaultRule } from '../fake-flare/faults';
import type { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import { N8N_LINES, type N8nLine } from '../harness/static-data';
import type { VirtualTime } from '../support/clock';
import { performance, processRef } from '../support/node';

export type Kind = 'credential' | 'event' | 'cookie';
/** The searches of a run: A and B for every kind, C for New Event only. */
type SearchName = 'A' | 'B' | 'C';
/** Which searches a record matches: A, B, both or none. */
type Match = 'both' | 'aOnly' | 'bOnly' | 'none';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The sweep's period: what comes late is found within it. */
const SWEEP_EVERY = 10 * MINUTE;
/** How late a record may become searchable, and how far apart Flare's and n8n's clocks may be. */
const LATE = 10 * MINUTE;
const SKEW = 5 * MINUTE;
/** Clean polls starting 10 minutes after a late record became searchable, by the last of which it is out. */
export const CLEAN_POLLS_BOUND = 3;
/** The trigger's static data bound (docs/trigger.md, "Bounded"). */
const STATE_BYTES = 64 * 1024;
const MAX_KEYS = 2_000;
/** Records newer than one, from which on the trigger may have dropped keys of its time (state.ts `prune`). */
const CROWDED = MAX_KEYS - 200;
/** Polls every minute at the end of a run, with no fault: enough for sweeps to find what is left. */
const DRAIN_POLLS = 25;
/** Polls go on until every record due is out, or this many. */
const MAX_DRAIN_POLLS = 500;
/** The poll time limit of the trigger (poll.ts `POLL_TIME_LIMIT_MS`). */
const POLL_LIMIT = 45 * SECOND;
/** After a fault, polls are not clean for this long (a 429's pause of the rate gate outlives it). */
const FAULT_SHADOW = 2 * MINUTE;
/** What a restart, a refused cursor or a changed search may read again: since about this long before. */
const REREAD = 40 * MINUTE;

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const FEED_PATH = '/firework/v4/events/tenant/_search';
const ACTIVITY_PATH = '/firework/v2/activities/';
const COOKIE_PATH = '/astp/v2/cookies/_search';
/** The domain the cookie runs watch, and the cookie names of each search's match. */
const COOKIE_DOMAIN = 'acme.com';
const COOKIE_NAMES: Record<Match, string> = { both: 'session', aOnly: 'sid', bOnly: 'token', none: 'session' };

const iso = (ms: number) => new Date(ms).toISOString();
const wholeSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** What the tenant changed of an event (New Event): the fake's tenant metadata, in the model's terms. */
export interface TenantState {
	override: Severity | null;
	tags: string[];
	ignored: boolean;
	remediated: boolean;
}
type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical';
const SEVERITIES: Severity[] = ['info', 'low', 'medium', 'high', 'critical'];
const NO_STATE: TenantState = { override: null, tags: [], ignored: false, remediated: false };
const ESCALATE = 'escalate';

/** What one kind of trigger watches, in the model's terms. */
interface KindSpec {
	fake: FakeFlareOptions;
	parameters(search: SearchName, backfill: string, fetchFullEvent: boolean): IDataObject;
	/** Whether a record of `match` (events: of `severity`, in `state`) matches `search`. */
	matches(match: Match, search: SearchName, severity?: Severity, state?: TenantState): boolean;
	/** The key of an emitted item (the model's record key). */
	keyOf(item: INodeExecutionData): string;
	/** The path of the search's pages. */
	pagePath: string;
}

const USER = 'model.user';

const KINDS: Record<Kind, KindSpec> = {
	credential: {
		// Seeded credentials all lie 60 days back: every record the run sees is the model's own.
		fake: { credentials: 50, domains: ['acme.com', 'example.com'] },
		// A: the domain acme.com; B: the username model.user, on any domain.
		parameters: (search, backfill) => ({
			...(search === 'A'
				? { queryType: 'domain', fqdn: 'acme.com' }
				: { queryType: 'keyword', keyword: USER }),
			options: { backfill },
		}),
		matches: (match, search) => match === 'both' || match === (search === 'A' ? 'aOnly' : 'bOnly'),
		keyOf: (item) => String(item.json.id),
		pagePath: SEARCH_PATH,
	},
	event: {
		fake: { credentials: 50, eventsPerTenant: 10 },
		// A: severity high or more, whoever acted on the event (the default); B: critical only, and
		// neither ignored nor remediated; C: tagged "escalate". All of them as the tenant sees the
		// event (its severity override, its tags) when the trigger first reads it.
		parameters: (search, backfill, fetchFullEvent) => ({
			event: 'newEvent',
			...(search === 'A' ? { severityFilter: 'minimum', minimumSeverity: 'high' } : {}),
			...(search === 'B'
				? {
						severityFilter: 'list',
						severities: ['critical'],
						filters: { leaveOutIgnored: true, leaveOutRemediated: true },
					}
				: {}),
			...(search === 'C' ? { filters: { tags: ESCALATE } } : {}),
			options: { backfill, fetchFullEvent },
		}),
		matches: (_match, search, severity = 'info', state = NO_STATE) => {
			const seen = state.override ?? severity;
			if (search === 'A') return SEVERITIES.indexOf(seen) >= SEVERITIES.indexOf('high');
			if (search === 'B') return seen === 'critical' && !state.ignored && !state.remediated;
			return state.tags.includes(ESCALATE);
		},
		// Each filing of an event into the feed is an entry of its own (docs/trigger.md).
		keyOf: (item) => {
			const metadata = (item.json as IDataObject).metadata as IDataObject;
			return `${String(metadata.uid)} ${String(metadata.matched_at)}`;
		},
		pagePath: FEED_PATH,
	},
	cookie: {
		// Few stealer logs, all 60 days back: every cookie the run sees is the model's own.
		fake: { credentials: 50, eventsPerTenant: 4 },
		// A: session and sid cookies of acme.com; B: session and token. A record of neither search is
		// a session cookie that had expired when it leaked, which the trigger leaves out.
		parameters: (search, backfill) => ({
			event: 'newLeakedCookie',
			domain: COOKIE_DOMAIN,
			names: search === 'A' ? 'session, sid' : 'session, token',
			options: { backfill },
		}),
		matches: (match, search) => match === 'both' || match === (search === 'A' ? 'aOnly' : 'bOnly'),
		keyOf: (item) => String(item.json.uuid),
		pagePath: COOKIE_PATH,
	},
};

/** An event's severity and tags as it enters the feed, by which searches it then matches. */
const EVENT_OF: Record<Match, { severity: Severity; tags: string[] }> = {
	both: { severity: 'critical', tags: [ESCALATE] },
	aOnly: { severity: 'high', tags: [] },
	bOnly: { severity: 'medium', tags: [ESCALATE] },
	none: { severity: 'low', tags: [] },
};

/** What one clean poll reads at least: records (and their output), and pages. */
interface Capacity {
	records: number;
	pages: number;
}

/**
 * What a poll with `budgetMs` reads at least, with room to spare: 60% of its time at Flare's pace
 * (the global search 1 page of 5 a second; the feeds 4 requests a second, pages of 10, and one
 * request per event with Fetch Full Event), within the trigger's caps (1,000 records, 100 events
 * with their full events).
 */
export function capacityOf(kind: Kind, budgetMs: number, fetchFullEvent: boolean): Capacity {
	const usable = Math.min(budgetMs, POLL_LIMIT) * 0.6;
	if (kind === 'cookie') {
		// The cookie search: 4 requests a second, pages of 25, at most 1,000 records a poll.
		const pages = Math.max(1, Math.floor(usable / 250));
		return { records: Math.min(1_000, pages * 25), pages };
	}
	if (kind === 'credential') {
		const pages = Math.max(1, Math.floor(usable / 1_000));
		return { records: pages * 5, pages };
	}
	const pages = Math.max(1, Math.floor(usable / 250));
	const records = fetchFullEvent
		? Math.max(1, Math.min(100, Math.floor(pages / 1.1)))
		: Math.min(1_000, pages * 10);
	// With Fetch Full Event a poll keeps the time of a page's full events (10 at Flare's pace) free.
	const reserve = fetchFullEvent ? 10 * 250 : 0;
	return { records, pages: Math.max(1, Math.floor((Math.min(budgetMs, POLL_LIMIT) - reserve) * 0.6 / 250)) };
}

interface RecordInfo {
	match: Match;
	/** Its date on Flare's clock (ms). */
	arrival: number;
	/** When it became searchable (this process's monotonic time). */
	searchableAt: number;
	/** Searchable when the trigger was activated. */
	preExisting: boolean;
	/** Dated after every record before it and searchable at once: the next poll finds it. */
	onTime: boolean;
	/** An ignored event of a run of them (EmptyRun): pages Flare leaves empty. */
	ignored: boolean;
	/** New Event: the uid, Flare's own severity, and what the tenant changed, from when. */
	uid?: string;
	severity?: Severity;
	states?: Array<{ at: number; state: TenantState }>;
	/** New Event: filed again (another entry of the uid replaced this one) at this time. */
	refiledAt?: number;
}

interface PollInfo {
	index: number;
	started: number;
	ended?: number;
	search: SearchName;
	/** Another poll was in flight when this one started. */
	overlapped: boolean;
	faultEpochAtStart: number;
	faultsPendingAtStart: boolean;
	brokenPendingAtStart: boolean;
	clean?: boolean;
	emitted: string[];
	error?: string;
	/** n8n dropped its result: the workflow was saved, or n8n restarted, while it ran. */
	discarded?: boolean;
	/**
	 * n8n 1.123: the workflow was saved while it ran, and n8n emitted it anyway, storing the state of
	 * the activation before: what it emitted may come once more (docs/trigger.md, "Known limits").
	 */
	superseded?: boolean;
}

/** Work a poll has to read through that is no record due: how many clean polls it takes, from when. */
interface Load {
	at: number;
	polls: number;
	/** Read again (a restart, a refused cursor, a changed search): it delays what is due before it too. */
	reread?: boolean;
}

/** A search in force from `at` (the activation or a save of the workflow). */
interface Period {
	at: number;
	search: SearchName;
	/** Backfill (with the search, what the trigger's saved search is). */
	backfill: string;
	/** When the last poll before it started: what became searchable since is read by the new search. */
	lastPollStart: number;
}

/** The model: what the run did, and what must come of it. */
export class Model {
	search: SearchName = 'A';
	readonly periods: Period[] = [];
	readonly records = new Map<string, RecordInfo>();
	readonly polls: PollInfo[] = [];
	/** Record key → index of the poll that emitted it. */
	readonly emittedBy = new Map<string, number>();
	readonly violations: string[] = [];
	activationAt = 0;
	/** Flare's time at activation. */
	flareActivationAt = 0;
	emptyRunUsed = false;
	burstUsed = false;
	/** Counted up whenever a fault is added, so that a poll knows whether one came during it. */
	faultEpoch = 0;
	/** Polls that start before this are not clean: a fault came shortly before. */
	faultShadowUntil = 0;
	/** Events whose full event always fails. */
	readonly broken = new Set<string>();
	/** When n8n restarted or the search changed: what the trigger read since its last emit is read again. */
	readonly disruptions: number[] = [];
	/** When n8n restarted (its memory lost). */
	readonly restarts: number[] = [];
	/** When Flare refused the cursors, or the search changed: the search starts again where its knowledge ends. */
	readonly restartsOfSearch: number[] = [];
	readonly loads: Load[] = [];
	/** The newest date of any record so far (Flare's clock). */
	newestArrival = -Infinity;
	/** The pre-existing records the activation has to read, in its window. */
	activationLoad = 0;
	/** Records emitted a second time after a superseded poll emitted them (n8n 1.123). */
	readonly repeated = new Set<string>();

	constructor(
		readonly kind: Kind,
		readonly backfillMs: number,
		readonly fetchFullEvent: boolean,
		readonly capacity: Capacity,
	) {}

	/** The search in force at `time`. */
	private periodAt(time: number): number {
		let index = 0;
		for (const [k, period] of this.periods.entries()) if (period.at <= time) index = k;
		return index;
	}

	/** Where period `index` ends (the next one's start, or never). */
	private periodEnd(index: number): number {
		return this.periods[index + 1]?.at ?? Infinity;
	}

	/** The tenant's state of an event at `time` (none for credentials). */
	stateAt(record: RecordInfo, time: number): TenantState {
		let state = NO_STATE;
		for (const change of record.states ?? []) if (change.at <= time) state = change.state;
		return state;
	}

	/** Whether `record` matches `search` at `time`. */
	matchesAt(record: RecordInfo, search: SearchName, time: number): boolean {
		const state = this.stateAt(record, time);
		return KINDS[this.kind].matches(record.match, search, record.severity, state);
	}

	/** The instants in [from, to] at which what a record matches may change: `from` and each change. */
	private instants(record: RecordInfo, from: number, to: number): number[] {
		const changes = (record.states ?? []).map((change) => change.at);
		return [from, ...changes.filter((at) => at > from && at <= to)];
	}

	/** Whether `record` matches `search` at every instant of [from, to]. */
	matchesThroughout(record: RecordInfo, search: SearchName, from: number, to: number): boolean {
		return this.instants(record, from, to).every((at) => this.matchesAt(record, search, at));
	}

	/** Whether `record` matches `search` at some instant of [from, to]. */
	matchesSometime(record: RecordInfo, search: SearchName, from: number, to: number): boolean {
		return this.instants(record, from, to).some((at) => this.matchesAt(record, search, at));
	}

	/**
	 * When a poll could first read what became searchable at `after`: the start of the first poll
	 * that started at or after it, or `after` itself when a poll was under way then.
	 */
	firstPossibleRead(after: number): number {
		let first = Infinity;
		for (const poll of this.polls) {
			if ((poll.ended ?? Infinity) < after) continue;
			first = Math.min(first, Math.max(poll.started, after));
		}
		return first;
	}

	/** When the record was emitted (the start of the poll that did), or never. */
	private emittedAt(key: string): number {
		return this.polls[this.emittedBy.get(key) ?? Infinity]?.started ?? Infinity;
	}

	/**
	 * Whether the record matches the search of every period from `first` on, at every instant from
	 * when a poll could first read it in that period until it was emitted (or the run ended): then
	 * whenever the trigger first reads it, it matches.
	 */
	private matchesFrom(key: string, record: RecordInfo, first: number): boolean {
		// What never changed matches at every instant or at none (most records: quick).
		if ((record.states?.length ?? 0) <= 1)
			return this.periods.slice(first).every((period) => this.matchesAt(record, period.search, Infinity));
		const until = Math.min(this.emittedAt(key), this.polls.at(-1)?.started ?? Infinity);
		return this.periods.slice(first).every((period, offset) => {
			const from = this.firstPossibleRead(Math.max(record.searchableAt, period.at));
			const to = Math.min(until, this.periodEnd(first + offset));
			return from > to || this.matchesThroughout(record, period.search, from, to);
		});
	}

	/** Whether a record must reach the workflow exactly once (else: at most once, or never). */
	must(key: string): boolean {
		const record = this.records.get(key)!;
		if (record.ignored || this.mustNot(key) || this.limited(record)) return false;
		// A filing replaced by another of its uid before it was emitted: the feed no longer lists it.
		if (record.refiledAt !== undefined) return false;
		if (record.preExisting) return this.backfillMs > 0 && this.matchesFrom(key, record, 0);
		// The search it became searchable under, or one changed to after it (then it is read again).
		const own = this.periodAt(record.searchableAt);
		for (let first = own; first < this.periods.length; first++) {
			// A save that leaves the search as it was goes on with what the trigger decided.
			const [period, before] = [this.periods[first], this.periods[first - 1]];
			if (first > own && period.search === before.search && period.backfill === before.backfill)
				continue;
			const covered = first === own || record.searchableAt >= period.lastPollStart;
			if (covered && this.matchesFrom(key, record, first)) return true;
		}
		return false;
	}

	/** Whether a record must never reach the workflow, whatever the search. */
	mustNot(key: string): boolean {
		const record = this.records.get(key)!;
		if (!record.preExisting) return false;
		return this.backfillMs === 0 || record.arrival < this.activationAt - this.backfillMs;
	}

	/** The stated limits (docs/trigger.md): a record the trigger may take as existing, or skip. */
	private limited(record: RecordInfo): boolean {
		// Searchable late, dated before the activation, while the activation's baseline may stand.
		if (
			!record.preExisting &&
			this.backfillMs === 0 &&
			record.arrival < this.flareActivationAt &&
			this.activationLoad > this.capacity.records * 0.3
		)
			return true;
		// Dated before the newest 2,000: its key, or those of its second, may have been dropped, and
		// a sweep or a restarted search starts after them.
		if (record.onTime && !this.restartsOfSearch.some((at) => at >= record.searchableAt))
			return false;
		return this.datedFrom(record.arrival) > CROWDED;
	}

	private arrivals = { size: -1, sorted: [] as number[] };

	/**
	 * How many records are dated at or after `arrival` (New Event keeps the key of every event it
	 * reads: those a filter left out too).
	 */
	private datedFrom(arrival: number): number {
		if (this.arrivals.size !== this.records.size) {
			const sorted = [...this.records.values()]
				.filter((record) => this.kind === 'event' || !record.ignored)
				.map((record) => record.arrival)
				.sort((a, b) => a - b);
			this.arrivals = { size: this.records.size, sorted };
		}
		const { sorted } = this.arrivals;
		let low = 0;
		let high = sorted.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if (sorted[middle] < arrival) low = middle + 1;
			else high = middle;
		}
		return sorted.length - low;
	}

	/** Records a poll that ended, and checks what it emitted and the state it left. */
	ended(
		poll: PollInfo,
		result: PollResult,
		state: IDataObject,
		pendingFaults: boolean,
		now: number,
	): void {
		poll.emitted = (result.items ?? []).map((item) => KINDS[this.kind].keyOf(item));
		poll.error = result.error?.message;
		poll.discarded = result.discarded === true;
		const stillBroken = [...this.broken].some((key) => !this.emittedBy.has(key));
		poll.clean =
			!poll.overlapped &&
			!poll.discarded &&
			poll.error === undefined &&
			!poll.faultsPendingAtStart &&
			!pendingFaults &&
			poll.faultEpochAtStart === this.faultEpoch &&
			poll.started >= this.faultShadowUntil &&
			!poll.brokenPendingAtStart &&
			!stillBroken;
		if (poll.faultsPendingAtStart || pendingFaults)
			this.faultShadowUntil = Math.max(this.faultShadowUntil, now + FAULT_SHADOW);
		for (const [index, key] of poll.emitted.entries()) {
			const record = this.records.get(key);
			const where = `poll ${poll.index} (search ${poll.search}) emitted ${key}`;
			if (!record) this.violations.push(`${where}, a record the model never added`);
			else if (!this.matchesSometime(record, poll.search, poll.started, now))
				this.violations.push(
					`${where}, which does not match the search (${record.match}${record.states ? `, ${JSON.stringify(this.stateAt(record, now))}` : ''}) while that poll ran`,
				);
			else if (this.mustNot(key))
				this.violations.push(
					`${where}, which existed before activation, outside the Backfill window`,
				);
			const before = this.emittedBy.get(key);
			if (before === undefined) this.emittedBy.set(key, poll.index);
			else if (this.polls[before]?.superseded && !this.repeated.has(key)) this.repeated.add(key);
			else this.violations.push(`${where} again: poll ${before} emitted it before`);
			if (this.kind === 'event' && this.fetchFullEvent) {
				const json = (result.items ?? [])[index].json;
				const marked =
					json.fullEvent === null &&
					(json.fullEventNotFound === true || json.fullEventError !== undefined);
				if (!(typeof json.fullEvent === 'object' && json.fullEvent !== null) && !marked)
					this.violations.push(`${where} without its full event, unmarked`);
			}
		}
		const bytes = Buffer.byteLength(JSON.stringify(state));
		const keys =
			Object.keys((state.seen as IDataObject | undefined) ?? {}).length +
			Object.keys((state.rejected as IDataObject | undefined) ?? {}).length;
		if (bytes >= STATE_BYTES || keys > MAX_KEYS)
			this.violations.push(
				`after poll ${poll.index} the state holds ${keys} keys in ${bytes} bytes`,
			);
	}

	/** Adds work that takes `records` (and `pages` of empty pages) to read, from `at`. */
	addLoad(at: number, records: number, pages = 0, reread = false): void {
		const polls =
			Math.ceil(records / this.capacity.records) + Math.ceil(pages / this.capacity.pages);
		if (polls > 0) this.loads.push({ at, polls, reread });
	}

	/**
	 * What a restart, a refused cursor or a changed search reads again at `at`: the records of the
	 * search in force that became searchable since {@link REREAD} before, and the loads since then.
	 */
	addReread(at: number): void {
		let records = 0;
		let pages = 0;
		for (const record of this.records.values()) {
			if (record.searchableAt < at - REREAD) continue;
			// New Event reads every event of the feed (the filters on the tenant's state are its own).
			if (this.kind === 'event') records++;
			else if (record.ignored) pages += 0.1;
			else if (this.matchesAt(record, this.search, at)) records++;
		}
		this.addLoad(at, records, Math.ceil(pages), true);
		for (const load of this.loads.filter((load) => load.at >= at - REREAD && load.at < at))
			this.loads.push({ at, polls: load.polls, reread: true });
	}

	/** Clean polls that started in [from, to). */
	private cleanPolls(from: number, to: number): number {
		return this.polls.filter((poll) => poll.clean && poll.started >= from && poll.started < to)
			.length;
	}

	/**
	 * Polls the loads still take at `due`, and those read again after it (before `until`): what
	 * arrives after a record is read after it (oldest first), but a restart reads it again.
	 */
	private loadPolls(due: number, until: number): number {
		let polls = 0;
		for (const load of this.loads) {
			if (load.at <= due) polls += Math.max(0, load.polls - this.cleanPolls(load.at, due));
			else if (load.reread && load.at < until) polls += load.polls;
		}
		return polls;
	}

	/**
	 * The checks that need the whole run: each record that must come out came out, in time (see the
	 * top of this file), counting again after a restart or a change of search.
	 */
	finalChecks(): void {
		const end = this.polls.at(-1)?.started ?? 0;
		const required = new Set([...this.records.keys()].filter((key) => this.must(key)));
		for (const [key, record] of this.records) {
			if (!required.has(key)) continue;
			const emittedBy = this.emittedBy.get(key) ?? Infinity;
			const { clean, bound } = this.readBy(key, record, required, { emittedBy, until: end });
			if (clean.length < bound) continue;
			const since = `+${Math.round((record.searchableAt - this.activationAt) / SECOND)} s`;
			const polls = clean.map((poll) => poll.index).join(', ');
			const what = this.onTime(record)
				? 'that started after it became searchable, on time'
				: 'that started 10 minutes or more after it became searchable';
			this.violations.push(
				emittedBy === Infinity
					? `${key} (${record.match}, searchable at ${since}) was never emitted, after clean polls ${polls} (bound ${bound})`
					: `${key} (searchable at ${since}) was emitted by poll ${emittedBy}, after clean polls ${polls} ${what} (bound ${bound})`,
			);
		}
		if (this.kind === 'event') this.decidedOnce(required);
	}

	/**
	 * Whether a record is found by the next poll that reads on: dated after every record before it,
	 * searchable at once, and (New Event) never remediated or ignored (those only a sweep finds,
	 * where Flare leaves them out unless asked).
	 */
	private onTime(record: RecordInfo): boolean {
		return (
			record.onTime &&
			!(record.states ?? []).some((change) => change.state.ignored || change.state.remediated)
		);
	}

	/**
	 * The clean polls, in order, that the "in time" bound (top of this file) counts for a record from
	 * when it is due (not before `from`), up to the poll that emitted it and polls that start before
	 * `before`; and the bound: once that many ran, the trigger must have read (and emitted) it.
	 */
	private readBy(
		key: string,
		record: RecordInfo,
		required: Set<string>,
		window: { emittedBy: number; until: number; from?: number; before?: number },
	): { clean: PollInfo[]; bound: number } {
		const onTime = this.onTime(record);
		const due = Math.max(
			window.from ?? -Infinity,
			record.preExisting
				? this.activationAt
				: onTime
					? record.searchableAt
					: record.searchableAt + SWEEP_EVERY,
		);
		const base = onTime ? 1 : CLEAN_POLLS_BOUND;
		// Records to emit before it, still waiting when it became due; New Event also reads (pages of)
		// those its filters leave out, recent ones dated before it.
		let ahead = 0;
		let others = 0;
		const search = this.periods[this.periodAt(due)]?.search ?? this.search;
		for (const [other, info] of this.records) {
			if (other === key || info.arrival > record.arrival) continue;
			const by = this.polls[this.emittedBy.get(other) ?? Infinity];
			if (by && by.started < due) continue;
			// Required, or emitted anyway (a stated limit allows it): one to emit before it.
			if (required.has(other) || (by && this.matchesAt(info, search, due))) ahead++;
			else if (this.kind === 'event' && !info.preExisting && info.searchableAt >= due - REREAD) others++;
		}
		// A record that only a sweep finds: the sweep reads what came in its window (New Event: four
		// times, Flare's default search and the events ignored, remediated or both).
		let swept = 0;
		if (!onTime && !record.preExisting) {
			for (const info of this.records.values()) {
				if ((this.kind === 'event' || !info.ignored) && Math.abs(info.searchableAt - record.searchableAt) <= REREAD)
					swept++;
			}
			if (this.kind === 'event') [others, swept] = [others + 4 * swept, 0];
		}
		const bound =
			base +
			Math.ceil((ahead + swept) / this.capacity.records) +
			Math.ceil(others / (this.capacity.pages * 10)) +
			this.loadPolls(due, window.until);
		let clean: PollInfo[] = [];
		let previous = due;
		for (const poll of this.polls) {
			// After it became searchable: a poll that started in the same instant may not see it.
			const after = record.preExisting ? poll.started >= due : poll.started > due;
			if (!after || poll.index >= window.emittedBy || poll.ended === undefined) continue;
			if (poll.started >= (window.before ?? Infinity)) break;
			if (this.disruptions.some((at) => at > previous && at <= poll.started)) clean = [];
			previous = poll.started;
			if (poll.clean) clean.push(poll);
			if (clean.length >= bound) break;
		}
		return { clean, bound };
	}

	/**
	 * New Event, decided at the first read: an event that matched the search of a period at no
	 * instant from when a poll could first read it until the trigger must have read it (the in-time
	 * bound, within that period) is not emitted later in that period, whatever changed since —
	 * unless n8n restarted after that before any poll stored the trigger's state (a stated limit).
	 */
	private decidedOnce(required: Set<string>): void {
		const restarts = this.restarts;
		const stored = this.polls.filter(
			(poll) => !poll.discarded && poll.error === undefined && poll.emitted.length > 0,
		);
		for (const [key, record] of this.records) {
			const emittedBy = this.emittedBy.get(key);
			if (emittedBy === undefined || record.preExisting || record.ignored) continue;
			// Unchanged since it entered: "nothing else" (Model.ended) covers it.
			if ((record.states?.length ?? 0) <= 1) continue;
			const emitting = this.polls[emittedBy];
			const index = this.periodAt(emitting.started);
			const period = this.periods[index];
			const from = this.firstPossibleRead(Math.max(record.searchableAt, period.at));
			if (from >= emitting.started) continue;
			const { clean, bound } = this.readBy(key, record, required, {
				emittedBy: Infinity,
				until: emitting.started,
				from: period.at,
				before: Math.min(emitting.started, this.periodEnd(index)),
			});
			if (clean.length < bound) continue;
			const decided = clean.at(-1)!.ended!;
			if (this.matchesSometime(record, period.search, from, decided)) continue;
			// Read again after a restart that lost the decision (no execution stored it since).
			const lost = restarts.some(
				(at) =>
					at > decided &&
					at <= emitting.started &&
					!stored.some((poll) => poll.started >= decided && (poll.ended ?? Infinity) <= at),
			);
			if (lost) continue;
			this.violations.push(
				`${key} matched search ${period.search} at no instant from +${Math.round((from - this.activationAt) / SECOND)} s until the trigger must have read it (clean polls ${clean.map((poll) => poll.index).join(', ')}), yet poll ${emittedBy} emitted it (${JSON.stringify(this.stateAt(record, emitting.started))}): a later change emitted it`,
			);
		}
	}

	/** Fails the run at the first violation (fast-check then shrinks the commands). */
	assertNoViolation(): void {
		if (this.violations.length > 0) throw new Error(this.violations.join('\n'));
	}
}

/** The real system: the fake Flare API, the trigger in n8n-core's poll context, virtual time. */
export class World {
	workflow!: TriggerWorkflow;
	readonly inFlight = new Set<Promise<void>>();
	private fullEvent?: (uid: string, tenant: number) => unknown;
	/** Flare's clock less n8n's (ms). */
	flareAhead = 0;

	constructor(
		readonly fake: FakeFlare,
		readonly harness: Harness,
		readonly time: VirtualTime,
		readonly scheduler: fc.Scheduler,
		readonly spec: KindSpec,
		readonly parameters: { backfill: string; fetchFullEvent: boolean },
	) {}

	/**
	 * Starts a poll as n8n's tick does, without waiting for the last. When n8n could not activate the
	 * workflow (its activation poll failed: n8n 1.123 deactivates it at once, n8n 2.41 after 5 tries),
	 * there is no tick: the user activates it again instead.
	 */
	startPoll(model: Model): Promise<void> {
		if (!this.workflow.active) return this.track(model, this.workflow, () => this.workflow.activate());
		return this.track(model, this.workflow, () => this.workflow.poll());
	}

	/**
	 * An activation n8n runs (at start-up, or for a save of the workflow), as a poll of the model,
	 * waited for; none when n8n keeps the trigger as it was (n8n 2.41, the trigger unchanged), or
	 * activates nothing at start-up (the workflow's activation had failed: n8n 1.123 unpublished it,
	 * n8n 2.41 leaves it off).
	 */
	async activation(model: Model, activate: () => Promise<PollResult | null>): Promise<void> {
		const index = model.polls.length;
		let skipped = false;
		const running = this.track(model, this.workflow, async () => {
			const result = await activate();
			skipped = result === null || result.notActivated === true;
			return result ?? { items: null };
		});
		await this.time.runUntil(running);
		if (skipped) model.polls.splice(index, 1);
	}

	/** A poll of the model: what it emits and the state it leaves are checked when it ends. */
	private track(model: Model, workflow: TriggerWorkflow, run: () => Promise<PollResult>): Promise<void> {
		const poll: PollInfo = {
			index: model.polls.length,
			started: this.time.now,
			search: model.search,
			overlapped: this.inFlight.size > 0,
			faultEpochAtStart: model.faultEpoch,
			faultsPendingAtStart: this.fake.faults.pending().length > 0,
			brokenPendingAtStart: [...model.broken].some((key) => !model.emittedBy.has(key)),
			emitted: [],
		};
		model.polls.push(poll);
		const running = run().then((result) => {
			poll.ended = this.time.now;
			if (processRef.env.FLARE_MODEL_DEBUG) {
				const { seen, rejected, cursor, sweepFrom, ...rest } = { ...workflow.state, lastPage: undefined } as IDataObject;
				processRef.stderr.write(`POLL ${poll.index} +${Math.round((poll.started - model.activationAt) / 1000)}s..${Math.round((poll.ended - model.activationAt) / 1000)}s ${poll.search} emitted ${(result.items ?? []).length} ${result.error?.message ?? ''}${result.discarded ? ' DISCARDED' : ''} ${JSON.stringify(rest)} seen ${Object.keys(seen as IDataObject ?? {}).length} rejected ${Object.keys(rejected as IDataObject ?? {}).length} ${cursor ? 'cursor' : ''} ${sweepFrom ? 'sweepFrom' : ''} ${(result.items ?? []).map((item) => KINDS[model.kind].keyOf(item)).filter((key) => model.records.get(key)?.preExisting).join(',')}\n`);
			}
			model.ended(
				poll,
				result,
				workflow.state,
				this.fake.faults.pending().length > 0,
				this.time.now,
			);
		});
		this.inFlight.add(running);
		void running.finally(() => this.inFlight.delete(running));
		return running;
	}

	/** Lets every poll in flight end (time runs on as needed). */
	async settle(): Promise<void> {
		await this.time.runUntil(Promise.all([...this.inFlight]));
	}

	addFault(model: Model, rule: FaultRule): void {
		this.fake.faults.add(rule);
		model.faultEpoch++;
	}

	/** Makes the full event of `uid` fail for ever (the fake answers 500). */
	breakFullEvent(uid: string): void {
		const events = this.fake.events as unknown as {
			fullEvent: (uid: string, tenant: number) => unknown;
		};
		if (!this.fullEvent) {
			const original = events.fullEvent.bind(events);
			this.fullEvent = original;
			const broken = this.brokenUids;
			events.fullEvent = (eventUid, tenant) => {
				if (broken.has(eventUid)) throw new Error('this one document is corrupt');
				return original(eventUid, tenant);
			};
		}
		this.brokenUids.add(uid);
	}

	readonly brokenUids = new Set<string>();

	/** Flare's clock, as it dates what it imports. */
	flareNow(): number {
		return this.fake.now();
	}

	/** Steps the host's clock so that Flare's runs `ahead` of it; Flare's own clock goes on. */
	stepHostClock(ahead: number): void {
		this.time.step(this.flareAhead - ahead);
		this.flareAhead = ahead;
		this.fake.setClockOffset(ahead);
	}

	/** Adds records as Flare makes them searchable now; returns their keys. */
	add(
		model: Model,
		count: number,
		arrival: number,
		match: Match,
		options: { ignored?: boolean; late?: boolean } = {},
	): string[] {
		const keys: string[] = [];
		uids.clear();
		const preExisting = model.polls.length === 0;
		const onTime = !options.late && arrival > model.newestArrival;
		model.newestArrival = Math.max(model.newestArrival, arrival);
		if (model.kind === 'credential') {
			const domain = match === 'both' || match === 'aOnly' ? 'acme.com' : 'example.com';
			const username = match === 'both' || match === 'bOnly' ? USER : undefined;
			const first = this.fake.addCredentials(count, iso(arrival), {
				domain,
				...(username ? { username } : {}),
			});
			for (let k = 0; k < count; k++) keys.push(String(this.fake.dataset.credential(first + k).id));
		} else if (model.kind === 'cookie') {
			const expiresAt = match === 'none' ? iso(arrival - DAY) : match === 'bOnly' ? null : iso(arrival + 30 * DAY);
			const cookies = this.fake.addCookies(count, { domain: COOKIE_DOMAIN, importedAt: iso(arrival), name: COOKIE_NAMES[match], expiresAt });
			for (const cookie of cookies) keys.push(cookie.uuid);
		} else {
			const { severity, tags } = EVENT_OF[match];
			const items = this.fake.addEvents(count, {
				materializedAt: iso(arrival),
				severity,
				tags,
				ignored: options.ignored,
				searchableLate: true,
			});
			const state = { ...NO_STATE, tags, ignored: options.ignored === true };
			for (const item of items) {
				const key = `${item.metadata.uid} ${item.metadata.matched_at}`;
				keys.push(key);
				uids.set(key, { uid: item.metadata.uid, severity, states: [{ at: this.time.now, state }] });
			}
		}
		for (const key of keys)
			model.records.set(key, {
				match,
				arrival,
				searchableAt: this.time.now,
				preExisting,
				onTime,
				ignored: options.ignored === true,
				...uids.get(key),
			});
		return keys;
	}

	/** What the tenant does to an event: the fake's tenant metadata changes, and the model's record. */
	changeEvent(model: Model, key: string, change: TenantChange): void {
		const record = model.records.get(key)!;
		const state = { ...model.stateAt(record, Infinity) };
		const tenant = this.fake.options.tenants[0];
		const act = (action: 'remediate' | 'unremediate' | 'ignore' | 'unignore') =>
			this.fake.events.act(tenant, [record.uid!], action, this.flareNow());
		switch (change) {
			case 'remediate':
			case 'unremediate':
				act(change);
				state.remediated = change === 'remediate';
				break;
			case 'ignore':
			case 'unignore':
				act(change);
				state.ignored = change === 'ignore';
				break;
			case 'raise':
			case 'lower':
			case 'clearOverride':
				state.override = change === 'raise' ? 'critical' : change === 'lower' ? 'low' : null;
				this.fake.events.setMetadata(tenant, record.uid!, { severity: state.override });
				break;
			case 'tag':
			case 'untag':
				state.tags = change === 'tag' ? [...new Set([...state.tags, ESCALATE])] : state.tags.filter((tag) => tag !== ESCALATE);
				this.fake.events.setMetadata(tenant, record.uid!, { tags: state.tags });
				break;
		}
		record.states = [...(record.states ?? []), { at: this.time.now, state }];
	}

	/** Flare files an event again, as entering the feed now: a new entry of the uid (the model's new record). */
	refile(model: Model, key: string): string {
		const record = model.records.get(key)!;
		const item = this.fake.refileEvent(record.uid!);
		const arrival = instantOf(item.metadata.matched_at);
		const again = `${item.metadata.uid} ${item.metadata.matched_at}`;
		record.refiledAt = this.time.now;
		model.records.set(again, {
			match: record.match,
			arrival,
			searchableAt: this.time.now,
			preExisting: false,
			onTime: arrival > model.newestArrival,
			ignored: record.ignored,
			uid: record.uid,
			severity: record.severity,
			states: [{ at: this.time.now, state: model.stateAt(record, Infinity) }],
		});
		model.newestArrival = Math.max(model.newestArrival, arrival);
		return again;
	}
}

/** What a key of the model's events was filed with (World.add). */
const uids = new Map<string, Pick<RecordInfo, 'uid' | 'severity' | 'states'>>();
const instantOf = (value: string | null) => Date.parse(String(value).replace(/(\.\d{3})\d*Z$/, '$1Z'));

/** What the tenant does to an event (New Event). */
type TenantChange =
	| 'remediate'
	| 'unremediate'
	| 'ignore'
	| 'unignore'
	| 'raise'
	| 'lower'
	| 'clearOverride'
	| 'tag'
	| 'untag';

/** A command of the run: fast-check's AsyncCommand over the model and the world. */
abstract class Command implements fc.AsyncCommand<Model, World> {
	/** Whether the command applies in this state of the model (most apply in any). */
	check(model: Readonly<Model>): boolean {
		return model instanceof Model;
	}

	async run(model: Model, world: World): Promise<void> {
		model.assertNoViolation();
		// Every command acts once nothing real is under way: runs are reproducible.
		await world.time.idle();
		await this.act(model, world);
		await world.time.idle();
		model.assertNoViolation();
	}

	protected abstract act(model: Model, world: World): Promise<void> | void;
	abstract toString(): string;
}

class Arrive extends Command {
	constructor(
		private readonly count: number,
		private readonly lateMs: number,
		private readonly match: Match,
	) {
		super();
	}

	act(model: Model, world: World): void {
		// Flare's date of the record: now on Flare's clock, or up to 10 minutes before (late).
		world.add(model, this.count, wholeSecond(world.flareNow() - this.lateMs), this.match, {
			late: this.lateMs > 0,
		});
	}

	toString(): string {
		return `arrive(${this.count} ${this.match}${this.lateMs ? `, ${this.lateMs / SECOND} s late` : ''})`;
	}
}

class Burst extends Command {
	constructor(
		private readonly count: number,
		private readonly oneTimestamp: boolean,
		private readonly match: Match,
	) {
		super();
	}

	check(model: Readonly<Model>): boolean {
		return !model.burstUsed;
	}

	act(model: Model, world: World): void {
		// Many records at once: with one timestamp, or over the last minute (several seconds). What
		// they add to a poll is counted as the records ahead of each (finalChecks).
		model.burstUsed = true;
		const now = wholeSecond(world.flareNow());
		if (this.oneTimestamp) world.add(model, this.count, now, this.match);
		else {
			const seconds = 60;
			const each = Math.ceil(this.count / seconds);
			for (let second = seconds - 1, left = this.count; left > 0; second--, left -= each)
				world.add(model, Math.min(each, left), now - second * SECOND, this.match, { late: true });
		}
	}

	toString(): string {
		return `burst(${this.count} ${this.match}${this.oneTimestamp ? ', one timestamp' : ', over a minute'})`;
	}
}

class Tick extends Command {
	async act(model: Model, world: World): Promise<void> {
		// n8n's tick, at a point the scheduler picks among the commands that follow.
		void world.scheduler.schedule(Promise.resolve(), 'tick').then(() => {
			void world.startPoll(model);
		});
	}

	toString(): string {
		return 'tick';
	}
}

class Advance extends Command {
	constructor(private readonly ms: number) {
		super();
	}

	async act(_model: Model, world: World): Promise<void> {
		await world.time.advance(this.ms);
	}

	toString(): string {
		return `advance(${this.ms / SECOND} s)`;
	}
}

/**
 * What the tenant does to an event that entered the feed after activation, now: remediate, ignore,
 * undo them, a severity override (raised to critical, lowered to low, cleared), the tag "escalate"
 * added or removed. `by` picks the event: this workflow on the last it emitted (its playbook), or
 * anyone on the newest (likely before the trigger read it) or on any.
 */
class ChangeEvent extends Command {
	constructor(
		private readonly change: TenantChange,
		private readonly by: 'this workflow' | 'anyone, the newest' | 'anyone, a recent one' | 'anyone',
		private readonly pick: number,
	) {
		super();
	}

	check(model: Readonly<Model>): boolean {
		return model.kind === 'event';
	}

	act(model: Model, world: World): void {
		const live = [...model.records.entries()].filter(
			([, record]) => !record.preExisting && record.refiledAt === undefined && !record.ignored,
		);
		const candidates =
			this.by === 'this workflow'
				? live.filter(([key]) => model.emittedBy.has(key))
				: this.by === 'anyone, the newest'
					? live.slice(-1)
					: this.by === 'anyone, a recent one'
						? live.filter(([, record]) => record.searchableAt >= world.time.now - REREAD / 2)
						: live;
		const [key] =
			(this.by === 'this workflow' ? candidates.at(-1 - (this.pick % 3)) : candidates[this.pick % Math.max(1, candidates.length)]) ?? [];
		if (key) world.changeEvent(model, key, this.change);
	}

	toString(): string {
		return `${this.change}(${this.by}${this.by === 'anyone, the newest' ? '' : ` #${this.pick}`})`;
	}
}

/** Flare files an event of the feed again, as entering it now (docs/api-contract.md: not documented). */
class Refile extends Command {
	constructor(private readonly pick: number) {
		super();
	}

	check(model: Readonly<Model>): boolean {
		return model.kind === 'event';
	}

	act(model: Model, world: World): void {
		const now = wholeSecond(world.flareNow());
		const candidates = [...model.records.entries()].filter(
			([, record]) => !record.preExisting && record.refiledAt === undefined && !record.ignored && record.arrival < now,
		);
		const [key] = candidates[this.pick % Math.max(1, candidates.length)] ?? [];
		if (key) world.refile(model, key);
	}

	toString(): string {
		return `refile(#${this.pick})`;
	}
}

class Fault extends Command {
	constructor(
		private readonly label: string,
		private readonly rule: (model: Model, world: World) => FaultRule,
	) {
		super();
	}

	check(model: Readonly<Model>): boolean {
		// Faults of the full events only where the trigger asks for them.
		return (
			this.rule(model as Model, undefined as never).path !== ACTIVITY_PATH || model.fetchFullEvent
		);
	}

	act(model: Model, world: World): void {
		world.addFault(model, this.rule(model, world));
	}

	toString(): string {
		return this.label;
	}
}

class RefuseCursor extends Command {
	act(model: Model, world: World): void {
		world.fake.expireCursors();
		model.restartsOfSearch.push(world.time.now);
		model.addReread(world.time.now);
	}

	toString(): string {
		return 'refuseCursors';
	}
}

/** Whether a restart or a save waits for the polls under way, or comes while one runs. */
type When = 'between polls' | 'during a poll';

class Restart extends Command {
	constructor(private readonly when: When) {
		super();
	}

	async act(model: Model, world: World): Promise<void> {
		// n8n is restarted: its memory goes, the workflow reloads what n8n stored; a poll under way
		// is lost with the process.
		if (this.when === 'between polls') await world.settle();
		model.disruptions.push(world.time.now);
		model.restarts.push(world.time.now);
		model.addReread(world.time.now);
		// n8n's start-up activates the workflow from what it stored: its activation poll.
		await world.activation(model, async () => await world.workflow.restart());
	}

	toString(): string {
		return `restart(${this.when})`;
	}
}

class ChangeSearch extends Command {
	constructor(
		private readonly search: SearchName,
		private readonly backfill: string,
		private readonly when: When,
	) {
		super();
	}

	async act(model: Model, world: World): Promise<void> {
		// The user saves the workflow: n8n activates it again from what it stored (n8n 2.41 only when
		// the trigger changed, and drops the result of a poll still under way; n8n 1.123 always, and
		// emits that poll).
		if (this.when === 'between polls') await world.settle();
		if (world.workflow.line === '1.123') for (const poll of model.polls) if (poll.ended === undefined) poll.superseded = true;
		const now = world.time.now;
		const lastPollStart = Math.max(model.activationAt, ...model.polls.map((poll) => poll.started));
		model.disruptions.push(now);
		model.restartsOfSearch.push(now);
		model.search = this.search;
		model.periods.push({ at: now, search: this.search, backfill: this.backfill, lastPollStart });
		model.addReread(now);
		world.parameters.backfill = this.backfill;
		const parameters = world.spec.parameters(this.search, this.backfill, world.parameters.fetchFullEvent);
		await world.activation(model, async () => await world.workflow.reactivate(parameters));
	}

	toString(): string {
		return `save(search ${this.search}, backfill ${this.backfill}, ${this.when})`;
	}
}

class EmptyRun extends Command {
	constructor(private readonly pages: number) {
		super();
	}

	check(model: Readonly<Model>): boolean {
		return model.kind === 'event' && !model.emptyRunUsed;
	}

	act(model: Model, world: World): void {
		// Ignored events: Flare selects them, then leaves them out of the page (docs/feed-endpoints.md §1).
		model.emptyRunUsed = true;
		world.add(model, this.pages * 10, wholeSecond(world.flareNow()), 'none', { ignored: true });
		model.addLoad(world.time.now, 0, this.pages);
	}

	toString(): string {
		return `emptyRun(${this.pages} pages)`;
	}
}

class BreakFullEvent extends Command {
	check(model: Readonly<Model>): boolean {
		return model.kind === 'event' && model.fetchFullEvent;
	}

	act(model: Model, world: World): void {
		// The newest event still to be emitted: its full event fails for ever.
		const waiting = [...model.records.keys()].filter(
			(key) => model.must(key) && !model.emittedBy.has(key),
		);
		const uid = waiting.at(-1);
		if (!uid) return;
		model.broken.add(uid);
		model.faultEpoch++;
		world.breakFullEvent(uid);
	}

	toString(): string {
		return 'fullEventFailsForEver';
	}
}

class HostClock extends Command {
	constructor(private readonly flareAhead: number) {
		super();
	}

	act(model: Model, world: World): void {
		// n8n's host clock is stepped (NTP, a VM resumed): Flare's clock is now this far ahead of it.
		world.stepHostClock(this.flareAhead);
		model.faultEpoch++;
	}

	toString(): string {
		return `hostClock(Flare ${this.flareAhead >= 0 ? '+' : ''}${this.flareAhead / SECOND} s)`;
	}
}

const retryAfter = (seconds: number | undefined): Record<string, string> =>
	seconds === undefined ? {} : { 'retry-after': String(seconds) };

/** The commands of a run of `kind`. */
function commandsFor(kind: Kind) {
	const pagePath = KINDS[kind].pagePath;
	const slowPath =
		kind === 'event' ? fc.constantFrom(pagePath, ACTIVITY_PATH) : fc.constant(pagePath);
	const when = fc.constantFrom<When>('between polls', 'between polls', 'during a poll');
	const arrive = fc
		.record({
			count: fc.integer({ min: 1, max: 5 }),
			late: fc.oneof(
				{ arbitrary: fc.constant(0), weight: 2 },
				{ arbitrary: fc.integer({ min: 1, max: LATE / SECOND }), weight: 1 },
			),
			match: fc.constantFrom<Match>('both', 'both', 'aOnly', 'bOnly', 'none'),
		})
		.map(({ count, late, match }) => new Arrive(count, late * SECOND, match));
	const tick = fc.constant(null).map(() => new Tick());
	const advance = fc.oneof(
		fc.integer({ min: 5, max: 90 }).map((seconds) => new Advance(seconds * SECOND)),
		fc.integer({ min: 60, max: 12 * 60 }).map((seconds) => new Advance(seconds * SECOND)),
	);
	// What happens most: records arrive, ticks, time passes.
	const commands: Array<fc.Arbitrary<Command>> = [
		arrive,
		arrive,
		arrive,
		tick,
		tick,
		tick,
		advance,
		advance,
		advance,
		fc
			.record({
				count: fc.constantFrom(400, 2_100),
				oneTimestamp: fc.boolean(),
				match: fc.constantFrom<Match>('both', 'aOnly'),
			})
			.map(({ count, oneTimestamp, match }) => new Burst(count, oneTimestamp, match)),
		fc
			.record({
				path: slowPath,
				seconds: fc.integer({ min: 1, max: 130 }),
				skip: fc.nat(3),
				times: fc.integer({ min: 1, max: 3 }),
			})
			.map(
				({ path, seconds, skip, times }) =>
					new Fault(
						`slow(${path === ACTIVITY_PATH ? 'full event' : 'page'} ${skip}+${times}, ${seconds} s)`,
						() => ({ path, skip, times, fault: { delayMs: seconds * SECOND } }),
					),
			),
		fc
			.record({
				skip: fc.nat(3),
				times: fc.integer({ min: 1, max: 4 }),
				wait: fc.option(fc.integer({ min: 0, max: 20 })),
			})
			.map(
				({ skip, times, wait }) =>
					new Fault(`rateLimited(${skip}+${times}, Retry-After ${wait ?? 'none'})`, () => ({
						path: pagePath,
						skip,
						times,
						fault: {
							status: 429,
							headers: retryAfter(wait ?? undefined),
							body: { error: { code: 'RATELIMIT_REACHED', message: 'Too many requests' } },
						},
					})),
			),
		fc
			.record({
				status: fc.constantFrom(500, 502, 503, 504),
				skip: fc.nat(3),
				times: fc.integer({ min: 1, max: 6 }),
			})
			.map(
				({ status, skip, times }) =>
					new Fault(`http${status}(${skip}+${times})`, () => ({
						path: pagePath,
						skip,
						times,
						fault: { status },
					})),
			),
		fc.constant(null).map(() => new RefuseCursor()),
		when.map((moment) => new Restart(moment)),
		fc
			.record({
				search: fc.constantFrom<SearchName>(...searchesOf(kind)),
				backfill: fc.constantFrom('none', 'last24Hours'),
				moment: when,
			})
			.map(({ search, backfill, moment }) => new ChangeSearch(search, backfill, moment)),
		fc
			.integer({ min: -SKEW / SECOND, max: SKEW / SECOND })
			.map((seconds) => new HostClock(seconds * SECOND)),
	];
	if (kind === 'event') {
		const change = fc
			.record({
				// Undoing (what was done before) less often than doing.
				change: fc.constantFrom<TenantChange>(
					'remediate',
					'remediate',
					'unremediate',
					'ignore',
					'ignore',
					'unignore',
					'raise',
					'raise',
					'lower',
					'clearOverride',
					'tag',
					'tag',
					'untag',
				),
				by: fc.constantFrom(
					'this workflow',
					'anyone, the newest',
					'anyone, the newest',
					'anyone, a recent one',
					'anyone, a recent one',
					'anyone',
				),
				pick: fc.nat(1_000),
			})
			.map(({ change, by, pick }) => new ChangeEvent(change, by as 'anyone', pick));
		commands.push(
			change,
			change,
			fc.nat(1_000).map((pick) => new Refile(pick)),
			// Longer than one poll reads (about 170 pages in 45 s at Flare's Basic pace).
			fc.integer({ min: 180, max: 250 }).map((pages) => new EmptyRun(pages)),
			fc
				.record({
					status: fc.constantFrom(404, 403, 500),
					skip: fc.nat(2),
					times: fc.integer({ min: 1, max: 6 }),
				})
				.map(
					({ status, skip, times }) =>
						new Fault(`fullEvent${status}(${skip}+${times})`, () => ({
							path: ACTIVITY_PATH,
							skip,
							times,
							fault: {
								status,
								body:
									status === 404
										? { message: 'Activity not found', code: 'NOT_FOUND' }
										: { error: { code: 'ERROR', message: `answered ${status}` } },
							},
						})),
				),
			fc.constant(null).map(() => new BreakFullEvent()),
		);
	}
	return commands;
}

/** The searches a run of `kind` may use (`C`, a tag, is New Event's). */
const searchesOf = (kind: Kind): SearchName[] => (kind === 'event' ? ['A', 'B', 'C'] : ['A', 'B']);

/** How a run starts: the trigger's options, and what exists in Flare before activation. */
interface Start {
	/** The search at activation. */
	search: SearchName;
	backfill: 'none' | 'last24Hours';
	fetchFullEvent: boolean;
	/** The n8n line whose lifecycle the harness reproduces (test/harness/README.md). */
	n8n: N8nLine;
	/**
	 * n8n 2.41's poll budget (default: n8n's, so the trigger's own 45 s): short polls make backlogs.
	 * n8n 1.123 gives none.
	 */
	budgetMs?: number;
	/** Flare's clock less n8n's, from before activation (s). */
	flareAhead: number;
	/** Records searchable before activation: hours before it, and which searches they match. */
	before: Array<{ hoursAgo: number; match: Match }>;
	/** Matching records spread over the 20 hours before activation: a backfill of several polls. */
	backlog: number;
	/** Matching records of the 14 minutes before activation: an activation longer than a poll. */
	recent: number;
}

const startArbitrary = (kind: Kind): fc.Arbitrary<Start> =>
	fc.record({
		n8n: fc.constantFrom<N8nLine>(...N8N_LINES),
		search: kind === 'event' ? fc.constantFrom<SearchName>('A', 'A', 'B', 'C') : fc.constant<SearchName>('A'),
		backfill: fc.constantFrom<Start['backfill']>('none', 'last24Hours'),
		fetchFullEvent: kind === 'event' ? fc.boolean() : fc.constant(false),
		budgetMs: fc.constantFrom(undefined, undefined, 4_000, 10_000),
		flareAhead: fc.constantFrom(0, 0, -4 * 60, 4 * 60),
		before: fc.array(
			fc.record({
				hoursAgo: fc.constantFrom(0.1, 0.2, 2, 20, 30),
				match: fc.constantFrom<Match>('both', 'aOnly', 'none'),
			}),
			{ maxLength: 4 },
		),
		backlog: fc.constantFrom(0, 0, 40, 120),
		recent: fc.constantFrom(0, 0, 0, 300),
	}).map((start) => (start.n8n === '1.123' ? { ...start, budgetMs: undefined } : start));

/** One run: a fresh fake and trigger, activation, the commands, then polls without faults. */
async function runOnce(
	kind: Kind,
	context: { fake: FakeFlare; harness: Harness; time: VirtualTime },
	start: Start,
	scheduler: fc.Scheduler,
	commands: Iterable<fc.AsyncCommand<Model, World>>,
): Promise<void> {
	const { fake, harness, time } = context;
	const spec = KINDS[kind];
	const began = performance.now();
	// `npm run test:trigger-model -- --trace`: each run, as it starts and ends.
	const trace = processRef.env.FLARE_MODEL_TRACE
		? (line: string) => processRef.stderr.write(`${line}\n`)
		: () => undefined;
	trace(`run: ${JSON.stringify(start)} ${String(commands)}`);
	time.auto = false;
	fake.faults.clear();
	fake.reset({ ...spec.fake, startTime: iso(time.now - 60 * DAY) });
	harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	const backfillMs = start.backfill === 'none' ? 0 : DAY;
	const budgetMs = start.budgetMs ?? POLL_LIMIT;
	const model = new Model(
		kind,
		backfillMs,
		start.fetchFullEvent,
		capacityOf(kind, budgetMs, start.fetchFullEvent),
	);
	model.search = start.search;
	const world = new World(fake, harness, time, scheduler, spec, {
		backfill: start.backfill,
		fetchFullEvent: start.fetchFullEvent,
	});
	try {
		world.stepHostClock(start.flareAhead * SECOND);
		const before: Array<{ hoursAgo: number; match: Match; count?: number }> = [
			...start.before,
			...Array.from({ length: start.backlog / 5 }, (_, k) => ({
				hoursAgo: 20 - (k * 19) / (start.backlog / 5),
				match: 'both' as Match,
				count: 5,
			})),
			...Array.from({ length: start.recent / 25 }, (_, k) => ({
				hoursAgo: (14 - k) / 60,
				match: 'both' as Match,
				count: 25,
			})),
		];
		for (const { hoursAgo, match, count } of before.sort((a, b) => b.hoursAgo - a.hoursAgo)) {
			world.add(model, count ?? 1, wholeSecond(world.flareNow() - hoursAgo * HOUR), match);
		}
		world.workflow = new TriggerWorkflow(harness, {
			parameters: spec.parameters(start.search, start.backfill, start.fetchFullEvent),
			budgetMs: start.budgetMs,
			n8n: start.n8n,
		});
		model.activationAt = time.now;
		model.flareActivationAt = world.flareNow();
		model.periods.push({ at: time.now, search: start.search, backfill: start.backfill, lastPollStart: time.now });
		// What the activation reads: what Flare has of search A in its window.
		const window = Math.max(backfillMs, 15 * MINUTE) + SKEW;
		model.activationLoad = [...model.records.values()].filter(
			(record) =>
				model.matchesAt(record, start.search, time.now) &&
				record.arrival >= model.flareActivationAt - window,
		).length;
		model.addLoad(time.now, model.activationLoad);
		// New Event reads every event of the window, then sweeps it three more times (what Flare leaves
		// out unless asked: ignored, remediated, both).
		if (kind === 'event') {
			const all = [...model.records.values()].filter(
				(record) => record.arrival >= model.flareActivationAt - window,
			).length;
			model.addLoad(time.now, 0, 4 * Math.ceil(all / 10));
		}
		// Activation: n8n's first poll, whose static data it saves, emit or not.
		const activation: PollInfo = {
			index: 0,
			started: time.now,
			search: start.search,
			overlapped: false,
			faultEpochAtStart: 0,
			faultsPendingAtStart: false,
			brokenPendingAtStart: false,
			emitted: [],
		};
		model.polls.push(activation);
		const result = await time.runUntil(world.workflow.activate());
		activation.ended = time.now;
		model.ended(activation, result, world.workflow.state, false, time.now);
		await fc.scheduledModelRun(scheduler, () => ({ model, real: world }), commands);
		await world.settle();
		// Then n8n polls every minute, and Flare answers every time.
		fake.faults.clear();
		model.faultEpoch++;
		const due = () =>
			[...model.records.keys()].some((key) => model.must(key) && !model.emittedBy.has(key));
		for (let poll = 0; poll < MAX_DRAIN_POLLS && (poll < DRAIN_POLLS || due()); poll++) {
			await time.advance(MINUTE);
			await time.runUntil(world.startPoll(model));
		}
		// Last, with full polls (which have read everything by now), one record on time: the next
		// poll emits it (docs/trigger.md, "In time"). Short polls may still be reading what a sweep
		// reads again (e.g. a run of empty pages), which the bound of finalChecks counts only roughly.
		if (start.budgetMs === undefined && !due()) {
			const [probe] = world.add(model, 1, wholeSecond(world.flareNow()), 'both');
			await time.advance(MINUTE);
			await time.runUntil(world.startPoll(model));
			const next = model.polls.at(-1)!;
			if (model.must(probe) && model.emittedBy.get(probe) !== next.index)
				model.violations.push(
					`${probe}, on time once all was out, was not emitted by the next poll (${next.index}, which emitted ${next.emitted.length}${next.error ? `, failed: ${next.error}` : ''})`,
				);
		}
		model.finalChecks();
		trace(
			`  ${model.polls.length} polls, ${model.emittedBy.size} emitted, ${Math.round(performance.now() - began)} ms: ${String(commands)}`,
		);
		model.assertNoViolation();
	} finally {
		await world.settle().catch(() => undefined);
		world.stepHostClock(0);
		time.auto = true;
	}
}

export interface ModelRunOptions {
	kind: Kind;
	runs: number;
	seed?: number;
	maxCommands?: number;
	/** Replays one run (fast-check's path of a failure). */
	path?: string;
}

/** The property: for `runs` random runs (from `seed`), the model holds. Returns fast-check's details. */
export async function checkTriggerModel(
	context: { fake: FakeFlare; harness: Harness; time: VirtualTime },
	options: ModelRunOptions,
): Promise<fc.RunDetails<[Start, fc.Scheduler, Iterable<fc.AsyncCommand<Model, World>>]>> {
	const property = fc.asyncProperty(
		startArbitrary(options.kind),
		fc.scheduler(),
		fc.commands(commandsFor(options.kind), {
			maxCommands: options.maxCommands ?? 40,
			size: 'medium',
		}),
		async (start, scheduler, commands) =>
			await runOnce(options.kind, context, start, scheduler, commands),
	);
	return await fc.check(property, {
		numRuns: options.runs,
		seed: options.seed,
		path: options.path,
		endOnFailure: processRef.env.FLARE_MODEL_NO_SHRINK === "1",
	});
}
