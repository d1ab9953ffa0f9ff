/**
 * Event → Search All of Flare (the global event search, its quota and its pages of 10), Update Tenant
 * Metadata (a write, one event a request) and Expand Stealer Log (a stealer log's cookies or
 * credentials, masked), through the real engine against the fake Flare API: exact requests, exact
 * items, exact errors.
 */
import type { IDataObject } from 'n8n-workflow';

import { GlobalEventSearchBody, GlobalFeedItem, TenantMetadataBody } from '../contract';
import { PLANTED_MARKER } from '../fake-flare/planted';
import { apiRequests, jsonOf, masked, maskedView, sha256, useFakeFlare } from './support';

const TENANT = 101;
const GLOBAL = '/firework/v4/events/global/_search';
const METADATA = '/firework/v4/events/tenant/metadata';
const EXPAND = '/firework/v4/events/_expand';

const withoutFrom = (body: unknown) => {
	const copy = { ...(body as IDataObject) };
	delete copy.from;
	return copy;
};

describe('Event triage: search all of Flare, tenant metadata, stealer logs', () => {
	const flare = useFakeFlare({ credentials: 100, eventsPerTenant: 120 });

	describe('Search All of Flare', () => {
		const searchAll = (extra: IDataObject = {}) => ({
			resource: 'event',
			operation: 'searchGlobal',
			searchBy: 'domain',
			fqdn: 'example.com',
			...extra,
		});
		// What the node promises by default: the fake's planted values masked (docs/api-contract.md, "Masking").
		const oracle = (body: IDataObject) => maskedView(flare.fake.feed.globalSearchAll(TENANT, body), flare.fake.plantedValues());

		it('Return All walks pages of 10 through empty and short ones, over every tenant\'s events, with the quota on each item', async () => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({ parameters: searchAll({ returnAll: true, filters: { createdFrom: '2020-01-01T00:00:00Z' } }) });

			const body = {
				query: { type: 'domain', fqdn: 'example.com' },
				filters: { estimated_created_at: { gte: '2020-01-01T00:00:00.000Z' } },
				order: 'desc',
			};
			const requests = apiRequests(flare.fake);
			expect(requests.map((request) => [request.method, request.path, request.status])).toEqual(requests.map(() => ['POST', GLOBAL, 200]));
			expect(requests.map((request) => withoutFrom(request.body))).toEqual(requests.map(() => ({ ...body, size: 10 })));
			for (const request of requests) GlobalEventSearchBody.parse(request.body);
			expect(requests.some((request) => request.results === 0)).toBe(true);
			const expected = oracle(body);
			expect(expected.length).toBeGreaterThan(20);
			expect(new Set(expected.map((item) => item.metadata.uid.match(/\/(\d{3})\d{4}/)?.[1]))).toEqual(new Set(['101', '202']));
			// Every page's answer says what remains: the last one's count is on the items of its page.
			const left = flare.fake.quotaLeft;
			expect(result.output.map((item) => item.json.globalSearchesRemaining).at(-1)).toBe(left);
			expect(
				jsonOf(result.output).map((item) => {
					const copy = { ...item };
					delete copy.globalSearchesRemaining;
					delete copy.globalSearchBatchReached;
					return copy;
				}),
			).toEqual(expected);
			for (const item of result.output) {
				GlobalFeedItem.parse(item.json);
				expect(item.json).not.toHaveProperty('identifiers');
			}
			// At most 100 results per unit: the whole walk in one 10-minute session.
			expect(flare.fake.quotaUsed()).toBe(Math.ceil(expected.length / 100));
		});

		it('Limit takes the fewest pages of at most 10, filled evenly; the tier is Search', async () => {
			const result = await flare.harness.runNode({ parameters: searchAll({ limit: 15, searchBy: 'keyword', keyword: 'com', severityFilter: 'list', severities: ['high', 'critical'] }) });

			const body = { query: { type: 'keyword', keyword: 'com' }, filters: { severity: ['high', 'critical'] }, order: 'desc' };
			expect(apiRequests(flare.fake).map((request) => [withoutFrom(request.body), request.tier])).toEqual([
				[{ ...body, size: 8 }, 'search'],
				[{ ...body, size: 8 }, 'search'],
			]);
			expect(jsonOf(result.output).map((item) => item.metadata)).toEqual(oracle(body).slice(0, 15).map((item) => item.metadata));
		});

		it('marks the item after which the next result costs a search', async () => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quotaReading: 'requested', quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({ parameters: searchAll({ limit: 100, searchBy: 'keyword', keyword: 'com' }) });

			expect(result.output).toHaveLength(100);
			expect(flare.fake.quotaUsed()).toBe(1);
			expect(result.output.map((item) => item.json.globalSearchBatchReached ?? false)).toEqual([...Array(90).fill(false), ...Array(10).fill(true)]);
		});

		describe.each(['requested', 'returned'] as const)('quota units, counting results %s', (quotaReading) => {
			it.each([
				[3, 1],
				[55, 1],
				[158, 2],
			])('%i events cost the minimum, %i unit(s), in one session', async (wanted, units) => {
				flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quotaReading, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
				flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });
				const all = oracle({ query: { type: 'keyword', keyword: 'com' } });
				expect(all).toHaveLength(158);

				const result = await flare.harness.runNode({
					parameters: searchAll({ searchBy: 'keyword', keyword: 'com', ...(wanted === all.length ? { returnAll: true } : { limit: wanted }) }),
				});

				expect(result.output).toHaveLength(wanted);
				expect(flare.fake.quotaUsed()).toBe(units);
				expect(apiRequests(flare.fake)).toHaveLength(Math.ceil(wanted / 10));
			}, 60_000);
		});

		it('stops at once when the quota is used up, and names it', async () => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quota: 0 });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({ parameters: searchAll({ returnAll: true }) });

			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([429]);
			expect(result.error?.message).toBe('The global search quota of your Flare organization is used up');
		});

		it.each(['requested', 'returned'] as const)('with the last quota unit (counting results %s), reads the pages it covers and stops only where the next one would cost a search', async (quotaReading) => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quota: 1, quotaReading, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });
			const query = { searchBy: 'keyword', keyword: 'com' };
			expect(oracle({ query: { type: 'keyword', keyword: 'com' } }).length).toBeGreaterThan(100);

			// The unit's first page says 0 remain; its next pages are the same search, already paid for.
			const limited = await flare.harness.runNode({ parameters: searchAll({ ...query, limit: 30 }) });
			const limitedRequests = apiRequests(flare.fake).length;
			// Return All in the same session: the unit covers 100 results, 30 of them read, so 7 pages of 10
			// more; the page after Batch-Reached is not sent.
			const all = await flare.harness.runNode({ parameters: searchAll({ ...query, returnAll: true }) });

			expect([limited.status, limited.output.length, limitedRequests]).toEqual(['success', 30, 3]);
			expect(limited.output.map((item) => item.json.globalSearchesRemaining)).toEqual(limited.output.map(() => 0));
			expect([all.status, all.error?.message]).toEqual(['error', 'The global search quota of your Flare organization is used up']);
			expect(apiRequests(flare.fake).slice(limitedRequests).map((request) => [request.path, request.status])).toEqual(
				Array.from({ length: 7 }, () => [GLOBAL, 200]),
			);
			expect(flare.fake.quotaUsed()).toBe(1);
		}, 60_000);

		it.each([
			[{ searchBy: 'all' }, `'Search By' needs a query: Flare searches all of its events only for what they mention [item 0]`],
			[{ searchBy: 'domain', fqdn: 'not a domain' }, `'Domain' is not a domain name: "not a domain" [item 0]`],
			[{ filters: { types: ['phishing'] } }, `'Event Type Names or IDs' has an unknown event type: "phishing" [item 0]`],
		])('rejects %j before anything is sent', async (parameters, message) => {
			const result = await flare.harness.runNode({ parameters: searchAll(parameters) });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
			expect(flare.fake.requests).toEqual([]);
		});
	});

	describe('Update Tenant Metadata', () => {
		const update = (extra: IDataObject = {}) => ({ resource: 'event', operation: 'updateTenantMetadata', uid: '={{ $json.uid }}', ...extra });
		const feedUids = () => flare.fake.feed.feedAll(TENANT, {}).map((item) => item.metadata.uid);

		it('sends one PATCH per item with only the fields added, and outputs Flare\'s answer paired with its input', async () => {
			const uids = feedUids().slice(0, 2);

			const result = await flare.harness.runNode(
				{ parameters: update({ updateFields: { tags: 'handled, vip, handled', severity: 'low', notes: 'Sessions revoked' } }) },
				{ items: uids.map((uid) => ({ uid })) },
			);

			const body = { tags: ['handled', 'vip'], severity: 'low', notes: 'Sessions revoked' };
			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.query, request.body])).toEqual(
				uids.map((uid) => ['PATCH', METADATA, { uid }, body]),
			);
			for (const request of apiRequests(flare.fake)) TenantMetadataBody.parse(request.body);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual(
				uids.map((uid, index) => [{ uid, notes: 'Sessions revoked', tags: ['handled', 'vip'], severity: 'low' }, { item: index }]),
			);
			const state = flare.fake.events.state(TENANT, uids[0])!;
			expect([state.tags, state.override, state.notes]).toEqual([['handled', 'vip'], 'low', 'Sessions revoked']);
			expect(flare.fake.state.writes).toHaveLength(2);
		});

		it('sends tags alone from an array expression, and an empty list clears them', async () => {
			const [uid] = feedUids();

			await flare.harness.runNode({ parameters: update({ updateFields: { tags: '={{ ["handled"] }}' } }) }, { items: [{ uid }] });
			await flare.harness.runNode({ parameters: update({ updateFields: { tags: '' } }) }, { items: [{ uid }] });

			expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ tags: ['handled'] }, { tags: [] }]);
			expect(flare.fake.events.state(TENANT, uid)!.tags).toEqual([]);
		});

		it.each([
			[{ updateFields: {} }, `'Update Fields' has nothing to change [item 0]`],
			[{ updateFields: { severity: '={{ "urgent" }}' } }, `'Severity' has an unknown value: "urgent" [item 0]`],
			[{ uid: ' ', updateFields: { notes: 'x' } }, `'Event UID' is required [item 0]`],
		])('rejects %j before anything is sent', async (parameters, message) => {
			const result = await flare.harness.runNode({ parameters: update(parameters) }, { items: [{ uid: feedUids()[0] }] });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
			expect(flare.fake.requests).toEqual([]);
		});

		it('continue on fail: an unknown event is its own error item, the others are updated', async () => {
			const uids = feedUids().slice(0, 2);

			const result = await flare.harness.runNode(
				{ parameters: update({ updateFields: { notes: 'seen' } }), onError: 'continueRegularOutput' },
				{ items: [{ uid: uids[0] }, { uid: 'leak/nowhere/1' }, { uid: uids[1] }] },
			);

			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[expect.objectContaining({ uid: uids[0], notes: 'seen' }), { item: 0 }],
				[{ error: "Event 'leak/nowhere/1' was not found in Flare" }, { item: 1 }],
				[expect.objectContaining({ uid: uids[1], notes: 'seen' }), { item: 2 }],
			]);
			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([200, 404, 200]);
		});

		it.each([
			['an empty list', [], 'Flare answered with a list, not the event\'s tenant metadata'],
			['an object without uid', { detail: 'Not Found' }, "Flare answered with an object without 'uid', not the event's tenant metadata"],
		])('an answer that is not the event\'s metadata (%s) confirms nothing: that item\'s error says Flare may have applied it', async (_name, body, what) => {
			const uids = feedUids().slice(0, 2);
			flare.fake.faults.add({ path: METADATA, phase: 'after', fault: { status: 200, body } });

			const result = await flare.harness.runNode(
				{ parameters: update({ updateFields: { tags: 'handled' } }), onError: 'continueRegularOutput' },
				{ items: uids.map((uid) => ({ uid })) },
			);

			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([200, 200]);
			expect(result.output.map((item) => [item.json.error ?? item.json.uid, item.pairedItem])).toEqual([
				['Flare accepted the request to update the tenant metadata of the event (HTTP 200), but its answer could not be used', { item: 0 }],
				[uids[1], { item: 1 }],
			]);
			expect(result.output[0].error?.description).toBe(
				`${what}. The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.`,
			);
		});

		it('never sends the write twice once Flare may have applied it', async () => {
			const [uid] = feedUids();
			flare.fake.faults.add({ path: METADATA, phase: 'after', fault: { status: 504, rawBody: 'gateway timeout' } });

			const result = await flare.harness.runNode({ parameters: update({ updateFields: { notes: 'once' } }) }, { items: [{ uid }] });

			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([504]);
			expect(result.error?.message).toBe('Flare did not confirm the request to update the tenant metadata of the event');
			expect(flare.fake.events.state(TENANT, uid)!.notes).toBe('once');
		});
	});

	describe('Expand Stealer Log', () => {
		const stealerLogs = () =>
			flare.fake.feed
				.feedAll(TENANT, { filters: { type: ['stealer_log'] } })
				.map((item) => item.metadata.uid);
		/** A stealer log with more than `count` of `field`. */
		const logWith = (field: 'cookies' | 'credentials', count: number) =>
			stealerLogs().find((uid) => flare.fake.feed.expandAll(uid, field).length > count)!;
		const expand = (extra: IDataObject) => ({ resource: 'event', operation: 'expandStealerLog', ...extra });

		it('Return All pages the cookies by 20 and outputs one item each, value masked, with the event UID', async () => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 120, quirks: { emptyPageEvery: 2, shortPageEvery: 0 } });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });
			const uid = logWith('cookies', 20);
			const cookies = flare.fake.feed.expandAll(uid, 'cookies') as Array<{ value: string }>;

			const result = await flare.harness.runNode({ parameters: expand({ uid, expandField: 'cookies', returnAll: true }) });

			const requests = apiRequests(flare.fake);
			expect(requests.map((request) => [request.method, request.path, { ...request.query, from: undefined }])).toEqual(
				requests.map(() => ['GET', EXPAND, { field: 'cookies', uid, size: '20', from: undefined }]),
			);
			expect(requests[0].query.from).toBeUndefined();
			expect(requests.some((request) => request.results === 0)).toBe(true);
			expect(jsonOf(result.output)).toEqual(cookies.map((cookie) => ({ ...cookie, value: masked(cookie.value), event_uid: uid })));
			expect(JSON.stringify(jsonOf(result.output))).not.toContain(PLANTED_MARKER);
		});

		it('lists the credentials with passwords masked; Limit stops early; SHA-256 and Full on request', async () => {
			const uid = logWith('credentials', 5);
			const credentials = flare.fake.feed.expandAll(uid, 'credentials') as Array<{ password: string }>;

			const limited = await flare.harness.runNode({ parameters: expand({ uid, expandField: 'credentials', limit: 5 }) });
			const digests = await flare.harness.runNode({ parameters: expand({ uid, expandField: 'credentials', limit: 2, options: { leakedValueOutput: 'sha256' } }) });
			const full = await flare.harness.runNode({ parameters: expand({ uid, expandField: 'credentials', limit: 2, options: { leakedValueOutput: 'full' } }) });

			expect(apiRequests(flare.fake).map((request) => request.query.size)).toEqual(['5', '2', '2']);
			expect(jsonOf(limited.output)).toEqual(credentials.slice(0, 5).map((entry) => ({ ...entry, password: masked(entry.password), event_uid: uid })));
			expect(JSON.stringify(jsonOf(limited.output))).not.toContain(PLANTED_MARKER);
			expect(jsonOf(digests.output).map((item) => item.password)).toEqual(credentials.slice(0, 2).map((entry) => sha256(entry.password)));
			expect(jsonOf(full.output).map((item) => item.password)).toEqual(credentials.slice(0, 2).map((entry) => entry.password));
		});

		it('masks a credential\'s password wherever the entry repeats it, in its URL\'s userinfo and parameters too', async () => {
			const PASSWORD = 'Hunter2-Secret!';
			const entry = { url: `https://jdoe:${PASSWORD}@vpn.acme.com/login?next=/&q=${PASSWORD}`, username: 'jdoe', password: PASSWORD, application: 'Chrome' };
			flare.fake.faults.add({ path: EXPAND, fault: { status: 200, body: { items: [entry], next: null } } });

			const result = await flare.harness.runNode({ parameters: expand({ uid: 'stealer_log/x/1', expandField: 'credentials', limit: 5 }) });

			expect(jsonOf(result.output)).toEqual([
				{ ...entry, url: 'https://jdoe:********@vpn.acme.com/login?next=/&q=********', password: masked(PASSWORD), event_uid: 'stealer_log/x/1' },
			]);
		});

		it('names the List field when the event is not a stealer log, and the event when Flare does not know it', async () => {
			const paste = flare.fake.feed.feedAll(TENANT, { filters: { type: ['paste'] } })[0].metadata.uid;

			const notStealer = await flare.harness.runNode({ parameters: expand({ uid: paste, expandField: 'cookies' }) });
			const unknown = await flare.harness.runNode({ parameters: expand({ uid: 'stealer_log/nowhere/1', expandField: 'cookies' }) });

			expect(notStealer.error?.message).toBe("Flare rejected the value of 'List'");
			expect(unknown.error?.message).toBe("Event 'stealer_log/nowhere/1' was not found in Flare");
		});

		it('stops a walk whose cursors cycle, with nothing output for the item', async () => {
			const uid = logWith('cookies', 20);
			flare.fake.faults.add({ path: EXPAND, times: Infinity, fault: { cursorCycle: ['c1', 'c2'] } });

			const result = await flare.harness.runNode({
				parameters: expand({ uid, expandField: 'cookies', returnAll: true }),
				onError: 'continueRegularOutput',
			});

			expect(apiRequests(flare.fake).map((request) => request.query.from)).toEqual([undefined, 'c1', 'c2']);
			expect(jsonOf(result.output)).toEqual([{ error: 'Flare returned the same page cursor twice while trying to expand the stealer log' }]);
		});

		it('ends a walk that repeats the log\'s entries under new cursors with the no-progress error, nothing output for the item', async () => {
			const uid = logWith('cookies', 0);
			const cookies = flare.fake.feed.expandAll(uid, 'cookies');
			expect(cookies.length).toBeLessThanOrEqual(20);
			flare.fake.faults.add({ path: EXPAND, times: 200, fault: { freshDuplicatePages: true } });

			const result = await flare.harness.runNode({
				parameters: expand({ uid, expandField: 'cookies', returnAll: true }),
				onError: 'continueRegularOutput',
			});

			// The first page delivers the log's entries; the next 50 hold only those again.
			expect(apiRequests(flare.fake).map((request) => request.results)).toEqual(Array.from({ length: 51 }, () => cookies.length));
			expect(jsonOf(result.output)).toEqual([{ error: 'Flare returned 50 pages in a row without a new result while trying to expand the stealer log' }]);
		});

		it('rejects an unknown list before anything is sent', async () => {
			const result = await flare.harness.runNode({ parameters: expand({ uid: 'stealer_log/x/1', expandField: '={{ "files" }}' }) });

			expect(result.error?.message).toBe(`'List' has an unknown value: "files" [item 0]`);
			expect(flare.fake.requests).toEqual([]);
		});
	});
});
