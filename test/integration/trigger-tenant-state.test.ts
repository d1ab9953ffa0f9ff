/**
 * New Event and what the tenant does to an event after it entered the feed (docs/trigger.md, "New
 * Event"): remediated, ignored, a severity override, tags — by an analyst, by another workflow, or by
 * this one's own playbook. The trigger's meaning, stated in the form and the docs:
 * - it emits every event that enters the feed and matches the search, whoever acted on it before the
 *   trigger read it (Flare's feed leaves remediated and ignored events out unless asked: the trigger
 *   also asks for those; they come with the next sweep, within 10 minutes);
 * - a filter on what the tenant changes (Severity, Tags, Ignored or Remediated Events Only, Leave Out
 *   Ignored or Remediated Events) is decided once, at the trigger's first read of the event; a later
 *   change never emits it, however long after.
 * These replace the review's tests of 2026-11-28 (`trigger-tenant-state.test.ts`): T3 as it was, T1
 * and T1b with that meaning (an event raised or tagged after the trigger read it is not emitted, 3 or
 * 40 minutes on: the result no longer depends on the sweep's look-back).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FakeFlareOptions } from '../fake-flare';
import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';
import { apiRequests } from './support';

const TENANT = 101;
const OTHER_TENANT = 202;
const FEED = '/firework/v4/events/tenant/_search';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const uidOf = (item: { metadata: unknown }) => (item.metadata as IDataObject).uid as string;
const uidsOf = (items: INodeExecutionData[] | null | undefined) => (items ?? []).map((item) => uidOf(item.json as never));
const sorted = (values: string[]) => [...values].sort();

describe('Flare Trigger, New Event: what the tenant does to an event', () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	const start = (options: FakeFlareOptions = {}) => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY), ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};
	const activated = async (parameters: IDataObject = {}) => {
		const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', feed: 'tenant', ...parameters } });
		expect(await workflow.activate()).toEqual({ items: null });
		return workflow;
	};
	/** Polls every 5 minutes for `minutes`, the feed going on meanwhile (`others` events each time); what each emitted. */
	const pollEvery5Minutes = async (workflow: TriggerWorkflow, minutes: number, others: { count: number; severity?: 'low' } = { count: 0 }) => {
		const emitted: string[] = [];
		for (let t = 0; t < minutes; t += 5) {
			moveClock(5 * MINUTE);
			if (others.count) fake.addEvents(others.count, { severity: others.severity });
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...uidsOf(result.items));
		}
		return emitted;
	};

	describe('T3: an event someone remediated or ignored before the trigger read it is emitted, once', () => {
		it.each([
			['remediated (the playbook of another workflow, 2 minutes after it entered)', 'remediate', 'leftOut'],
			['ignored (an analyst, 2 minutes after it entered)', 'ignore', 'leftOut'],
			['remediated, where Flare lists remediated events by default (the MCP page)', 'remediate', 'listed'],
		] as const)('%s', async (_name, action, actedOnDefault) => {
			start({ actedOnDefault });
			const workflow = await activated();
			const added = fake.addEvents(3, { severity: 'critical' }).map(uidOf);
			moveClock(2 * MINUTE);
			fake.events.act(TENANT, [added[0]], action, Date.now());

			const emitted = await pollEvery5Minutes(workflow, 60);

			expect(sorted(emitted)).toEqual(sorted(added));
			// The others by the next poll, the one acted on by the next sweep (within 10 minutes).
			if (actedOnDefault === 'leftOut') expect(emitted).toEqual([added[1], added[2], added[0]]);
		}, 120_000);

		it('the sweep that finds it asks for what Flare leaves out: ignored, remediated, both', async () => {
			start();
			const workflow = await activated({ searchBy: 'keyword', keyword: 'acme', filters: { types: ['leaks'] } });
			fake.clearLog();

			moveClock(10 * MINUTE);
			await workflow.poll();

			const sweep = apiRequests(fake)
				.filter((request) => request.path === FEED)
				.map((request) => request.body as IDataObject)
				.filter((body) => body.from === undefined)
				.map((body) => body.filters as IDataObject);
			expect(sweep.map((filters) => ({ ...filters, materialized_at: undefined }))).toEqual([
				{ type: ['leaks'], materialized_at: undefined },
				{ type: ['leaks'], materialized_at: undefined },
				{ type: ['leaks'], is_ignored: true, materialized_at: undefined },
				{ type: ['leaks'], is_remediated: true, materialized_at: undefined },
				{ type: ['leaks'], is_ignored: true, is_remediated: true, materialized_at: undefined },
			]);
		});
	});

	describe('Leave Out Remediated Events: decided at the first read', () => {
		it('an event remediated before the trigger read it is left out, and stays out when it is remediated no more', async () => {
			start();
			const workflow = await activated({ filters: { leaveOutRemediated: true } });
			const [handled, open] = fake.addEvents(2, { severity: 'critical' }).map(uidOf);
			moveClock(MINUTE);
			fake.events.act(TENANT, [handled], 'remediate', Date.now());
			const first = await pollEvery5Minutes(workflow, 15);
			// Left out by the sweep that read it, and remembered while a sweep may read it again.
			const rejected = Object.keys((workflow.state.rejected ?? {}) as IDataObject);
			// Undone after the sweep read it, inside the next sweep's window.
			fake.events.act(TENANT, [handled], 'unremediate', Date.now());
			const later = await pollEvery5Minutes(workflow, 45);

			expect(first).toEqual([open]);
			expect(rejected).toHaveLength(1);
			expect(later).toEqual([]);
		}, 120_000);

		it('an event remediated after the trigger emitted it (this workflow handles it) is emitted once; one undone before the first read goes out', async () => {
			start();
			const workflow = await activated({ filters: { leaveOutRemediated: true, leaveOutIgnored: true } });
			const [handled, undone] = fake.addEvents(2, { severity: 'critical' }).map(uidOf);
			fake.events.act(TENANT, [undone], 'ignore', Date.now());
			moveClock(MINUTE);
			fake.events.act(TENANT, [undone], 'unignore', Date.now());
			const first = await pollEvery5Minutes(workflow, 5);
			fake.events.act(TENANT, [handled], 'remediate', Date.now());
			const later = await pollEvery5Minutes(workflow, 40);

			expect([first, later]).toEqual([[handled, undone], []]);
		}, 120_000);

		it('Ignored Events Only and Leave Out Ignored Events together: an error naming both, before any request', async () => {
			start();
			fake.clearLog();
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', filters: { ignored: true, leaveOutIgnored: true } } });

			const result = await workflow.activate();

			expect(result.error?.message).toBe("'Leave Out Ignored Events' cannot be set with 'Ignored Events Only' [item 0]");
			expect(apiRequests(fake)).toEqual([]);
			expect(workflow.saved).toEqual({});
		});
	});

	describe('T1: Severity at least critical, an event raised to critical after it entered (the playbook "Respond to critical events")', () => {
		it('raised before the trigger first read it: emitted; lowered before: not', async () => {
			start();
			const workflow = await activated({ severityFilter: 'minimum', minimumSeverity: 'critical' });
			const [raised] = fake.addEvents(1, { severity: 'high' }).map(uidOf);
			const [lowered] = fake.addEvents(1, { severity: 'critical' }).map(uidOf);
			moveClock(MINUTE);
			fake.events.setMetadata(TENANT, raised, { severity: 'critical' });
			fake.events.setMetadata(TENANT, lowered, { severity: 'high' });

			expect(await pollEvery5Minutes(workflow, 30, { count: 12, severity: 'low' })).toEqual([raised]);
		}, 120_000);

		it.each([3, 40])('raised %i minutes after the trigger first read it: never emitted, whatever the sweeps read later', async (minutes) => {
			start();
			const workflow = await activated({ severityFilter: 'minimum', minimumSeverity: 'critical' });
			const [event] = fake.addEvents(1, { severity: 'high' }).map(uidOf);
			const before = await pollEvery5Minutes(workflow, 5, { count: 12, severity: 'low' });
			moveClock(minutes * MINUTE);
			fake.events.setMetadata(TENANT, event, { severity: 'critical' });
			const [critical] = fake.addEvents(1, { severity: 'critical' }).map(uidOf);

			const after = await pollEvery5Minutes(workflow, 60, { count: 12, severity: 'low' });

			expect([before, after]).toEqual([[], [critical]]);
		}, 120_000);
	});

	describe('T1b: Filters → Tags "escalate", the tag added after the event entered', () => {
		it('tagged before the trigger first read it: emitted; tagged 3 or 40 minutes after: never', async () => {
			start();
			const workflow = await activated({ filters: { tags: 'escalate' } });
			const [early, soon, late] = fake.addEvents(3).map(uidOf);
			moveClock(MINUTE);
			fake.events.setMetadata(TENANT, early, { tags: ['escalate'] });
			const emitted = await pollEvery5Minutes(workflow, 5, { count: 12 });
			moveClock(3 * MINUTE);
			fake.events.setMetadata(TENANT, soon, { tags: ['escalate'] });
			emitted.push(...(await pollEvery5Minutes(workflow, 35, { count: 12 })));
			fake.events.setMetadata(TENANT, late, { tags: ['vip', 'escalate'] });
			emitted.push(...(await pollEvery5Minutes(workflow, 60, { count: 12 })));

			expect(emitted).toEqual([early]);
		}, 120_000);
	});

	describe('S1: the saved search belongs to the tenant the credential reads', () => {
		it('the credential pointed at another tenant: a new search there (the saved cursor is not sent); what entered that feed since, once', async () => {
			start();
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: TENANT });
			const workflow = await activated();
			const first = fake.addEvents(12).map(uidOf);
			const emitted = await pollEvery5Minutes(workflow, 5);
			const cursor = (workflow.state as { cursor?: string }).cursor;
			const account = (workflow.state.scope as IDataObject).account;
			const meanwhile = fake.addEvents(1, { tenantId: OTHER_TENANT }).map(uidOf);
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: OTHER_TENANT });
			fake.clearLog();
			emitted.push(...(await pollEvery5Minutes(workflow, 5)));
			const sent = apiRequests(fake).filter((request) => request.path === FEED).map((request) => request.body as IDataObject);
			const later = fake.addEvents(2, { tenantId: OTHER_TENANT }).map(uidOf);
			emitted.push(...(await pollEvery5Minutes(workflow, 30)));

			expect(cursor).toBeDefined();
			expect(sent[0].from).toBeUndefined();
			expect(sent.map((body) => body.from)).not.toContain(cursor);
			expect((workflow.state.scope as IDataObject).account).not.toBe(account);
			expect(emitted).toEqual([...first, ...meanwhile, ...later]);
		}, 120_000);

		it('a state saved before the scope was kept: taken as this tenant\'s; the saved search goes on from its cursor', async () => {
			start();
			const workflow = await activated();
			fake.addEvents(12);
			expect(await pollEvery5Minutes(workflow, 5)).toHaveLength(12);
			const earlier: IDataObject = { ...workflow.state, scope: undefined };
			workflow.saved = JSON.parse(JSON.stringify({ 'node:Flare Trigger': earlier })) as IDataObject;
			const added = fake.addEvents(2).map(uidOf);
			fake.clearLog();
			// n8n's start-up activation poll resumes the saved search.
			const restarted = uidsOf((await workflow.restart()).items);

			expect([...restarted, ...(await pollEvery5Minutes(workflow, 5))]).toEqual(added);
			expect((apiRequests(fake)[0].body as IDataObject).from).toBe(earlier.cursor);
			expect(workflow.state.scope).toEqual({ account: expect.stringMatching(/^[0-9a-f]{16}$/) });
		});
	});
});
