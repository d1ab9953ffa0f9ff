/**
 * One credential, every tenant (docs/usage.md, "One credential, every tenant"): the Tenant field of
 * every operation and of the Flare Trigger, through the real engine against a fake Flare API with
 * three tenants. Each tenant's requests carry a token of that tenant only (the fake's log says whose
 * token each request carried), exchanged once per tenant and renewed after a 401; the credential's
 * stored token stays its own; items say which tenant they came from; and Tenant → Get Many in
 * Organization lists them all, for an organization administrator's key.
 */
import type { IDataObject, INodeExecutionData, INodeListSearchResult } from 'n8n-workflow';

import type { FakeFlare, LoggedRequest } from '../fake-flare';
import type { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { path } from '../support/node';
import { useVirtualTime } from '../support/clock';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const TENANTS = [101, 202, 303];
const TENANT_FEED = '/firework/v4/events/tenant/_search';
const ACTIONS = '/firework/v4/events/actions';
const ORGANIZATION = 4242;
const DAY = 24 * 60 * 60_000;

/** A Tenant field holding `value` ("By ID"; an expression is resolved per item). */
const tenantId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
const exchanges = (fake: FakeFlare) => fake.requests.filter((request) => request.path === '/tokens/generate');
/** The tenant of the token each request carried, by its path. */
const tenantsOf = (requests: LoggedRequest[]) => requests.map((request) => [request.path, request.tenant]);
const iso = (ms: number) => new Date(ms).toISOString();
/** Each request's tenant once, in order (a walk of several pages is one tenant's). */
const tenantRuns = (requests: LoggedRequest[]) =>
	requests.map((request) => request.tenant).filter((tenant, k, all) => k === 0 || tenant !== all[k - 1]);

/** Forgets the tenant tokens the node holds in this process (dist/, as the harness loads it): a restart. */
async function restartProcess(): Promise<void> {
	const token = (await import(path.resolve('dist/nodes/Flare/shared/token.js'))) as { forgetTenantTokens(): void };
	token.forgetTenantTokens();
}

describe('One credential, every tenant', () => {
	const clock = useVirtualTime();
	const OPTIONS = { credentials: 100, eventsPerTenant: 30, tenants: TENANTS, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } };
	const flare = useFakeFlare(OPTIONS);
	let fake: FakeFlare;
	let harness: Harness;
	// The fake forgets its tokens at each reset: so does the node, as after a restart.
	beforeEach(async () => {
		({ fake, harness } = flare);
		await restartProcess();
	});
	const storedToken = () => harness.credentials.get('cred-1').data.accessToken;
	/** The tenant feed as the node outputs it by default (planted values masked). */
	const feedOf = (tenant: number) => maskedView(fake.feed.feedAll(tenant, {}), fake.plantedValues());

	describe('the Flare node', () => {
		it('serves three tenants in one run, each with its own token, exchanged once, and says where each item came from', async () => {
			const items = TENANTS.map((tenant) => ({ tenant }));
			const parameters = { resource: 'event', operation: 'searchTenantFeed', limit: 3, tenant: tenantId('={{ $json.tenant }}') };

			const result = await harness.runNode({ parameters }, { items });

			expect(result.status).toBe('success');
			expect(jsonOf(result.output)).toEqual(
				TENANTS.flatMap((tenant) => feedOf(tenant).slice(0, 3).map((event) => ({ ...event, tenantId: tenant }))),
			);
			expect(result.output.map((item) => item.pairedItem)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2].map((item) => ({ item })));
			// One exchange per tenant, each naming its tenant; each search with that tenant's token.
			expect(exchanges(fake).map((request) => [request.body, request.status])).toEqual(
				TENANTS.map((tenant) => [{ tenant_id: tenant }, 200]),
			);
			expect(apiRequests(fake).every((request) => request.path === TENANT_FEED && request.tokenValid)).toBe(true);
			expect(tenantRuns(apiRequests(fake))).toEqual(TENANTS);
			// The credential's own token was never needed, so never exchanged nor stored.
			expect(storedToken()).toBe('');

			fake.clearLog();
			const again = await harness.runNode({ parameters }, { items });

			expect(jsonOf(again.output)).toEqual(jsonOf(result.output));
			expect(exchanges(fake)).toEqual([]);
			expect(tenantRuns(apiRequests(fake))).toEqual(TENANTS);
			// The fake issued three tokens, one per tenant; none of them went anywhere but its tenant's requests.
			expect(fake.issuedTokens().map((token) => token.tenantId)).toEqual(TENANTS);
		});

		it("works in the credential's tenant when Tenant is empty (items as Flare sends them), and with its stored token when Tenant names it", async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 202 });

			const empty = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', limit: 2 } });
			const same = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', limit: 2, tenant: tenantId(' 202 ') } });

			expect(jsonOf(empty.output)).toEqual(feedOf(202).slice(0, 2));
			expect(jsonOf(same.output)).toEqual(feedOf(202).slice(0, 2).map((event) => ({ ...event, tenantId: 202 })));
			expect(exchanges(fake).map((request) => request.body)).toEqual([{ tenant_id: 202 }]);
			expect(fake.issuedTokens()).toEqual([{ token: storedToken(), tenantId: 202 }]);
			expect(tenantsOf(apiRequests(fake))).toEqual([
				[TENANT_FEED, 202],
				[TENANT_FEED, 202],
			]);
		});

		it("renews a tenant's token once after Flare refuses it (401), and leaves the credential's own token alone", async () => {
			await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll' } });
			const own = storedToken();
			const parameters = { resource: 'event', operation: 'searchTenantFeed', limit: 2, tenant: tenantId(303) };
			await harness.runNode({ parameters });
			fake.expireAllTokens();
			fake.clearLog();

			const result = await harness.runNode({ parameters });

			expect(jsonOf(result.output)).toEqual(feedOf(303).slice(0, 2).map((event) => ({ ...event, tenantId: 303 })));
			const log = fake.requests.map((request) => [request.path, request.status, request.tenant ?? request.body]);
			expect(log.slice(0, 3)).toEqual([
				[TENANT_FEED, 401, 303],
				['/tokens/generate', 200, { tenant_id: 303 }],
				[TENANT_FEED, 200, 303],
			]);
			// The rest of the walk, with the new token.
			expect(log.slice(3)).toEqual(log.slice(3).map(() => [TENANT_FEED, 200, 303]));
			expect(storedToken()).toBe(own);
			expect(harness.credentials.get('cred-1').data.tenantId).toBeUndefined();
		});

		it('refuses a Tenant that is no tenant ID before any request, naming the field and the item', async () => {
			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'searchTenantFeed', tenant: tenantId('={{ $json.tenant }}') }, onError: 'continueErrorOutput' },
				{ items: [{ tenant: 'acme' }, { tenant: 0 }, { tenant: 1.5 }, { tenant: { id: 1 } }] },
			);

			expect(result.errorOutput.map((item) => item.json.error)).toEqual([
				`'Tenant' must be empty or the ID of a tenant (a positive whole number), not "acme" [item 0]`,
				`'Tenant' must be empty or the ID of a tenant (a positive whole number), not 0 [item 1]`,
				`'Tenant' must be empty or the ID of a tenant (a positive whole number), not 1.5 [item 2]`,
				`'Tenant' must be empty or the ID of a tenant (a positive whole number), not {"id":1} [item 3]`,
			]);
			expect(fake.requests).toEqual([]);
		});

		it('says which tenant the API key may not work in, and sends nothing else', async () => {
			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', tenant: tenantId(999) } });

			expect(result.error?.message).toBe(
				`Flare at ${new URL(fake.url).host} rejected the API key (HTTP 403). Check the API key and that it may access tenant 999, or create a new key under Profile → API Keys.`,
			);
			expect(result.error?.description).toMatch(/^Check the Tenant field: tenant 999 must be one that the API key's user can access \(Tenant → Get Many lists them\)\./);
			expect(fake.requests.map((request) => [request.path, request.status])).toEqual([['/tokens/generate', 403]]);
		});

		it("a 404 names the node's tenant", async () => {
			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'takeAction', uid: fake.feed.feedAll(101, {})[0].metadata.uid, actionType: 'ignore', tenant: tenantId(202) } });

			expect(result.error?.description).toMatch(/belongs to tenant 202 \(the node's Tenant\)\./);
			expect(tenantsOf(apiRequests(fake))).toEqual([[ACTIONS, 202]]);
		});

		it('never batches items of different tenants into one request: each request goes with its tenant’s token', async () => {
			const uidsOf = (tenant: number) => fake.feed.feedAll(tenant, {}).slice(0, 2).map((event) => event.metadata.uid);
			const items = [101, 101, 202, 202, 101].map((tenant, k) => ({ tenant, uid: uidsOf(tenant)[k % 2] }));

			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: 'remediate', tenant: tenantId('={{ $json.tenant }}') } },
				{ items },
			);

			expect(result.status).toBe('success');
			const actions = apiRequests(fake);
			expect(actions.map((request) => [request.tenant, (request.body as { targets: unknown[] }).targets.length, request.status])).toEqual([
				[101, 2, 200],
				[202, 2, 200],
				[101, 1, 200],
			]);
			expect(result.output.map((item) => [item.json.uid, item.json.tenantId, item.pairedItem])).toEqual(
				items.map((item, k) => [item.uid, item.tenant, { item: k }]),
			);
		});

		it('lists identifiers of the Tenant picked, and the tenants to pick from with the credential’s token', async () => {
			const tenants = (await harness.listOptions({
				kind: 'listSearch',
				method: 'searchTenants',
				parameters: { resource: 'event', operation: 'searchTenantFeed', tenant: tenantId(303) },
				path: 'parameters.tenant',
			})) as INodeListSearchResult;
			const identifiers = (await harness.listOptions({
				kind: 'listSearch',
				method: 'searchIdentifiers',
				parameters: { resource: 'event', operation: 'searchIdentifierFeed', tenant: tenantId(202) },
				path: 'parameters.identifierId',
			})) as INodeListSearchResult;

			expect(tenants.results).toEqual([
				{ name: 'Acme Corporation (101)', value: '101' },
				{ name: 'Acme Europe (202)', value: '202' },
				{ name: 'Globex Industries (303)', value: '303' },
			]);
			expect(identifiers.results.length).toBeGreaterThan(0);
			expect(tenantsOf(apiRequests(fake))).toEqual([
				['/firework/v2/me/tenants', 101],
				['/firework/v4/identifiers/', 202],
			]);
		});
	});

	describe('Tenant → Get Many in Organization', () => {
		const organizationTenants = `/firework/v2/organizations/${ORGANIZATION}/tenants`;
		const expected = () =>
			fake.feed.tenants().map((tenant) => ({
				...tenant,
				type: 'regular',
				description: `Monitoring of ${tenant.name}`,
				organization_id: ORGANIZATION,
				industry: 'global',
				is_disabled: false,
				is_archived: false,
				prevent_global_search: false,
			}));

		it("lists every tenant of the key's organization, found with the token test, paged; items are the tenants as Flare lists them", async () => {
			const all = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAllInOrganization', returnAll: true, tenant: tenantId(202) } });
			const two = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAllInOrganization', limit: 2 } });

			expect(jsonOf(all.output)).toEqual(expected());
			expect(jsonOf(two.output)).toEqual(expected().slice(0, 2));
			expect(fake.requests.map((request) => [request.method, request.path, request.query, request.tenant])).toEqual([
				['POST', '/tokens/generate', {}, undefined],
				['GET', '/tokens/test', {}, 202],
				['GET', organizationTenants, { size: '100' }, 202],
				['POST', '/tokens/generate', {}, undefined],
				['GET', '/tokens/test', {}, 101],
				['GET', organizationTenants, { size: '2' }, 101],
			]);
		});

		it("says that only an organization administrator's key may list them", async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.noAstp, baseUrl: fake.url });

			const result = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAllInOrganization', returnAll: true } });

			expect(result.error?.message).toBe('Flare refused to list the tenants of the organization (HTTP 403)');
			expect(result.error?.description).toBe(
				`Only the API key of an organization administrator may list every tenant of the organization. Use Tenant → Get Many for the tenants the key's user can work in, or the key of an organization administrator. Flare says: "you are not an administrator of organization ${fake.organizationOf('noAstp')}".`,
			);
		});
	});

	describe('the Flare Trigger', () => {
		const newEvent = (tenant: number) => ({ event: 'newEvent', tenant: tenantId(tenant) });
		const uidsOf = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => [(item.json.metadata as IDataObject).uid, item.json.tenantId]);

		it('two triggers, one credential, two tenants: each emits its own tenant’s new events once, named; a change of tenant starts a new search', async () => {
			fake.reset({ ...OPTIONS, startTime: iso(Date.now() - 35 * DAY) });
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
			const europe = new TriggerWorkflow(harness, { parameters: newEvent(202) });
			const globex = new TriggerWorkflow(harness, { parameters: newEvent(303) });
			expect(await europe.activate()).toEqual({ items: null });
			expect(await globex.activate()).toEqual({ items: null });

			const added202 = fake.addEvents(2, { tenantId: 202 }).map((event) => event.metadata.uid);
			const added303 = fake.addEvents(3, { tenantId: 303 }).map((event) => event.metadata.uid);
			fake.clearLog();
			const first = [await europe.poll(), await globex.poll()];
			const feedRequests = apiRequests(fake);
			const second = [await europe.poll(), await globex.poll()];

			expect(first.map((poll) => uidsOf(poll.items))).toEqual([added202.map((uid) => [uid, 202]), added303.map((uid) => [uid, 303])]);
			expect(second.map((poll) => poll.items)).toEqual([null, null]);
			expect(new Set(feedRequests.map((request) => request.tenant))).toEqual(new Set([202, 303]));
			expect(feedRequests.every((request) => request.path === TENANT_FEED && request.tokenValid)).toBe(true);
			expect(storedToken()).toBe('');

			// The trigger of tenant 202 is moved to tenant 303: a new search, of tenant 303's feed, from
			// where the trigger's knowledge ends (15 minutes before its last poll, as for any change of its
			// search); nothing of tenant 202 comes again, and each event of tenant 303 comes once.
			const search = europe.state.search;
			const activation = (await europe.reactivate(newEvent(303)))!;
			const added = fake.addEvents(1, { tenantId: 303 }).map((event) => event.metadata.uid);
			fake.addEvents(1, { tenantId: 202 });
			const moved = await europe.poll();
			expect(uidsOf(activation.items)).toEqual(added303.map((uid) => [uid, 303]));
			expect(uidsOf(moved.items)).toEqual(added.map((uid) => [uid, 303]));
			expect(europe.state.search).not.toBe(search);
			expect((await europe.poll()).items).toBeNull();
		});

		/**
		 * n8n polls every tick of an activation with the one PollContext it made for it (the harness
		 * does too, test/harness/README.md), so whatever the node keeps per context lasts as long as
		 * the activation: the Tenant must be read, and a failure of it forgotten, at each poll
		 * (review of 2026-12-07, R-T2). An expression of `$now` changes between polls of one
		 * activation; Variables do not (below).
		 */
		describe('its Tenant, read at each poll of an activation', () => {
			const MINUTE = 60_000;
			const activated = async (tenant: string) => {
				fake.reset({ ...OPTIONS, startTime: iso(Date.now() - 35 * DAY) });
				harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
				const trigger = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', feed: 'tenant', tenant: tenantId(tenant) } });
				expect(await trigger.activate()).toEqual({ items: null });
				return trigger;
			};

			it('an expression that gave no tenant at one poll works at the next once it gives one: the failure is not remembered', async () => {
				const [from, to] = [Date.now() + 30_000, Date.now() + 90_000];
				const trigger = await activated(`={{ $now.toMillis() >= ${from} && $now.toMillis() < ${to} ? '' : '202' }}`);
				const added = fake.addEvents(2, { tenantId: 202 }).map((event) => event.metadata.uid);

				clock.time.move(MINUTE);
				const failed = await trigger.poll();
				clock.time.move(MINUTE);
				const next = await trigger.poll();

				expect(failed.error?.message).toBe(`'Tenant' is an expression that gave no tenant ID for this item (""), so nothing was sent [item 0]`);
				expect(next.error).toBeUndefined();
				expect(uidsOf(next.items)).toEqual(added.map((uid) => [uid, 202]));
			});

			it('an expression whose tenant changes moves the trigger to that tenant at the next poll: a new search there, its events named', async () => {
				const switchAt = Date.now() + 30_000;
				const trigger = await activated(`={{ $now.toMillis() < ${switchAt} ? '101' : '202' }}`);
				fake.addEvents(1, { tenantId: 101 });
				fake.clearLog();

				clock.time.move(MINUTE);
				const moved = await trigger.poll();
				const added = fake.addEvents(1, { tenantId: 202 }).map((event) => event.metadata.uid);
				clock.time.move(MINUTE);
				const next = await trigger.poll();

				expect(moved).toEqual({ items: null });
				expect(new Set(apiRequests(fake).map((request) => request.tenant))).toEqual(new Set([202]));
				expect(uidsOf(next.items)).toEqual(added.map((uid) => [uid, 202]));
			});

			it('a Variable is read when n8n activates the workflow (n8n reads Variables into the activation): a change reaches the trigger at its next activation', async () => {
				harness.variables.flareTenant = '101';
				const trigger = await activated('={{ $vars.flareTenant }}');
				harness.variables.flareTenant = '202';
				const added = fake.addEvents(1, { tenantId: 202 }).map((event) => event.metadata.uid);

				fake.clearLog();
				clock.time.move(MINUTE);
				const before = await trigger.poll();
				const beforeTenants = new Set(apiRequests(fake).map((request) => request.tenant));
				// n8n restarted (or the workflow published again with the trigger changed).
				const restarted = await trigger.restart();
				delete harness.variables.flareTenant;

				expect(before).toEqual({ items: null });
				expect(beforeTenants).toEqual(new Set([101]));
				expect(uidsOf(restarted.items)).toEqual(added.map((uid) => [uid, 202]));
			});
		});

		it('refuses a Tenant that is no tenant ID before any request', async () => {
			const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', tenant: tenantId('x1') } });

			// The activation fails: n8n does not activate the workflow.
			const result = await workflow.activate();

			expect(workflow.active).toBe(false);
			expect(result.error?.message).toBe(`'Tenant' must be empty or the ID of a tenant (a positive whole number), not "x1" [item 0]`);
			expect(fake.requests).toEqual([]);
		});
	});
});
