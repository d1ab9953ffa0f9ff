/**
 * The reproductions of the event-surface review of 2026-11-25 (findings 5, 8, 10, 14 and 15), run as
 * the review ran them, with their assertions turned to what the node now promises (docs/api-contract.md,
 * "Paging", "Event feeds, full events and actions", "Updating an identifier", "Input bounds").
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness, withoutRatePacing } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock } from '../support/clock';
import { apiRequests, jsonOf } from './support';

const TENANT = 101;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const FEED = '/firework/v4/events/tenant/_search';
const ACTIONS = '/firework/v4/events/actions';
const iso = (ms: number) => new Date(ms).toISOString();
const uidsOf = (items: INodeExecutionData[] | null | undefined) =>
	(items ?? []).map((item) => ((item.json as IDataObject).metadata as IDataObject).uid as string);

describe('Event feeds and actions: empty pages walked, batched actions, updates, input checked, tenants (event-surface review of 2026-11-25)', () => {
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		// Walks of hundreds of pages: what they deliver is tested here, not the pace.
		await withoutRatePacing();
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	const reset = (options: IDataObject = {}) => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY), ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};

	describe('finding 5: pages that filters leave empty are walked through', () => {
		beforeEach(() => reset());

		it('Search Tenant Feed, no filter, Return All, 600 ignored events in a row: every event of the search', async () => {
			fake.addEvents(600, { ignored: true, materializedAt: iso(Date.now() - 2 * DAY) });
			fake.addEvents(3, { materializedAt: iso(Date.now() - DAY) });

			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', returnAll: true, options: { order: 'asc' } } });

			expect([result.status, result.error?.message]).toEqual(['success', undefined]);
			expect(uidsOf(result.output)).toEqual(fake.feed.feedAll(TENANT, { order: 'asc' }).map((item) => item.metadata.uid));
			expect(fake.requests.filter((request) => request.path === FEED).length).toBeGreaterThan(60);
		});

		describe('600 low events, then 2 critical ones', () => {
			beforeEach(() => {
				fake.addEvents(600, { severity: 'low', materializedAt: iso(Date.now() - 2 * DAY) });
				fake.addEvents(2, { severity: 'critical', materializedAt: iso(Date.now() - DAY) });
			});

			it('Search Tenant Feed, Severity At Least critical, Return All: every critical event', async () => {
				const result = await harness.runNode({
					parameters: { resource: 'event', operation: 'searchTenantFeed', severityFilter: 'minimum', minimumSeverity: 'critical', returnAll: true },
				});

				expect([result.status, result.error?.message]).toEqual(['success', undefined]);
				expect(uidsOf(result.output)).toEqual(fake.feed.feedAll(TENANT, { filters: { severity: 'critical' } }).map((item) => item.metadata.uid));
			});

			it('Flare Trigger, New Event, Severity At Least critical, Backfill 7 days: activation emits the critical events of the week, later polls go on', async () => {
				const since = Date.now() - 7 * DAY;
				const expected = fake.feed
					.feedAll(TENANT, { filters: { severity: 'critical', materialized_at: { gte: iso(since) } }, order: 'asc' })
					.map((item) => item.metadata.uid);
				const workflow = new TriggerWorkflow(harness, {
					parameters: { event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'critical', options: { backfill: 'last7Days' } },
				});

				const activation = await workflow.activate();
				const polls = [];
				for (let poll = 1; poll <= 2; poll++) {
					moveClock(MINUTE);
					polls.push(await workflow.poll());
				}
				const added = fake.addEvents(1, { severity: 'critical' }).map((item) => item.metadata.uid);
				moveClock(MINUTE);
				const next = await workflow.poll();

				expect([activation.error?.message, ...polls.map((poll) => poll.error?.message), next.error?.message]).toEqual([undefined, undefined, undefined, undefined]);
				expect(expected.length).toBeGreaterThanOrEqual(2);
				expect(uidsOf(activation.items)).toEqual(expected);
				expect(polls.map((poll) => uidsOf(poll.items))).toEqual([[], []]);
				expect(uidsOf(next.items)).toEqual(added);
				expect(workflow.saved).not.toEqual({});
			}, 120_000);
		});
	});

	describe('finding 8: batched actions', () => {
		beforeEach(() => reset({ eventsPerTenant: 80 }));
		const uids = () => fake.feed.feedAll(TENANT, {}).map((item) => item.metadata.uid);

		it('Take Action: the writes are applied in input order', async () => {
			const [uid] = uids();

			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: '={{ $json.action }}' } },
				{ items: [{ uid, action: 'remediate' }, { uid, action: 'unremediate' }, { uid, action: 'remediate' }] },
			);

			expect(apiRequests(fake).filter((request) => request.path === ACTIONS).map((request) => request.body)).toEqual(
				['remediate', 'unremediate', 'remediate'].map((type) => ({ action: { type }, targets: [{ uid }] })),
			);
			expect(jsonOf(result.output)).toEqual(['remediate', 'unremediate', 'remediate'].map((action) => ({ uid, action, done: true })));
			expect(fake.events.state(TENANT, uid)!.remediatedMs).not.toBeNull();
		});

		it('Take Action: the second request fails (404) after the first was applied; the error says which items were applied', async () => {
			const all = uids();
			const items = all.slice(0, 12).map((uid) => ({ uid }));
			items[11] = { uid: 'leak/leak_site/does-not-exist' };

			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}' } }, { items });

			expect([result.status, result.error?.message, result.error?.description]).toEqual([
				'error',
				"Event 'leak/leak_site/does-not-exist' was not found in Flare",
				'Check the ID, and that it belongs to the tenant selected in the credential. Flare says: "event leak/leak_site/does-not-exist not found". Flare refused the whole request of items 10–11: none of them was changed. Items 0–9 were applied in Flare before this; items 10–11 were not.',
			]);
			expect(all.slice(0, 12).filter((uid) => fake.events.state(TENANT, uid)?.remediatedMs !== null)).toEqual(all.slice(0, 10));
		});

		it('Take Action, continue on fail: each error item carries its own item index', async () => {
			const all = uids();
			const items = all.slice(0, 3).map((uid) => ({ uid }));
			items[2] = { uid: 'leak/leak_site/does-not-exist' };

			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}' }, onError: 'continueRegularOutput' },
				{ items },
			);

			expect(result.output.map((item) => [item.json.error, item.pairedItem, item.error?.context.itemIndex])).toEqual([
				[`Event '${all[0]}' was not changed: Flare refused its request because of item 2`, { item: 0 }, 0],
				[`Event '${all[1]}' was not changed: Flare refused its request because of item 2`, { item: 1 }, 1],
				["Event 'leak/leak_site/does-not-exist' was not found in Flare", { item: 2 }, 2],
			]);
		});
	});

	describe('finding 10: Identifier → Update', () => {
		beforeEach(() => reset());

		it('two updates of one identifier at once in one n8n process: one after the other, both changes kept (issue 40)', async () => {
			const [id] = fake.dataset.identifierIds();
			const locator = { __rl: true, mode: 'id', value: String(id) };
			const before = fake.dataset.identifier(id, TENANT);
			// Flare is slow to answer the first read (processed, then the answer waits 1.5 s).
			fake.faults.add({ path: `/firework/v4/identifiers/${id}`, method: 'GET', phase: 'after', fault: { delayMs: 1_500 } });

			const disable = harness.runNode({ parameters: { resource: 'identifier', operation: 'update', identifierId: locator, updateFields: { isDisabled: true } } });
			await sleep(300);
			const rename = await harness.runNode({ parameters: { resource: 'identifier', operation: 'update', identifierId: locator, updateFields: { name: 'Renamed by the SOC' } } });
			const disabled = await disable;

			expect([disabled.status, rename.status]).toEqual(['success', 'success']);
			expect(jsonOf(rename.output).map((item) => [item.name, item.is_disabled])).toEqual([['Renamed by the SOC', true]]);
			const after = fake.dataset.identifier(id, TENANT);
			expect([after.name, after.is_disabled, before.is_disabled]).toEqual(['Renamed by the SOC', true, false]);
			// The rename waited for the disabling: its reads come after the first PUT.
			expect(apiRequests(fake).map((request) => request.method)).toEqual(['GET', 'GET', 'PUT', 'GET', 'GET', 'PUT']);
		});
	});

	describe('finding 14: input is checked before anything is sent', () => {
		beforeEach(() => reset({ eventsPerTenant: 30 }));

		it.each([
			['Leaked Credential → Take Action, hash "a"', { resource: 'leakedCredential', operation: 'takeAction', credentialHash: 'a' }, "'Credential Hash' must be 32 hexadecimal digits, not 1 [item 0]"],
			['ASTP URLs, a hash of 64 digits', { resource: 'astpUrl', operation: 'getAll', credentialHash: 'ab'.repeat(32) }, "'Credential Hash' must be 32 hexadecimal digits, not 64 [item 0]"],
			[
				'Identifier → Create, a keyword of 100,000 characters',
				{ resource: 'identifier', operation: 'create', identifierType: 'keyword', keyword: '={{ "a".repeat(100000) }}', categories: ['leak'] },
				"'Keyword' is too long: 100000 characters, at most 10000 [item 0]",
			],
			[
				'Identifier → Create, a search query of 10,001 characters',
				{ resource: 'identifier', operation: 'create', identifierType: 'search_query', searchQuery: '={{ "a".repeat(10001) }}', categories: ['leak'] },
				"'Search Query' is too long: 10001 characters, at most 10000 [item 0]",
			],
			[
				'Identifier → Create, a name of 256 characters',
				{ resource: 'identifier', operation: 'create', identifierType: 'keyword', keyword: 'acme', categories: ['leak'], additionalFields: { name: '={{ "n".repeat(256) }}' } },
				"'Name' is too long: 256 characters, at most 255 [item 0]",
			],
			[
				'Identifier → Create, an Azure tenant ID that is not a GUID',
				{ resource: 'identifier', operation: 'create', identifierType: 'azure_tenant', azureTenantId: 'contoso.onmicrosoft.com', categories: ['leak'] },
				`'Azure Tenant ID' is not a GUID: "contoso.onmicrosoft.com" [item 0]`,
			],
			[
				'Event → Search Tenant Feed, an Azure tenant ID that is not a GUID',
				{ resource: 'event', operation: 'searchTenantFeed', searchBy: 'azure_tenant', azureTenantId: '72f988bf', limit: 5 },
				`'Azure Tenant ID' is not a GUID: "72f988bf" [item 0]`,
			],
		])('%s: refused, nothing sent', async (_case, parameters, message) => {
			const result = await harness.runNode({ parameters });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
			expect(fake.requests).toEqual([]);
		});

		it('a GUID in capitals is sent in lowercase', async () => {
			const result = await harness.runNode({
				parameters: { resource: 'identifier', operation: 'create', identifierType: 'azure_tenant', azureTenantId: '72F988BF-86F1-41AF-91AB-2D7CD011DB47', categories: ['leak'] },
			});

			expect(result.status).toBe('success');
			expect((apiRequests(fake)[0].body as IDataObject).data).toEqual({ type: 'azure_tenant', tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47' });
		});
	});

	describe('finding 15: Tenant → Get Many', () => {
		beforeEach(() => reset());

		it('an answer of another shape fails, saying so, instead of reading as "no tenants"', async () => {
			fake.faults.add({ path: '/firework/v2/me/tenants', fault: { status: 200, body: { items: [{ id: 101, name: 'Acme Corporation' }] } } });

			const result = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll' } });

			expect([result.status, result.error?.message, result.error?.description]).toEqual([
				'error',
				"Flare's answer could not be used while trying to list tenants",
				"Flare answered with an object without 'tenants', not a list of tenants. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.",
			]);
		});
	});
});
