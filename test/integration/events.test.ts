/**
 * Event → Search Tenant Feed, Search Identifier Feed, Get Full Event and Take Action, and the event
 * types dropdown (methods/loadOptions.ts), through the real engine against the fake Flare API: the
 * exact requests, the exact items (the fake's feed is the oracle), paging, bad input, pairing, errors.
 */
import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';

import { EventActionsBody, FeedItem, FeedRequestBody, FullEvent, type FeedRequestBodyInput } from '../contract';
import type { LoggedRequest } from '../fake-flare';
import { filterSourceTypes } from '../fake-flare/feed';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const TENANT = 101;
const TENANT_FEED = '/firework/v4/events/tenant/_search';
const identifierFeed = (id: number | string) => `/firework/v4/events/identifiers/${id}/_search`;
const ACTIONS = '/firework/v4/events/actions';

const tenantFeed = (extra: IDataObject = {}) => ({ resource: 'event', operation: 'searchTenantFeed', ...extra });
const takeAction = (extra: IDataObject = {}) => ({ resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', ...extra });

/** The request bodies, without the cursor. */
const bodiesOf = (requests: LoggedRequest[]) =>
	requests.map((request) => {
		const body = { ...(request.body as IDataObject) };
		delete body.from;
		return body;
	});

describe('Events: the feeds, the full event, actions', () => {
	const flare = useFakeFlare({ credentials: 100, eventsPerTenant: 30 });
	/** The feed items Flare sends, as the node outputs them by default: planted values masked. */
	const oracle = (body: FeedRequestBodyInput, identifierId?: number) =>
		maskedView(flare.fake.feed.feedAll(TENANT, body, identifierId), flare.fake.plantedValues());

	/** The pages of one walk: the same body but for `from`, absent on the first page, new on every other. */
	function expectOneWalk(requests: LoggedRequest[], path: string, body: IDataObject) {
		expect(requests.map((request) => [request.method, request.path, request.status])).toEqual(requests.map(() => ['POST', path, 200]));
		expect(bodiesOf(requests)).toEqual(requests.map(() => body));
		const cursors = requests.map((request) => (request.body as IDataObject).from);
		expect(cursors[0]).toBeUndefined();
		expect(cursors.slice(1).every((cursor) => typeof cursor === 'string')).toBe(true);
		expect(new Set(cursors.slice(1)).size).toBe(requests.length - 1);
		for (const request of requests) FeedRequestBody.parse(request.body);
	}

	describe('Search Tenant Feed', () => {
		it('Return All walks every page, empty and short ones included, and outputs the feed items as Flare sends them', async () => {
			const result = await flare.harness.runNode({ parameters: tenantFeed({ returnAll: true }) });

			expect(result.status).toBe('success');
			const expected = oracle({});
			expect(expected.length).toBeGreaterThan(20);
			expect(jsonOf(result.output)).toEqual(expected);
			for (const item of result.output) FeedItem.parse(item.json);
			expect(result.output.every((item) => (item.pairedItem as { item?: number }).item === 0)).toBe(true);
			const requests = apiRequests(flare.fake);
			expect(requests.length).toBeGreaterThanOrEqual(3);
			expectOneWalk(requests, TENANT_FEED, { order: 'desc', size: 10 });
		});

		it('Limit takes the fewest pages, filled evenly, and stops there', async () => {
			const result = await flare.harness.runNode({ parameters: tenantFeed({ limit: 15 }) });

			expect(jsonOf(result.output)).toEqual(oracle({}).slice(0, 15));
			const requests = apiRequests(flare.fake);
			expectOneWalk(requests, TENANT_FEED, { order: 'desc', size: 8 });
		});

		it('sends every filter as Flare documents it and outputs what the feed holds for them', async () => {
			const parameters = tenantFeed({
				returnAll: true,
				severityFilter: 'minimum',
				minimumSeverity: 'medium',
				filters: {
					types: ['leaks', 'paste', 'leaks'],
					createdFrom: '2023-06-01T00:00:00Z',
					createdTo: '2024-12-31T00:00:00Z',
					materializedFrom: '2024-01-01T00:00:00+02:00',
					materializedTo: '2024-12-31T00:00:00Z',
					tags: ' important, vip ,,important',
				},
				options: { order: 'asc' },
			});
			const body = {
				filters: {
					severity: 'medium',
					type: ['leaks', 'paste'],
					estimated_created_at: { gte: '2023-06-01T00:00:00.000Z', lte: '2024-12-31T00:00:00.000Z' },
					materialized_at: { gte: '2023-12-31T22:00:00.000Z', lte: '2024-12-31T00:00:00.000Z' },
					tags: ['important', 'vip'],
				},
				order: 'asc',
			};

			const result = await flare.harness.runNode({ parameters });

			expectOneWalk(apiRequests(flare.fake), TENANT_FEED, { ...body, size: 10 });
			const expected = oracle(body as FeedRequestBodyInput);
			expect(expected.length).toBeGreaterThan(0);
			expect(jsonOf(result.output)).toEqual(expected);
		});

		it('sends an exact list of severities in Flare\'s order, each once', async () => {
			const result = await flare.harness.runNode({
				parameters: tenantFeed({ returnAll: true, severityFilter: 'list', severities: ['critical', 'info', 'critical'] }),
			});

			const body = { filters: { severity: ['info', 'critical'] }, order: 'desc' };
			expectOneWalk(apiRequests(flare.fake), TENANT_FEED, { ...body, size: 10 });
			const expected = oracle(body as FeedRequestBodyInput);
			expect(new Set(expected.map((item) => item.metadata.severity))).toEqual(new Set(['info', 'critical']));
			expect(jsonOf(result.output)).toEqual(expected);
		});

		it('asks for ignored or remediated events only when told', async () => {
			const ignored = await flare.harness.runNode({ parameters: tenantFeed({ returnAll: true, filters: { ignored: true } }) });
			const ignoredBodies = bodiesOf(apiRequests(flare.fake));
			flare.fake.clearLog();
			const remediated = await flare.harness.runNode({ parameters: tenantFeed({ returnAll: true, filters: { remediated: true, ignored: false } }) });

			expect(ignoredBodies[0]).toEqual({ filters: { is_ignored: true }, order: 'desc', size: 10 });
			expect(bodiesOf(apiRequests(flare.fake))[0]).toEqual({ filters: { is_remediated: true }, order: 'desc', size: 10 });
			const expectedIgnored = oracle({ filters: { is_ignored: true } });
			expect(expectedIgnored.length).toBeGreaterThan(0);
			expect(jsonOf(ignored.output)).toEqual(expectedIgnored);
			expect(jsonOf(remediated.output)).toEqual(oracle({ filters: { is_remediated: true } }));
		});

		it.each([
			[{ searchBy: 'query_string', queryString: '  acme  ' }, { type: 'query_string', query_string: 'acme' }],
			[{ searchBy: 'keyword', keyword: 'acme' }, { type: 'keyword', keyword: 'acme' }],
			[{ searchBy: 'domain', fqdn: 'Example.COM.' }, { type: 'domain', fqdn: 'example.com' }],
			[{ searchBy: 'email', email: 'it.admin@example.com' }, { type: 'email', email: 'it.admin@example.com' }],
			[{ searchBy: 'username', username: 'jdoe' }, { type: 'username', username: 'jdoe' }],
			[{ searchBy: 'credentials', username: 'jdoe', password: ' p@ss ' }, { type: 'credentials', username: 'jdoe', password: ' p@ss ' }],
			[{ searchBy: 'secret', secret: ' Summer2024! ' }, { type: 'secret', secret: ' Summer2024! ' }],
			[{ searchBy: 'ip', ip: '203.0.113.4' }, { type: 'ip', ip: '203.0.113.4' }],
			[{ searchBy: 'ip', ip: '2001:db8::1' }, { type: 'ip', ip: '2001:db8::1' }],
			[{ searchBy: 'bin', bin: '468908' }, { type: 'bin', bin: '468908' }],
			[{ searchBy: 'brand', brand: 'Acme' }, { type: 'brand', name: 'Acme' }],
			[{ searchBy: 'name', firstName: 'Lucia', lastName: 'Moore', exactName: true }, { type: 'name', first_name: 'Lucia', last_name: 'Moore', is_strict: true }],
			[{ searchBy: 'name', firstName: 'Lucia', lastName: 'Moore' }, { type: 'name', first_name: 'Lucia', last_name: 'Moore', is_strict: false }],
			[{ searchBy: 'github_repository', repoOwner: 'acme-corp', repoName: 'billing' }, { type: 'github_repository', repo_owner: 'acme-corp', repo_name: 'billing' }],
			[{ searchBy: 'azure_tenant', azureTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' }, { type: 'azure_tenant', tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47' }],
		])('Search By %j sends the query %j', async (parameters, query) => {
			const result = await flare.harness.runNode({ parameters: tenantFeed({ returnAll: true, ...parameters }) });

			expect(result.status).toBe('success');
			expectOneWalk(apiRequests(flare.fake), TENANT_FEED, { query, order: 'desc', size: 10 });
			expect(jsonOf(result.output)).toEqual(oracle({ query } as FeedRequestBodyInput));
		});

		it('finds events by what the identifiers watch, with highlights', async () => {
			const result = await flare.harness.runNode({ parameters: tenantFeed({ returnAll: true, searchBy: 'domain', fqdn: 'example.com' }) });

			const expected = oracle({ query: { type: 'domain', fqdn: 'example.com' } });
			expect(expected.length).toBeGreaterThan(0);
			expect(jsonOf(result.output)).toEqual(expected);
			expect(result.output[0].json.highlights).toEqual({ content: [expect.stringContaining('<mark>example.com</mark>')] });
		});

		it.each([
			[{ searchBy: 'domain', fqdn: 'https://example.com/' }, `'Domain' is not a domain name: "https://example.com/" [item 0]`],
			[{ searchBy: 'email', email: 'jane.example.com' }, `'Email' is not an e-mail address: "jane.example.com" [item 0]`],
			[{ searchBy: 'ip', ip: '203.0.113.400' }, `'IP Address' is not an IP address: "203.0.113.400" [item 0]`],
			[{ searchBy: 'bin', bin: '4689' }, `'Card BIN' is not a card BIN: "4689" [item 0]`],
			[{ searchBy: 'credentials', username: 'jdoe', password: '={{ "" }}' }, `'Password' is required [item 0]`],
			[{ searchBy: 'keyword', keyword: '={{ "  " }}' }, `'Keyword' is required [item 0]`],
			[{ searchBy: 'query_string', queryString: '={{ "a".repeat(10001) }}' }, `'Query String' is too long: 10001 characters, at most 10000 [item 0]`],
			[{ searchBy: 'phone' }, `'Search By' has an unknown value: "phone" [item 0]`],
			[{ severityFilter: 'list', severities: '={{ [] }}' }, `'Severities' needs at least one severity [item 0]`],
			[{ severityFilter: 'list', severities: '={{ ["high", "urgent"] }}' }, `'Severities' has an unknown value: "urgent" [item 0]`],
			[{ severityFilter: 'minimum', minimumSeverity: '={{ "severe" }}' }, `'Minimum Severity' has an unknown value: "severe" [item 0]`],
			[{ filters: { types: ['leak', 'phishing'] } }, `'Event Type Names or IDs' has an unknown event type: "phishing" [item 0]`],
			[{ filters: { tags: '={{ ["vip", {}] }}' } }, `'Tags' has an entry that is not text: {} [item 0]`],
			[{ filters: { createdFrom: '2025-02-01T00:00:00Z', createdTo: '2025-01-01T00:00:00Z' } }, `'Created From' is after Created To [item 0]`],
			[{ filters: { materializedTo: 'yesterday-ish' } }, `'Materialized To' is not a date and time: "yesterday-ish" [item 0]`],
			[{ options: { order: '={{ "newest" }}' } }, `'Order' has an unknown value: "newest" [item 0]`],
			[{ limit: 0 }, `'Limit' must be a whole number of at least 1 [item 0]`],
		])('rejects %j before anything is sent: %s', async (parameters, message) => {
			const result = await flare.harness.runNode({ parameters: tenantFeed(parameters) });

			expect(result.status).toBe('error');
			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
			expect(flare.fake.requests).toEqual([]);
		});

		it('accepts event types and tags as text or arrays from expressions', async () => {
			await flare.harness.runNode(
				{ parameters: tenantFeed({ limit: 1, filters: { types: '={{ $json.types }}', tags: '={{ $json.tags }}' } }) },
				{ items: [{ types: 'leak, paste', tags: ['vip', ' triage '] }] },
			);

			expect(bodiesOf(apiRequests(flare.fake))[0]).toEqual({ filters: { type: ['leak', 'paste'], tags: ['vip', 'triage'] }, order: 'desc', size: 1 });
		});

		it('continues on fail: the bad item gets its error, the others their events, each paired with its input', async () => {
			const result = await flare.harness.runNode(
				{ parameters: tenantFeed({ limit: 2, searchBy: 'domain', fqdn: '={{ $json.domain }}' }), onError: 'continueRegularOutput' },
				{ items: [{ domain: 'not a domain' }, { domain: 'example.com' }] },
			);

			const expected = oracle({ query: { type: 'domain', fqdn: 'example.com' } }).slice(0, 2);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ error: `'Domain' is not a domain name: "not a domain" [item 0]` }, { item: 0 }],
				...expected.map((event) => [event, { item: 1 }]),
			]);
			expect(expected).toHaveLength(2);
			expect(apiRequests(flare.fake).map((request) => (request.body as IDataObject).query)).toEqual(
				apiRequests(flare.fake).map(() => ({ type: 'domain', fqdn: 'example.com' })),
			);
		});

		it('422 names the parameter Flare rejected', async () => {
			flare.fake.faults.add({
				path: TENANT_FEED,
				fault: { status: 422, body: { detail: [{ loc: ['body', 'filters', 'tags', 0], msg: 'tag is unknown', type: 'value_error' }] } },
			});

			const result = await flare.harness.runNode({ parameters: tenantFeed({ filters: { tags: 'vip' } }) });

			expect(result.error?.message).toBe("Flare rejected the value of 'Tags'");
			expect(result.error?.description).toBe("tag is unknown. Correct 'Tags' and try again.");
			expect(apiRequests(flare.fake)).toHaveLength(1);
		});

		it('403 says which operation the account may not use', async () => {
			flare.fake.faults.add({ path: TENANT_FEED, fault: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no access to the feed' } } } });

			const result = await flare.harness.runNode({ parameters: tenantFeed() });

			expect(result.error?.message).toBe('Your Flare account has no access to this feature, needed to search the tenant event feed');
			expect(result.error?.description).toMatch(/Flare says: "no access to the feed"\.$/);
		});
	});

	describe('Search Identifier Feed', () => {
		it('searches the feed of the identifier picked, with the same body as the tenant feed', async () => {
			const identifierId = flare.fake.dataset.identifierIds()[0];

			const result = await flare.harness.runNode({
				parameters: {
					resource: 'event',
					operation: 'searchIdentifierFeed',
					identifierId: { __rl: true, mode: 'list', value: String(identifierId), cachedResultName: 'example.com' },
					returnAll: true,
					severityFilter: 'minimum',
					minimumSeverity: 'low',
				},
			});

			const body = { filters: { severity: 'low' }, order: 'desc' };
			expectOneWalk(apiRequests(flare.fake), identifierFeed(identifierId), { ...body, size: 10 });
			const expected = oracle(body as FeedRequestBodyInput, identifierId);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(oracle(body as FeedRequestBodyInput).length);
			expect(jsonOf(result.output)).toEqual(expected);
			expect(result.output.every((item) => (item.json.identifiers as IDataObject[]).some((entry) => entry.id === identifierId))).toBe(true);
		});

		it('says which identifier Flare does not know', async () => {
			const result = await flare.harness.runNode({
				parameters: { resource: 'event', operation: 'searchIdentifierFeed', identifierId: { __rl: true, mode: 'id', value: ' 7999 ' } },
			});

			expect(apiRequests(flare.fake).map((request) => [request.path, request.status])).toEqual([[identifierFeed(7999), 404]]);
			expect(result.error?.message).toBe('Identifier 7999 was not found in Flare');
		});

		it('rejects an identifier that is not a number before anything is sent', async () => {
			const result = await flare.harness.runNode({
				parameters: { resource: 'event', operation: 'searchIdentifierFeed', identifierId: '={{ "../tenant" }}' },
			});

			expect(result.error?.message).toBe(`'Identifier' must be a positive whole number, not "../tenant" [item 0]`);
			expect(flare.fake.requests).toEqual([]);
		});
	});

	describe('Get Full Event', () => {
		it('gets each input item\'s event by its UID (slashes, spaces and ? included) and outputs the activity', async () => {
			const uids = oracle({})
				.map((item) => item.metadata.uid)
				.filter((uid) => /[ ?#&%+]/.test(uid))
				.slice(0, 2);
			expect(uids).toHaveLength(2);

			const result = await flare.harness.runNode(
				{ parameters: { resource: 'event', operation: 'getFullEvent', uid: '={{ $json.metadata.uid }}' } },
				{ items: uids.map((uid) => ({ metadata: { uid } })) },
			);

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.query])).toEqual(
				uids.map((uid) => ['GET', '/firework/v2/activities/', { uid }]),
			);
			const expected = uids.map((uid) => flare.fake.events.fullEvent(uid, TENANT)!);
			for (const event of expected) FullEvent.parse(event);
			const planted = flare.fake.plantedValues();
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual(expected.map((event, index) => [maskedView(event.activity, planted), { item: index }]));
		});

		it('outputs the answer itself when Flare does not wrap it in activity', async () => {
			const flat = { data: { uid: 'domain/lookalike/1' }, header: { uid: 'domain/lookalike/1', type: 'domain' } };
			flare.fake.faults.add({ path: '/firework/v2/activities/', fault: { status: 200, body: flat } });

			const result = await flare.harness.runNode({ parameters: { resource: 'event', operation: 'getFullEvent', uid: 'domain/lookalike/1' } });

			expect(jsonOf(result.output)).toEqual([flat]);
		});

		it('says which event Flare does not know', async () => {
			const result = await flare.harness.runNode({ parameters: { resource: 'event', operation: 'getFullEvent', uid: 'leak/nowhere/1' } });

			expect(result.error?.message).toBe("Event 'leak/nowhere/1' was not found in Flare");
			expect(result.error?.description).toBe(
				'Check the ID, and that it belongs to the tenant selected in the credential. Flare says: "Activity not found".',
			);
		});
	});

	describe('Take Action', () => {
		const feedUids = () => oracle({}).map((item) => item.metadata.uid);
		const actionRequests = () => apiRequests(flare.fake).filter((request) => request.path === ACTIONS);

		it('batches the input items 10 to a request, in input order, and pairs each output with its input', async () => {
			const uids = feedUids().slice(0, 12);

			const result = await flare.harness.runNode({ parameters: takeAction() }, { items: uids.map((uid) => ({ uid })) });

			expect(result.status).toBe('success');
			expect(actionRequests().map((request) => request.body)).toEqual([
				{ action: { type: 'remediate' }, targets: uids.slice(0, 10).map((uid) => ({ uid })) },
				{ action: { type: 'remediate' }, targets: uids.slice(10).map((uid) => ({ uid })) },
			]);
			for (const request of actionRequests()) EventActionsBody.parse(request.body);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual(
				uids.map((uid, index) => [{ uid, action: 'remediate', done: true }, { item: index }]),
			);
			expect(uids.every((uid) => flare.fake.events.state(TENANT, uid)?.remediatedMs !== null)).toBe(true);
			expect(flare.fake.state.writes).toHaveLength(2);
			expect(oracle({}).map((item) => item.metadata.uid)).not.toContain(uids[0]);
		});

		it('starts a new request when the action changes, so that Flare applies the writes in input order', async () => {
			const uids = feedUids().slice(0, 4);
			flare.fake.events.act(TENANT, [uids[1]], 'ignore', Date.now());
			const items = [
				{ uid: uids[0], action: 'ignore' },
				{ uid: uids[1], action: 'unignore' },
				{ uid: uids[2], action: 'ignore' },
				{ uid: uids[3], action: 'remediate' },
			];

			const result = await flare.harness.runNode({ parameters: takeAction({ actionType: '={{ $json.action }}' }) }, { items });

			expect(actionRequests().map((request) => request.body)).toEqual([
				{ action: { type: 'ignore' }, targets: [{ uid: uids[0] }] },
				{ action: { type: 'unignore' }, targets: [{ uid: uids[1] }] },
				{ action: { type: 'ignore' }, targets: [{ uid: uids[2] }] },
				{ action: { type: 'remediate' }, targets: [{ uid: uids[3] }] },
			]);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual(
				items.map((entry, index) => [{ uid: entry.uid, action: entry.action, done: true }, { item: index }]),
			);
			expect(uids.map((uid) => flare.fake.events.state(TENANT, uid)!.ignoredMs !== null)).toEqual([true, false, true, false]);
		});

		it('rejects a bad item before anything is sent', async () => {
			const uids = feedUids().slice(0, 3);

			const result = await flare.harness.runNode({ parameters: takeAction() }, { items: [{ uid: uids[0] }, { uid: '  ' }, { uid: uids[2] }] });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', `'Event UID' is required [item 1]`]);
			expect(flare.fake.requests).toEqual([]);
		});

		it('rejects an unknown action before anything is sent', async () => {
			const result = await flare.harness.runNode({ parameters: takeAction({ actionType: '={{ "delete" }}' }) }, { items: [{ uid: feedUids()[0] }] });

			expect(result.error?.message).toBe(`'Action' has an unknown value: "delete" [item 0]`);
			expect(flare.fake.requests).toEqual([]);
		});

		it('continues on fail: a batch Flare refuses fails each of its items, the other batches go through', async () => {
			const uids = feedUids().slice(0, 12);
			const items = uids.map((uid) => ({ uid }));
			items[3] = { uid: 'leak/nowhere/1' };
			items[11] = { uid: '' };

			const result = await flare.harness.runNode({ parameters: takeAction(), onError: 'continueRegularOutput' }, { items });

			expect(actionRequests().map((request) => [(request.body as EventActionsBody).targets.length, request.status])).toEqual([
				[10, 404],
				[1, 200],
			]);
			const flareSays = 'Flare says: "event leak/nowhere/1 not found".';
			const wholeRequest = 'Flare refused the whole request of items 0–9: none of them was changed.';
			expect(result.output.map((item) => [item.json, item.pairedItem, item.error?.context.itemIndex, item.error?.description])).toEqual([
				...items.slice(0, 10).map((item, index) =>
					index === 3
						? [{ error: "Event 'leak/nowhere/1' was not found in Flare" }, { item: 3 }, 3, `Check the ID, and that it belongs to the tenant selected in the credential. ${flareSays} ${wholeRequest}`]
						: [{ error: `Event '${item.uid}' was not changed: Flare refused its request because of item 3` }, { item: index }, index, `Correct or remove item 3, then run the others again. ${flareSays} ${wholeRequest}`],
				),
				[{ uid: uids[10], action: 'remediate', done: true }, { item: 10 }, undefined, undefined],
				[{ error: `'Event UID' is required [item 11]` }, { item: 11 }, 11, "Enter a value for 'Event UID'."],
			]);
			// Flare changed nothing for the refused request (the default feed holds no remediated event).
			const refusedUids = uids.slice(0, 10).filter((_uid, index) => index !== 3);
			expect(refusedUids.map((uid) => flare.fake.events.state(TENANT, uid)!.remediatedMs)).toEqual(refusedUids.map(() => null));
			expect(flare.fake.events.state(TENANT, uids[10])!.remediatedMs).not.toBeNull();
			expect(flare.fake.state.writes).toHaveLength(1);
		});

		it('never sends a write twice once Flare may have applied it', async () => {
			const uids = feedUids().slice(0, 11);
			flare.fake.faults.add({ path: ACTIONS, phase: 'after', fault: { status: 502, rawBody: 'bad gateway' } });

			const result = await flare.harness.runNode({ parameters: takeAction(), onError: 'continueRegularOutput' }, { items: uids.map((uid) => ({ uid })) });

			expect(actionRequests().map((request) => [(request.body as EventActionsBody).targets.length, request.status])).toEqual([
				[10, 502],
				[1, 200],
			]);
			expect(result.output.slice(0, 10).map((item) => item.json)).toEqual(
				uids.slice(0, 10).map(() => ({ error: 'Flare did not confirm the request to take an action on events' })),
			);
			expect(result.output.slice(0, 10).map((item) => [item.error?.context.itemIndex, item.error?.description])).toEqual(
				uids.slice(0, 10).map((_uid, index) => [
					index,
					'Flare answered HTTP 502. The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again. The same request carried items 0–9: Flare may have applied any of them.',
				]),
			);
			expect(jsonOf(result.output.slice(10))).toEqual([{ uid: uids[10], action: 'remediate', done: true }]);
			// Flare applied the first request before answering 502: the events are remediated, once.
			expect(uids.every((uid) => flare.fake.events.state(TENANT, uid)!.remediatedMs !== null)).toBe(true);
			expect(flare.fake.state.writes).toHaveLength(2);
		});
	});

	describe('Event types dropdown (loadOptions)', () => {
		/** Calls a loadOptions method as n8n's DynamicNodeParametersService does (Harness.listOptions). */
		async function loadOptions(method: string, parameters: INodeParameters = tenantFeed() as INodeParameters): Promise<INodePropertyOptions[]> {
			return (await flare.harness.listOptions({ kind: 'loadOptions', method, parameters, path: 'parameters.filters.types' })) as INodePropertyOptions[];
		}

		it('lists every category and type Flare returns, by name, from one request', async () => {
			const options = await loadOptions('getEventTypes');

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.status])).toEqual([
				['GET', '/firework/v4/events/filters/types', 200],
			]);
			const expected = filterSourceTypes().categories.flatMap((category) => [
				{
					name: `${category.label} (Category)`,
					value: category.value,
					description: `Every type of the category: ${category.types!.map((type) => type.label).join(', ')}`,
				},
				...category.types!.map((type) => ({ name: type.label, value: type.value, description: `In ${category.label}` })),
			]);
			expect(options).toEqual([...expected].sort((a, b) => a.name.localeCompare(b.name)));
			expect(options.map((option) => option.name)).toContain('Leaks (Category)');
		});

		it('leaves out values the node would refuse, and tolerates odd entries', async () => {
			flare.fake.faults.add({
				path: '/firework/v4/events/filters/types',
				fault: {
					status: 200,
					body: {
						categories: [
							{ value: 'leaks', label: 'Leaks', types: [{ value: 'leak', label: 'Leak' }, { value: 'brand_new_type', label: 'Brand New' }, null] },
							{ value: 'paste', label: 'Pastes' },
							{ label: 'No value' },
						],
					},
				},
			});

			const options = await loadOptions('getEventTypes');

			expect(options).toEqual([
				{ name: 'Leak', value: 'leak', description: 'In Leaks' },
				{ name: 'Leaks (Category)', value: 'leaks', description: 'Every type of the category: Leak, Brand New' },
				{ name: 'Pastes (Category)', value: 'paste', description: 'Every type of the category: ' },
			]);
		});

		it('explains a failure in words', async () => {
			flare.fake.faults.add({ path: '/firework/v4/events/filters/types', fault: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'nope' } } } });

			await expect(loadOptions('getEventTypes')).rejects.toThrow('Your Flare account has no access to this feature, needed to list the event types');
		});
	});
});
