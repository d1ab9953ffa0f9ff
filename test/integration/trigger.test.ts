import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { GlobalSearchBody } from '../contract';
import { FakeFlare, type LoggedRequest } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import { apiRequests, jsonOf, masked, simplifiedCredential } from './support';

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const QUERY = { type: 'domain', fqdn: 'acme.com' };
const DOMAINS = ['acme.com', 'example.com'];
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const iso = (ms: number) => new Date(ms).toISOString();
/** A whole minute at least a minute ahead: credentials "imported" after the trigger's activation. */
const nextMinute = () => Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
const idsOf = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.id);
const bodyOf = (request: LoggedRequest) => request.body as IDataObject;
/** A request body without its page cursor. */
const withoutCursor = (body: IDataObject) => Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'from'));
/** imported_at as Flare (the fake) writes it. */
const flareTime = (ms: number) => iso(ms).replace('.000Z', '+00:00');

describe('Flare Trigger', () => {
	let fake: FakeFlare;
	let harness: Harness;

	const searches = () => apiRequests(fake).filter((request) => request.path === SEARCH_PATH);
	/** The oracle: every matching credential imported at or after `gte`, oldest first. */
	const importedSince = (gte: string) =>
		fake.dataset.searchAll({ query: QUERY as never, filters: { imported_at: { gte } }, order: 'asc' });
	const walkBody = (gte: string) => ({ query: QUERY, filters: { imported_at: { gte } }, order: 'asc', size: 10_000 });

	const start = (options: Parameters<FakeFlare['reset']>[0] = {}) => {
		fake.reset({ credentials: 1000, domains: DOMAINS, ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};
	const trigger = (parameters: IDataObject = {}, budgetMs?: number) =>
		new TriggerWorkflow(harness, { parameters: { queryType: 'domain', fqdn: 'acme.com', ...parameters }, budgetMs });

	/** First activation without backfill: stores "now" and emits nothing. Returns the watermark. */
	const activate = async (workflow: TriggerWorkflow) => {
		const before = Date.now();
		const result = await workflow.poll();
		expect(result).toEqual({ items: null });
		const watermark = workflow.state.watermark as string;
		expect(Date.parse(watermark)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(watermark)).toBeLessThanOrEqual(Date.now());
		expect(workflow.state).toEqual({ watermark, idsAtWatermark: [] });
		return watermark;
	};

	/** Polls until the walk is complete (no resume point left); returns every poll's result. */
	const pollUntilDone = async (workflow: TriggerWorkflow, maxPolls = 30) => {
		const results: PollResult[] = [];
		do {
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			results.push(result);
		} while (workflow.state.resume && results.length < maxPolls);
		expect(workflow.state.resume).toBeUndefined();
		return results;
	};

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	describe('active polls', () => {
		it('emits every new credential exactly once across polls, through same-instant groups, empty and short pages', async () => {
			start();
			const workflow = trigger({ fqdn: ' ACME.com ' });
			const from = await activate(workflow);
			expect(fake.requests).toEqual([]);

			// Three acme.com credentials share one instant, one comes a second later.
			const t = nextMinute();
			fake.addCredentials(6, iso(t));
			fake.addCredentials(2, iso(t + 1000));
			const second = await workflow.poll();

			const firstBatch = importedSince(from);
			expect(firstBatch.map((record) => record.imported_at)).toEqual([t, t, t, t + 1000].map(flareTime));
			expect(jsonOf(second.items ?? [])).toEqual(firstBatch.map((record) => simplifiedCredential(record, masked(record.hash), 999_999)));
			expect(searches().map(bodyOf)).toEqual([walkBody(from)]);
			expect(() => GlobalSearchBody.parse(searches()[0].body)).not.toThrow();
			expect(workflow.state).toEqual({ watermark: iso(t + 1000), idsAtWatermark: [String(firstBatch[3].id)] });
			expect(workflow.saved).toEqual({ [`node:Flare Trigger`]: workflow.state });

			// Nothing new: nothing emitted, nothing changed.
			fake.clearLog();
			const third = await workflow.poll();
			expect(third).toEqual({ items: null });
			expect(searches().map(bodyOf)).toEqual([walkBody(iso(t + 1000))]);
			expect(workflow.state).toEqual({ watermark: iso(t + 1000), idsAtWatermark: [String(firstBatch[3].id)] });
			expect(workflow.unsaved).toBe(false);

			// More credentials at the watermark instant itself, then 40,000 at one later instant: several
			// pages of 10,000, among them short and empty ones.
			fake.addCredentials(4, iso(t + 1000));
			fake.addCredentials(80_000, iso(t + 2000));
			fake.clearLog();
			const fourth = await workflow.poll();

			const all = importedSince(from);
			expect(all).toHaveLength(4 + 2 + 40_000);
			expect(idsOf(fourth.items)).toEqual(all.slice(4).map((record) => record.id));
			const emitted = [...idsOf(second.items), ...idsOf(fourth.items)];
			expect(emitted).toEqual(all.map((record) => record.id));
			expect(new Set(emitted).size).toBe(emitted.length);

			// Pages: 10,000, 10,000, 5,000 (short), empty, 10,000, the rest.
			const bodies = searches().map(bodyOf);
			expect(bodies).toHaveLength(6);
			expect(bodies.map(withoutCursor)).toEqual(bodies.map(() => walkBody(iso(t + 1000))));
			expect(bodies[0].from).toBeUndefined();
			expect(new Set(bodies.slice(1).map((body) => body.from)).size).toBe(bodies.length - 1);
			expect(workflow.state).toEqual({
				watermark: iso(t + 2000),
				idsAtWatermark: all.filter((record) => record.imported_at === flareTime(t + 2000)).map((record) => String(record.id)),
			});
			expect(workflow.saved).toEqual({ [`node:Flare Trigger`]: workflow.state });
		});

		it('applies Simplify and Leaked Value Output like the Flare node', async () => {
			start();
			const workflow = trigger({ simplify: false, options: { leakedValueOutput: 'full' } });
			const from = await activate(workflow);
			fake.addCredentials(6, iso(nextMinute()));

			const result = await workflow.poll();

			expect(jsonOf(result.items ?? [])).toEqual(importedSince(from).map((record) => ({ ...record, globalSearchesRemaining: 999_999 })));
		});

		it('checks the query before anything is sent, and stores nothing', async () => {
			start();
			const workflow = trigger({ fqdn: 'https://acme.com/login' });

			const result = await workflow.poll();

			expect(result.items).toBeNull();
			expect(result.error?.name).toBe('NodeOperationError');
			expect(result.error?.message).toBe(`'Domain' is not a domain name: "https://acme.com/login" [item 0]`);
			expect(fake.requests).toEqual([]);
			expect(workflow.state).toEqual({});
		});
	});

	describe('poll time budget', () => {
		it('emits what it has when time runs out and resumes the same walk next poll', async () => {
			start();
			const workflow = trigger({}, 0);
			const from = await activate(workflow);
			const t = nextMinute();
			fake.addCredentials(80_000, iso(t));
			fake.addCredentials(10, iso(t + 1000));

			const results = await pollUntilDone(workflow);

			// One page per poll: each poll continues the walk with the cursor of the last, all other
			// parameters unchanged (the watermark of the walk's start). Pages: 10,000, 10,000, 5,000
			// (short), empty, 10,000, the rest.
			const bodies = searches().map(bodyOf);
			expect(bodies).toHaveLength(results.length);
			expect(results).toHaveLength(6);
			expect(bodies.map(withoutCursor)).toEqual(bodies.map(() => walkBody(from)));
			expect(bodies[0].from).toBeUndefined();
			expect(new Set(bodies.slice(1).map((body) => body.from)).size).toBe(bodies.length - 1);
			// A page came back empty: that poll emitted nothing but moved the cursor on.
			expect(results.some((result) => result.items === null)).toBe(true);

			const expected = importedSince(from).map((record) => record.id);
			expect(expected).toHaveLength(40_005);
			const emitted = results.flatMap((result) => idsOf(result.items));
			expect(emitted).toEqual(expected);
			expect(workflow.state).toEqual({
				watermark: iso(t + 1000),
				idsAtWatermark: expected.slice(40_000).map(String),
			});
		});

		it('stops fetching when the next page would not fit in the time left', async () => {
			start();
			const workflow = trigger({}, 500);
			const from = await activate(workflow);
			fake.addCredentials(30_000, iso(nextMinute()));
			fake.faults.add({ path: SEARCH_PATH, fault: { delayMs: 1_000 } });

			const first = await workflow.poll();

			expect(searches()).toHaveLength(1);
			expect(first.items).toHaveLength(10_000);
			expect(workflow.state.resume).toEqual({ gte: from, from: expect.any(String), query: expect.any(String) });
			const cursor = (workflow.state.resume as IDataObject).from;

			workflow.budgetMs = 5 * MINUTE;
			const rest = await pollUntilDone(workflow);

			expect(rest).toHaveLength(1);
			expect(bodyOf(searches()[1])).toEqual({ ...walkBody(from), from: cursor });
			const emitted = [...idsOf(first.items), ...idsOf(rest[0].items)];
			expect(emitted).toEqual(importedSince(from).map((record) => record.id));
		});

		it('starts the walk again from the watermark when Flare no longer accepts the stored cursor', async () => {
			start();
			const workflow = trigger({}, 0);
			const from = await activate(workflow);
			const t = nextMinute();
			fake.addCredentials(30_000, iso(t));
			const first = await workflow.poll();
			const cursor = (workflow.state.resume as IDataObject).from;
			fake.faults.add({
				path: SEARCH_PATH,
				fault: { status: 422, body: { detail: [{ loc: ['body', 'from'], msg: 'Invalid cursor', type: 'value_error', input: cursor }] } },
			});
			fake.clearLog();

			const rest = await pollUntilDone(workflow);

			const [rejected, restarted] = searches().map(bodyOf);
			expect(rejected).toEqual({ ...walkBody(from), from: cursor });
			expect(restarted).toEqual(walkBody(iso(t)));
			const emitted = [...idsOf(first.items), ...rest.flatMap((result) => idsOf(result.items))];
			expect(emitted).toEqual(importedSince(from).map((record) => record.id));
		});
	});

	describe('failures', () => {
		const quotaFault = { status: 429, body: { error: { code: 'QUOTA_EXCEEDED', message: 'global search quota exceeded' } } };

		it('a poll that fails midway emits nothing and moves nothing; the next poll emits everything once', async () => {
			start();
			const workflow = trigger();
			const from = await activate(workflow);
			fake.addCredentials(30_000, iso(nextMinute()));
			fake.faults.add({ path: SEARCH_PATH, skip: 1, fault: quotaFault });
			const state = workflow.state;
			const saved = workflow.saved;

			const failed = await workflow.poll();

			expect(failed.items).toBeNull();
			expect(failed.error?.name).toBe('NodeApiError');
			expect(failed.error?.message).toBe('The global search quota of your Flare organization is used up');
			expect(searches()).toHaveLength(2);
			expect(workflow.state).toEqual(state);
			expect(workflow.saved).toEqual(saved);

			fake.clearLog();
			const retried = await workflow.poll();

			expect(bodyOf(searches()[0])).toEqual(walkBody(from));
			const emitted = idsOf(retried.items);
			expect(emitted).toEqual(importedSince(from).map((record) => record.id));
			expect(new Set(emitted).size).toBe(15_000);
		});

		it('a resumed walk that fails keeps its cursor, and the walk completes later without repeats', async () => {
			start();
			const workflow = trigger({}, 0);
			const from = await activate(workflow);
			fake.addCredentials(30_000, iso(nextMinute()));
			const first = await workflow.poll();
			const state = workflow.state;
			fake.faults.add({ path: SEARCH_PATH, fault: quotaFault });

			const failed = await workflow.poll();

			expect(failed.error?.message).toBe('The global search quota of your Flare organization is used up');
			expect(workflow.state).toEqual(state);
			fake.clearLog();
			const rest = await pollUntilDone(workflow);
			expect(bodyOf(searches()[0])).toEqual({ ...walkBody(from), from: (state.resume as IDataObject).from });
			const emitted = [...idsOf(first.items), ...rest.flatMap((result) => idsOf(result.items))];
			expect(emitted).toEqual(importedSince(from).map((record) => record.id));
		});

		it('rides out an expired token and a transient 503 mid-walk, like the Flare node', async () => {
			start();
			const workflow = trigger();
			const from = await activate(workflow);
			fake.addCredentials(50_000, iso(nextMinute()));
			fake.faults.add({ path: SEARCH_PATH, skip: 1, fault: { expireTokens: true } });
			fake.faults.add({ path: SEARCH_PATH, skip: 3, fault: { status: 503, rawBody: '<html>down</html>' } });

			const result = await workflow.poll();

			expect(result.error).toBeUndefined();
			expect(fake.requests.filter((request) => request.path === '/tokens/generate')).toHaveLength(2);
			expect(searches().map((request) => request.status)).toContain(401);
			expect(searches().map((request) => request.status)).toContain(503);
			expect(idsOf(result.items)).toEqual(importedSince(from).map((record) => record.id));
		});
	});

	describe('manual "fetch test event"', () => {
		it('returns the newest matches and changes no state', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			const t = nextMinute();
			fake.addCredentials(6, iso(t));
			const emitted = await workflow.poll();
			expect(emitted.items).toHaveLength(3);
			fake.addCredentials(4, iso(t + 1000));
			const state = workflow.state;
			const saved = workflow.saved;
			fake.clearLog();

			const manual = await workflow.poll('manual');

			const newest = fake.dataset.searchAll({ query: QUERY as never }).slice(0, 5);
			expect(jsonOf(manual.items ?? [])).toEqual(newest.map((record) => simplifiedCredential(record, masked(record.hash), expect.any(Number) as never)));
			expect(searches().map(bodyOf)).toEqual([{ query: QUERY, order: 'desc', size: 5 }]);
			expect(workflow.state).toEqual(state);
			expect(workflow.unsaved).toBe(false);
			expect(workflow.saved).toEqual(saved);

			// The credentials shown in the test are still emitted by the next active poll, once.
			const next = await workflow.poll();
			expect(idsOf(next.items)).toEqual(fake.dataset.searchAll({ query: QUERY as never, filters: { imported_at: { gte: iso(t + 1000) } }, order: 'asc' }).map((record) => record.id));
			expect(idsOf(next.items)).toHaveLength(2);
		});

		it('stores nothing before the first activation', async () => {
			start();
			const workflow = trigger();

			const manual = await workflow.poll('manual');

			expect(manual.items).toHaveLength(5);
			expect(workflow.state).toEqual({});
			expect(workflow.unsaved).toBe(false);
		});

		it('runs in n8n\'s manual execution and says so when nothing matches', async () => {
			start();
			const node = (fqdn: string) => ({
				id: 'trigger',
				name: 'Flare Trigger',
				type: 'n8n-nodes-flareio.flareTrigger',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: { queryType: 'domain', fqdn },
				credentials: { flareApi: { id: 'cred-1', name: 'Flare' } },
			});

			const found = await harness.runWorkflow([node('acme.com')], {});
			const none = await harness.runWorkflow([node('nobody.example')], {});

			expect(found.status).toBe('success');
			expect(idsOf(found.node('Flare Trigger').outputs[0])).toEqual(fake.dataset.searchAll({ query: QUERY as never }).slice(0, 5).map((record) => record.id));
			expect(none.status).toBe('error');
			expect(none.error?.message).toBe('No leaked credential matches this query yet');
		});
	});

	describe('backfill', () => {
		it('emits the chosen window on first activation, once', async () => {
			// 3,000 credentials over about 17 hours, starting 7 days and 5 hours ago: the first 5 hours
			// fall outside a 7-day window.
			const startTime = Math.floor((Date.now() - 7 * DAY - 5 * 60 * MINUTE) / MINUTE) * MINUTE;
			start({ credentials: 3000, startTime: iso(startTime) });
			const workflow = trigger({ options: { backfill: 'last7Days' } });

			const before = Date.now();
			const first = await workflow.poll();
			const after = Date.now();

			const gte = ((bodyOf(searches()[0]).filters as IDataObject).imported_at as IDataObject).gte as string;
			expect(Date.parse(gte)).toBeGreaterThanOrEqual(before - 7 * DAY);
			expect(Date.parse(gte)).toBeLessThanOrEqual(after - 7 * DAY);
			expect(searches().map(bodyOf)).toEqual([walkBody(gte)]);
			const window = importedSince(gte);
			const everything = fake.dataset.searchAll({ query: QUERY as never });
			expect(window.length).toBeGreaterThan(500);
			expect(window.length).toBeLessThan(everything.length);
			expect(idsOf(first.items)).toEqual(window.map((record) => record.id));

			fake.clearLog();
			const second = await workflow.poll();
			expect(second).toEqual({ items: null });
			expect(searches()).toHaveLength(1);
		});
	});
});
