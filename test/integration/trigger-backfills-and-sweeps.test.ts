import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';
import { everyEvent } from './support';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const FEED = '/firework/v4/events/tenant/_search';
const ACTIVITY = '/firework/v2/activities/';
const REFUSED = { status: 422, body: { detail: [{ loc: ['body', 'from'], msg: 'Invalid cursor', type: 'value_error' }] } };

const iso = (ms: number) => new Date(ms).toISOString();
const uidsOf = (items: INodeExecutionData[] | null | undefined) =>
	(items ?? []).map((item) => ((item.json as IDataObject).metadata as IDataObject).uid as string);
const twice = (keys: unknown[]) => [...new Set(keys.filter((key, index) => keys.indexOf(key) !== index))];

/**
 * The reproductions of the event-surface review of 2026-11-25 (findings 2, 3, 4, 5, 6, 11 and 12),
 * each asserting what the Flare Trigger now promises (README "Flare Trigger"), on virtual time.
 */
describe('Flare Trigger: refused cursors, backfills, sweeps, slow polls and baselines, each record once (review of 2026-11-25)', () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	const start = (options: Parameters<FakeFlare['reset']>[0] = {}) => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY), ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};
	/** Polls a minute apart until one emits nothing; every uid emitted. */
	const drain = async (workflow: TriggerWorkflow, maxPolls = 20): Promise<string[]> => {
		const emitted: string[] = [];
		for (let poll = 0; poll < maxPolls; poll++) {
			moveClock(MINUTE);
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			if (!result.items) return emitted;
			emitted.push(...uidsOf(result.items));
		}
		throw new Error(`Still emitting after ${maxPolls} polls`);
	};

	describe('2. a refused cursor', () => {
		it('with Backfill: the search starts again where its knowledge ends; nothing of the window comes again', async () => {
			start();
			for (const days of [3, 2, 1]) fake.addEvents(10, { materializedAt: iso(Date.now() - days * DAY) });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { backfill: 'last7Days' } } });
			// The window's events, those someone remediated or ignored included (docs/trigger.md).
			const window = everyEvent(fake, 101, { filters: { materialized_at: { gte: iso(Date.now() - 7 * DAY) } } });
			const activation = await workflow.activate();
			moveClock(MINUTE);
			expect((await workflow.poll()).items).toBeNull();
			fake.faults.add({ path: FEED, fault: REFUSED });
			const added = fake.addEvents(2).map((item) => item.metadata.uid);
			moveClock(MINUTE);
			const refused = await workflow.poll();
			const rest = await drain(workflow);

			expect(window).toHaveLength(35);
			expect(uidsOf(activation.items).sort()).toEqual(window.map((item) => item.metadata.uid).sort());
			expect(refused.error).toBeUndefined();
			expect([...uidsOf(refused.items), ...rest]).toEqual(added);
		});

		it('without Backfill: what arrives after the refusal is emitted, not taken for a baseline', async () => {
			start();
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent' } });
			await workflow.activate();
			const first = fake.addEvents(2).map((item) => item.metadata.uid);
			moveClock(MINUTE);
			const poll1 = uidsOf((await workflow.poll()).items);
			fake.faults.add({ path: FEED, fault: REFUSED });
			const second = fake.addEvents(2).map((item) => item.metadata.uid);
			moveClock(MINUTE);
			const poll2 = uidsOf((await workflow.poll()).items);
			const third = fake.addEvents(3).map((item) => item.metadata.uid);

			const rest = await drain(workflow);

			expect([poll1, poll2, rest]).toEqual([first, second, third]);
		});

		it('in the middle of a backfill: the rest of the backfill is still read, nothing twice', async () => {
			start();
			for (const days of [4, 3, 2]) fake.addEvents(60, { materializedAt: iso(Date.now() - days * DAY) });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { backfill: 'last7Days' } }, budgetMs: 3_000 });
			const activatedAt = Date.now();
			const emitted = uidsOf((await workflow.activate()).items);
			moveClock(MINUTE);
			emitted.push(...uidsOf((await workflow.poll()).items));
			expect(emitted.length).toBeLessThan(180);
			fake.faults.add({ path: FEED, fault: REFUSED });

			// The search starts again where the trigger's knowledge ends: the start of the window, until the
			// sweep at activation has read the events someone acted on there (polls of 3 seconds).
			for (let poll = 0; poll < 40; poll++) {
				moveClock(MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uidsOf(result.items));
			}

			const window = everyEvent(fake, 101, { filters: { materialized_at: { gte: iso(activatedAt - 7 * DAY) } }, order: 'asc' }).map((item) => item.metadata.uid);
			expect(twice(emitted)).toEqual([]);
			expect([...emitted].sort()).toEqual([...window].sort());
		}, 60_000);
	});

	describe('3. sweeps during a backlog', () => {
		it('C. New Event, a 30-day backfill larger than a poll, sweeps due on the way: every event once', async () => {
			start({ eventsPerTenant: 80 });
			for (const days of [4, 3, 2]) fake.addEvents(100, { materializedAt: iso(Date.now() - days * DAY) });
			fake.addEvents(5, { materializedAt: iso(Date.now() - 10 * MINUTE) });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { backfill: 'last30Days' } }, budgetMs: 3_000 });
			const activatedAt = Date.now();
			const emitted = uidsOf((await workflow.activate()).items);
			// Polls of 3 seconds: the sweep at activation, through the window's events that someone
			// remediated or ignored, takes several that emit nothing.
			for (let poll = 1; poll <= 30; poll++) {
				moveClock(10 * MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uidsOf(result.items));
			}
			const window = everyEvent(fake, 101, { filters: { materialized_at: { gte: iso(activatedAt - 30 * DAY) } }, order: 'asc' });
			expect(window).toHaveLength(371);
			expect(twice(emitted)).toEqual([]);
			expect([...emitted].sort()).toEqual(window.map((item) => item.metadata.uid).sort());
		}, 60_000);

		it('D. New Leaked Credential, a 24-hour backfill larger than a poll, the 10-minute sweep: every credential once', async () => {
			start({ credentials: 200, domains: ['acme.com', 'example.com'], startTime: iso(Date.now() - 2 * DAY) });
			for (const hours of [20, 16, 12, 8]) fake.addCredentials(15, iso(Date.now() - hours * 60 * MINUTE), { domain: 'acme.com' });
			fake.addCredentials(3, iso(Date.now() - 10 * MINUTE), { domain: 'acme.com' });
			const workflow = new TriggerWorkflow(harness, {
				parameters: { queryType: 'domain', fqdn: 'acme.com', options: { backfill: 'last24Hours' } },
				budgetMs: 3_000,
			});
			const emitted = ((await workflow.activate()).items ?? []).map((item) => item.json.id);
			for (let poll = 1; poll <= 40; poll++) {
				moveClock(10 * MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				if (!result.items) break;
				emitted.push(...result.items.map((item) => item.json.id));
			}
			const window = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } as never, filters: { imported_at: { gte: iso(Date.now() - 26 * 60 * MINUTE) } } });
			expect(twice(emitted)).toEqual([]);
			expect([...emitted].sort()).toEqual(window.map((record) => record.id).sort());
		}, 60_000);
	});

	describe('4. a poll that outlives its budget', () => {
		it('A. a full event slower than the poll: the poll ends at its deadline; the next tick emits each event once', async () => {
			start({ eventsPerTenant: 80 });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { fetchFullEvent: true } }, budgetMs: 1_000 });
			expect((await workflow.activate()).items).toBeNull();
			const added = fake.addEvents(3).map((item) => item.metadata.uid);
			fake.faults.add({ path: ACTIVITY, fault: { delayMs: 13_000 } });
			const first = workflow.poll();
			await sleep(11_500); // n8n's next tick
			const second = await workflow.poll();
			const firstResult = await first;

			expect([...uidsOf(firstResult.items), ...uidsOf(second.items)]).toEqual(added);
		});

		it('B. a poll still under way at the next tick: the tick does nothing; each event once', async () => {
			start({ eventsPerTenant: 80 });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { fetchFullEvent: true } } });
			expect((await workflow.activate()).items).toBeNull();
			const added = fake.addEvents(3).map((item) => item.metadata.uid);
			fake.faults.add({ path: ACTIVITY, fault: { delayMs: 50_000 } });
			const first = workflow.poll();
			await sleep(1_000);
			moveClock(MINUTE);
			const second = await workflow.poll();
			const firstResult = await first;

			expect(second).toEqual({ items: null });
			expect([...uidsOf(firstResult.items), ...(await drain(workflow))]).toEqual(added);
		});
	});

	describe('5. runs of empty pages', () => {
		it('New Event, Severity At Least critical, Backfill 7 days over 600 low events: activation and polls go on; each critical event once', async () => {
			start();
			fake.addEvents(600, { severity: 'low', materializedAt: iso(Date.now() - 2 * DAY) });
			const critical = fake.addEvents(2, { severity: 'critical', materializedAt: iso(Date.now() - DAY) }).map((item) => item.metadata.uid);
			const workflow = new TriggerWorkflow(harness, {
				parameters: { event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'critical', options: { backfill: 'last7Days' } },
			});
			const activation = await workflow.activate();
			expect(activation.error).toBeUndefined();
			const emitted = uidsOf(activation.items);
			for (let poll = 0; poll < 3; poll++) {
				moveClock(MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uidsOf(result.items));
			}
			expect(emitted).toEqual(critical);
		});

		it('a sweep over more empty pages than one poll reads: it goes on at the next poll, and finds what came late after them', async () => {
			start();
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', filters: { leaveOutIgnored: true } } });
			const activatedAt = Date.now();
			await workflow.activate();
			// Three pages of events: the saved cursor lies past the first page.
			const onTime = fake.addEvents(25).map((item) => item.metadata.uid);
			expect(await drain(workflow)).toEqual(onTime);
			// Ignored events that came late (before the saved cursor, inside the sweep's window), then
			// one that comes late after them: only a sweep finds it, past 200 empty pages (a poll reads
			// about 170 in its 45 seconds).
			fake.addEvents(2_000, { ignored: true, materializedAt: iso(activatedAt - 14 * MINUTE), searchableLate: true });
			const late = fake.addEvents(1, { materializedAt: iso(Date.now() - 9 * MINUTE), searchableLate: true }).map((item) => item.metadata.uid);
			const emitted: string[] = [];
			for (let poll = 0; poll < 15; poll++) {
				moveClock(MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uidsOf(result.items));
			}
			expect(emitted).toEqual(late);
		});
	});

	describe('6. a full event that always fails', () => {
		it('the others go out; it goes out after 3 polls with fullEventError; what comes later follows', async () => {
			start({ eventsPerTenant: 80 });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { fetchFullEvent: true } } });
			expect((await workflow.activate()).items).toBeNull();
			const added = fake.addEvents(3).map((item) => item.metadata.uid);
			const bad = added[1];
			const events = fake.events as unknown as { fullEvent: (uid: string, tenant: number) => unknown };
			const original = events.fullEvent.bind(events);
			events.fullEvent = (uid, tenant) => {
				if (uid === bad) throw new Error('this one document is corrupt');
				return original(uid, tenant);
			};
			const items: INodeExecutionData[] = [];
			const errors: Array<string | undefined> = [];
			for (let poll = 1; poll <= 4; poll++) {
				if (poll === 3) added.push(...fake.addEvents(2).map((item) => item.metadata.uid));
				const result = await workflow.poll();
				items.push(...(result.items ?? []));
				errors.push(result.error?.message);
				moveClock(MINUTE);
			}
			events.fullEvent = original;

			expect(uidsOf(items)).toEqual(added);
			expect(errors).toEqual([undefined, `Flare could not send the full event of event '${bad}' (try 2 of 3)`, undefined, undefined]);
			expect(items[1].json).toMatchObject({ fullEvent: null, fullEventError: { message: 'Flare is temporarily unavailable (HTTP 500) after 5 attempts', status: 500 } });
		});
	});

	describe('11 and 12. baselines', () => {
		it('11. a changed search goes on from the last poll: what arrived since, matching, is emitted', async () => {
			start();
			const workflowId = 'review-filter-change';
			const before = new TriggerWorkflow(harness, { workflowId, parameters: { event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'critical' } });
			await before.activate();
			fake.addEvents(1, { severity: 'critical' });
			moveClock(MINUTE);
			expect(uidsOf((await before.poll()).items)).toHaveLength(1);
			const missed = fake.addEvents(1, { severity: 'critical' }).map((item) => item.metadata.uid);
			moveClock(30_000);
			// The activation of the changed trigger reads what arrived since the last poll.
			const activation = (await before.reactivate({ event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'high' }))!;
			moveClock(MINUTE);
			const next = await before.poll();

			expect([...uidsOf(activation.items), ...uidsOf(next.items)]).toEqual(missed);
		});

		it('12. the activation baseline with Fetch Full Event notes every event of the 15 minutes before; none is emitted later', async () => {
			start();
			fake.addEvents(130, { materializedAt: iso(Date.now() - 5 * MINUTE) });
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', options: { fetchFullEvent: true } } });
			const activation = await workflow.activate();
			moveClock(MINUTE);
			const next = await workflow.poll();

			expect([activation.items, next.items]).toEqual([null, null]);
			expect(fake.requests.filter((request) => request.path === ACTIVITY)).toEqual([]);
		});
	});
});
