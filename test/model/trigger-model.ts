/**
 * The Flare Trigger checked against a model (docs/api-contract.md, "Flare Trigger", "What the model
 * checks"): random sequences of what Flare and n8n can do — records arriving (on time, searchable up
 * to 10 minutes late, with one timestamp for several, filtered out by the search), ticks that overlap
 * a slow poll, slow answers, 429s and 5xx mid-walk, a refused cursor, restarts, changes of the search
 * or of Backfill, long runs of empty pages, full events that fail, Flare's clock up to 5 minutes off
 * — run against the fake Flare API in n8n-core's real poll context, on virtual time.
 *
 * The model is simple: what must reach the workflow.
 * - **Exactly once**: every record that matches each search the run used, and became searchable
 *   after activation (or lies in the Backfill window at activation), is emitted once; no record is
 *   emitted twice.
 * - **Nothing else**: no emitted record fails to match the search of the poll that emitted it; none
 *   that existed before activation, outside the Backfill window.
 * - **In time**: each of those records is emitted by the third clean poll (below) that starts 10
 *   minutes or more after it became searchable (the sweep's period: what comes late is found by the
 *   next sweep; a run of empty pages longer than a poll reads takes one more), counted again from a
 *   restart of n8n or a change of the search (either reads again what was read since the last emit);
 *   checked when polls have their full 45 seconds (runs with n8n's poll budget cut to 4 or 10 seconds,
 *   where backlogs span many polls, check only that each such record comes, once).
 * - **Bounded**: after every poll the trigger's static data is under 64 KB, with at most 2,000 keys.
 *
 * A poll is clean when it ran alone (no other in flight when it started), ended without an error,
 * and no fault could touch it (none pending when it started or ended, none added meanwhile, no full
 * event failing for ever still to be emitted). Ticks are scheduled with fast-check's scheduler, so a
 * tick fires at a random point among the commands that follow it; time moves only by `advance`.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FakeFlare, FakeFlareOptions } from '../fake-flare';
import type { FaultRule } from '../fake-flare/faults';
import type { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import type { VirtualTime } from '../support/clock';
import { performance, processRef } from '../support/node';

export type Kind = 'credential' | 'event';
type SearchName = 'A' | 'B';
/** Which searches a record matches: A, B, both or none. */
type Match = 'both' | 'aOnly' | 'bOnly' | 'none';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The sweep's period: what comes late is found within it. */
const SWEEP_EVERY = 10 * MINUTE;
/** Clean polls starting 10 minutes after a record became searchable, by the last of which it is out. */
export const CLEAN_POLLS_BOUND = 3;
/** The trigger's static data bound (README, "Flare Trigger"). */
const STATE_BYTES = 64 * 1024;
const MAX_KEYS = 2_000;
/** Polls every minute at the end of a run, with no fault: enough for sweeps to find what is left. */
const DRAIN_POLLS = 25;
/** With short polls, a backlog may take many: polls go on until every record due is out, or this many. */
const MAX_SHORT_DRAIN_POLLS = 500;

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const FEED_PATH = '/firework/v4/events/tenant/_search';
const ACTIVITY_PATH = '/firework/v2/activities/';

const iso = (ms: number) => new Date(ms).toISOString();
const wholeSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** What one kind of trigger watches, in the model's terms. */
interface KindSpec {
	fake: FakeFlareOptions;
	parameters(search: SearchName, backfill: string, fetchFullEvent: boolean): IDataObject;
	/** Whether a record of `match` matches `search`. */
	matches(match: Match, search: SearchName): boolean;
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
		// A: severity high or more; B: critical only. Ignored and low events match neither.
		parameters: (search, backfill, fetchFullEvent) => ({
			event: 'newEvent',
			severityFilter: 'minimum',
			minimumSeverity: search === 'A' ? 'high' : 'critical',
			options: { backfill, fetchFullEvent },
		}),
		matches: (match, search) => match === 'both' || (match === 'aOnly' && search === 'A'),
		keyOf: (item) => String(((item.json as IDataObject).metadata as IDataObject).uid),
		pagePath: FEED_PATH,
	},
};

interface RecordInfo {
	match: Match;
	/** Its date on Flare's clock (ms). */
	arrival: number;
	/** When it became searchable (this process's clock). */
	searchableAt: number;
	/** Searchable when the trigger was activated. */
	preExisting: boolean;
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
}

/** The model: what the run did, and what must come of it. */
export class Model {
	search: SearchName = 'A';
	readonly searchesUsed = new Set<SearchName>(['A']);
	readonly records = new Map<string, RecordInfo>();
	readonly polls: PollInfo[] = [];
	/** Record key → index of the poll that emitted it. */
	readonly emittedBy = new Map<string, number>();
	readonly violations: string[] = [];
	activationAt = 0;
	emptyRunUsed = false;
	/** Counted up whenever a fault is added, so that a poll knows whether one came during it. */
	faultEpoch = 0;
	/** Events whose full event always fails. */
	readonly broken = new Set<string>();
	/** When n8n restarted or the search changed: what the trigger read since its last emit is read again. */
	readonly disruptions: number[] = [];

	constructor(
		readonly kind: Kind,
		readonly backfillMs: number,
		readonly fetchFullEvent: boolean,
		/** Whether each poll has the full 45 seconds: then the bound on delay is checked too. */
		readonly fullPolls = true,
	) {}

	/** Whether a record must reach the workflow exactly once. */
	must(key: string): boolean {
		const record = this.records.get(key)!;
		if (![...this.searchesUsed].every((search) => KINDS[this.kind].matches(record.match, search)))
			return false;
		if (!record.preExisting) return true;
		return this.backfillMs > 0 && record.arrival >= this.activationAt - this.backfillMs;
	}

	/** Whether a record must never reach the workflow, whatever the search. */
	mustNot(key: string): boolean {
		const record = this.records.get(key)!;
		if (!record.preExisting) return false;
		if (this.backfillMs > 0) return record.arrival < this.activationAt - this.backfillMs;
		// Flare's clock ahead of n8n's: a record dated after activation may be taken for a new one.
		return record.arrival < this.activationAt;
	}

	/** Records a poll that ended, and checks what it emitted and the state it left. */
	ended(poll: PollInfo, result: PollResult, state: IDataObject, pendingFaults: boolean): void {
		poll.emitted = (result.items ?? []).map((item) => KINDS[this.kind].keyOf(item));
		poll.error = result.error?.message;
		const stillBroken = [...this.broken].some((key) => !this.emittedBy.has(key));
		poll.clean =
			!poll.overlapped &&
			poll.error === undefined &&
			!poll.faultsPendingAtStart &&
			!pendingFaults &&
			poll.faultEpochAtStart === this.faultEpoch &&
			!poll.brokenPendingAtStart &&
			!stillBroken;
		for (const [index, key] of poll.emitted.entries()) {
			const record = this.records.get(key);
			const where = `poll ${poll.index} (search ${poll.search}) emitted ${key}`;
			if (!record) this.violations.push(`${where}, a record the model never added`);
			else if (!KINDS[this.kind].matches(record.match, poll.search))
				this.violations.push(`${where}, which does not match the search (${record.match})`);
			else if (this.mustNot(key))
				this.violations.push(
					`${where}, which existed before activation, outside the Backfill window`,
				);
			if (this.emittedBy.has(key))
				this.violations.push(`${where} again: poll ${this.emittedBy.get(key)} emitted it before`);
			else this.emittedBy.set(key, poll.index);
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
		const keys = Object.keys((state.seen as IDataObject | undefined) ?? {}).length;
		if (bytes >= STATE_BYTES || keys > MAX_KEYS)
			this.violations.push(
				`after poll ${poll.index} the state holds ${keys} keys in ${bytes} bytes`,
			);
	}

	/**
	 * The checks that need the whole run: each record that must come out came out, in time: by the
	 * third clean poll that starts 10 minutes or more after it became searchable, counting again
	 * after a restart or a change of search (either reads again what was read since the last emit).
	 */
	finalChecks(): void {
		for (const [key, record] of this.records) {
			if (!this.must(key)) continue;
			const emittedBy = this.emittedBy.get(key) ?? Infinity;
			if (!this.fullPolls) {
				// Short polls: backlogs span many polls; what counts is that it came, once.
				if (emittedBy === Infinity)
					this.violations.push(`${key} (${record.match}) was never emitted`);
				continue;
			}
			const due = record.preExisting ? this.activationAt : record.searchableAt + SWEEP_EVERY;
			let clean: PollInfo[] = [];
			let previous = due;
			for (const poll of this.polls) {
				if (poll.started < due || poll.index >= emittedBy || poll.ended === undefined) continue;
				if (this.disruptions.some((at) => at > previous && at <= poll.started)) clean = [];
				previous = poll.started;
				if (poll.clean) clean.push(poll);
				if (clean.length >= CLEAN_POLLS_BOUND) break;
			}
			if (clean.length < CLEAN_POLLS_BOUND) continue;
			const since = `+${Math.round((record.searchableAt - this.activationAt) / SECOND)} s`;
			const polls = clean.map((poll) => poll.index).join(', ');
			this.violations.push(
				emittedBy === Infinity
					? `${key} (${record.match}, searchable at ${since}) was never emitted, after clean polls ${polls}`
					: `${key} was emitted by poll ${emittedBy}, after clean polls ${polls} that started 10 minutes or more after it became searchable`,
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

	constructor(
		readonly fake: FakeFlare,
		readonly harness: Harness,
		readonly time: VirtualTime,
		readonly scheduler: fc.Scheduler,
		readonly spec: KindSpec,
		readonly parameters: { backfill: string; fetchFullEvent: boolean },
	) {}

	/** Starts a poll as n8n's tick does, without waiting for the last. */
	startPoll(model: Model): Promise<void> {
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
		const workflow = this.workflow;
		const running = workflow.poll().then((result) => {
			poll.ended = this.time.now;
			model.ended(poll, result, workflow.state, this.fake.faults.pending().length > 0);
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

	/** Adds records as Flare makes them searchable now; returns their keys. */
	add(
		model: Model,
		count: number,
		arrival: number,
		match: Match,
		options: { ignored?: boolean } = {},
	): string[] {
		const keys: string[] = [];
		const preExisting = model.polls.length === 0;
		if (model.kind === 'credential') {
			const domain = match === 'both' || match === 'aOnly' ? 'acme.com' : 'example.com';
			const username = match === 'both' || match === 'bOnly' ? USER : undefined;
			const first = this.fake.addCredentials(count, iso(arrival), {
				domain,
				...(username ? { username } : {}),
			});
			for (let k = 0; k < count; k++) keys.push(String(this.fake.dataset.credential(first + k).id));
		} else {
			const severity = match === 'both' ? 'critical' : match === 'aOnly' ? 'high' : 'low';
			const items = this.fake.addEvents(count, {
				materializedAt: iso(arrival),
				severity,
				ignored: options.ignored,
				searchableLate: true,
			});
			for (const item of items) keys.push(String(item.metadata.uid));
		}
		for (const key of keys)
			model.records.set(key, { match, arrival, searchableAt: this.time.now, preExisting });
		return keys;
	}
}

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
		world.add(model, this.count, wholeSecond(world.fake.now() - this.lateMs), this.match);
	}

	toString(): string {
		return `arrive(${this.count} ${this.match}${this.lateMs ? `, ${this.lateMs / SECOND} s late` : ''})`;
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
	act(_model: Model, world: World): void {
		world.fake.expireCursors();
	}

	toString(): string {
		return 'refuseCursors';
	}
}

class Restart extends Command {
	async act(model: Model, world: World): Promise<void> {
		// n8n is restarted between polls: its memory goes, the workflow reloads what n8n stored.
		await world.settle();
		model.disruptions.push(world.time.now);
		world.workflow.restart();
	}

	toString(): string {
		return 'restart';
	}
}

class ChangeSearch extends Command {
	constructor(
		private readonly search: SearchName,
		private readonly backfill: string,
	) {
		super();
	}

	async act(model: Model, world: World): Promise<void> {
		await world.settle();
		model.disruptions.push(world.time.now);
		model.search = this.search;
		model.searchesUsed.add(this.search);
		world.parameters.backfill = this.backfill;
		world.workflow.reactivate(
			world.spec.parameters(this.search, this.backfill, world.parameters.fetchFullEvent),
		);
	}

	toString(): string {
		return `save(search ${this.search}, backfill ${this.backfill})`;
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
		world.add(model, this.pages * 10, wholeSecond(world.fake.now()), 'none', { ignored: true });
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

class Skew extends Command {
	constructor(private readonly ms: number) {
		super();
	}

	act(_model: Model, world: World): void {
		world.fake.setClockOffset(this.ms);
	}

	toString(): string {
		return `flareClock(${this.ms >= 0 ? '+' : ''}${this.ms / SECOND} s)`;
	}
}

const retryAfter = (seconds: number | undefined): Record<string, string> =>
	seconds === undefined ? {} : { 'retry-after': String(seconds) };

/** The commands of a run of `kind`. */
function commandsFor(kind: Kind) {
	const pagePath = KINDS[kind].pagePath;
	const slowPath =
		kind === 'event' ? fc.constantFrom(pagePath, ACTIVITY_PATH) : fc.constant(pagePath);
	const arrive = fc
		.record({
			count: fc.integer({ min: 1, max: 5 }),
			late: fc.oneof(
				{ arbitrary: fc.constant(0), weight: 2 },
				{ arbitrary: fc.integer({ min: 1, max: 600 }), weight: 1 },
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
		fc.constant(null).map(() => new Restart()),
		fc
			.record({
				search: fc.constantFrom<SearchName>('A', 'B'),
				backfill: fc.constantFrom('none', 'last24Hours'),
			})
			.map(({ search, backfill }) => new ChangeSearch(search, backfill)),
		fc.integer({ min: -5 * 60, max: 5 * 60 }).map((seconds) => new Skew(seconds * SECOND)),
	];
	if (kind === 'event') {
		commands.push(
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

/** How a run starts: the trigger's options, and what exists in Flare before activation. */
interface Start {
	backfill: 'none' | 'last24Hours';
	fetchFullEvent: boolean;
	/** n8n's poll budget (default: n8n's, so the trigger's own 45 s): short polls make backlogs. */
	budgetMs?: number;
	/** Records searchable before activation: hours before it, and which searches they match. */
	before: Array<{ hoursAgo: number; match: Match }>;
	/** Matching records spread over the 20 hours before activation: a backfill of several polls. */
	backlog: number;
}

const startArbitrary = (kind: Kind): fc.Arbitrary<Start> =>
	fc.record({
		backfill: fc.constantFrom<Start['backfill']>('none', 'last24Hours'),
		fetchFullEvent: kind === 'event' ? fc.boolean() : fc.constant(false),
		budgetMs: fc.constantFrom(undefined, undefined, 4_000, 10_000),
		before: fc.array(
			fc.record({
				hoursAgo: fc.constantFrom(0.1, 0.2, 2, 20, 30),
				match: fc.constantFrom<Match>('both', 'aOnly', 'none'),
			}),
			{ maxLength: 4 },
		),
		backlog: fc.constantFrom(0, 0, 40, 120),
	});

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
	const model = new Model(kind, backfillMs, start.fetchFullEvent, start.budgetMs === undefined);
	const world = new World(fake, harness, time, scheduler, spec, {
		backfill: start.backfill,
		fetchFullEvent: start.fetchFullEvent,
	});
	const before: Array<{ hoursAgo: number; match: Match; count?: number }> = [
		...start.before,
		...Array.from({ length: start.backlog / 5 }, (_, k) => ({
			hoursAgo: 20 - (k * 19) / (start.backlog / 5),
			match: 'both' as Match,
			count: 5,
		})),
	];
	for (const { hoursAgo, match, count } of before.sort((a, b) => b.hoursAgo - a.hoursAgo)) {
		world.add(model, count ?? 1, wholeSecond(fake.now() - hoursAgo * HOUR), match);
	}
	world.workflow = new TriggerWorkflow(harness, {
		parameters: spec.parameters('A', start.backfill, start.fetchFullEvent),
		budgetMs: start.budgetMs,
	});
	model.activationAt = time.now;
	// Activation: n8n's first poll, whose static data it saves, emit or not.
	const activation: PollInfo = {
		index: 0,
		started: time.now,
		search: 'A',
		overlapped: false,
		faultEpochAtStart: 0,
		faultsPendingAtStart: false,
		brokenPendingAtStart: false,
		emitted: [],
	};
	model.polls.push(activation);
	const result = await time.runUntil(world.workflow.activate());
	activation.ended = time.now;
	model.ended(activation, result, world.workflow.state, false);
	try {
		await fc.scheduledModelRun(scheduler, () => ({ model, real: world }), commands);
		await world.settle();
		// Then n8n polls every minute, and Flare answers every time.
		fake.faults.clear();
		model.faultEpoch++;
		const due = () =>
			[...model.records.keys()].some((key) => model.must(key) && !model.emittedBy.has(key));
		const polls = model.fullPolls ? DRAIN_POLLS : MAX_SHORT_DRAIN_POLLS;
		for (let poll = 0; poll < polls && (model.fullPolls || poll < DRAIN_POLLS || due()); poll++) {
			await time.advance(MINUTE);
			await time.runUntil(world.startPoll(model));
		}
		model.finalChecks();
		trace(
			`  ${model.polls.length} polls, ${model.emittedBy.size} emitted, ${Math.round(performance.now() - began)} ms`,
		);
		model.assertNoViolation();
	} finally {
		await world.settle().catch(() => undefined);
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
		endOnFailure: false,
	});
}
