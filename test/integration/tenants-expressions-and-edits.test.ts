/**
 * One credential, every tenant: what the hostile review of issue 33 found, as the package now behaves
 * (docs/usage.md, "One credential, every tenant"), through the real engine against the fake:
 * - a Tenant expression that gives nothing fails its item (or the poll), never the credential's tenant;
 * - a request goes only with the credential settings it was made with: a credential edited while a
 *   run waits sends no token to the old host, nor for the old tenant, and labels no item wrongly;
 * - a trigger moved to another tenant still emits that tenant's copy of an event it emitted for the
 *   old one; without a Tenant, the credential's Tenant ID is part of its saved search;
 * - the pickers: the tenant they actually used in messages, tenant advice only when Flare refused
 *   the key for it, and a Tenant expression the editor cannot resolve lists the credential's tenant.
 */
import type { IDataObject, INodeExecutionData, INodeListSearchResult } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { FakeFlare } from '../fake-flare';
import type { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';
import { http, path } from '../support/node';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const TENANTS = [101, 202, 303];
const TENANT_FEED = '/firework/v4/events/tenant/_search';
const DAY = 24 * 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A Tenant field holding `value` ("By ID"; an expression is resolved per item). */
const tenantId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
const exchanges = (fake: FakeFlare) =>
	fake.requests.filter((request) => request.path === '/tokens/generate').map((request) => [request.body ?? null, request.status]);
const noTenant = (shown: string, item: number) =>
	`'Tenant' is an expression that gave no tenant ID for this item (${shown}), so nothing was sent [item ${item}]`;

/** Forgets the tenant tokens the node holds in this process (dist/, as the harness loads it): a restart. */
async function restartProcess(): Promise<void> {
	const token = (await import(path.resolve('dist/nodes/Flare/shared/token.js'))) as { forgetTenantTokens(): void };
	token.forgetTenantTokens();
}

/** A loopback "API" (host A) that issues its own token and records every request and Authorization it receives. */
async function recorder(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
	const seen: string[] = [];
	const server = http.createServer((request, response) => {
		seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? '-'}`);
		request.resume();
		request.on('end', () => {
			response.setHeader('content-type', 'application/json');
			if (request.url !== '/tokens/generate' && !request.headers.authorization) {
				response.statusCode = 401;
				response.end('{"error":{"code":"UNAUTHORIZED","message":"no token"}}');
				return;
			}
			response.end(request.url === '/tokens/generate' ? '{"token":"token-of-A"}' : '{"tenants":[{"id":303,"name":"A"}]}');
		});
	});
	server.keepAliveTimeout = 0;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () =>
			await new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe('One credential, every tenant: Tenant expressions, credentials edited mid-run, a trigger moved (hostile review of issue 33)', () => {
	useVirtualTime();
	const OPTIONS = { credentials: 20, eventsPerTenant: 10, tenants: TENANTS, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } };
	const flare = useFakeFlare(OPTIONS);
	let fake: FakeFlare;
	let harness: Harness;
	beforeEach(async () => {
		({ fake, harness } = flare);
		await restartProcess();
	});
	const feedOf = (tenant: number) => maskedView(fake.feed.feedAll(tenant, {}), fake.plantedValues());

	describe('a Tenant expression that gives nothing', () => {
		const search = { resource: 'event', operation: 'searchTenantFeed', limit: 1, tenant: tenantId('={{ $json.id }}') };

		it('fails the item before any request, naming the field and the item, paired with its input: never the credential’s tenant', async () => {
			const items = [{ id: 202 }, { tenant_id: 303 }, { id: null }, { id: '  ' }, { id: '' }];

			const result = await harness.runNode({ parameters: search, onError: 'continueErrorOutput' }, { items });

			expect(result.status).toBe('success');
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([[{ ...feedOf(202)[0], tenantId: 202 }, { item: 0 }]]);
			expect(result.errorOutput.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ error: noTenant('undefined', 1) }, { item: 1 }],
				[{ error: noTenant('null', 2) }, { item: 2 }],
				[{ error: noTenant('"  "', 3) }, { item: 3 }],
				[{ error: noTenant('""', 4) }, { item: 4 }],
			]);
			expect(result.errorOutput[0].error?.description).toBe(
				"Check that the expression finds the tenant's ID in this item, e.g. {{ $json.id }} over the items of Tenant → Get Many. To work in the credential's tenant, clear the field.",
			);
			expect(exchanges(fake)).toEqual([[{ tenant_id: 202 }, 200]]);
			expect(apiRequests(fake).map((request) => [request.path, request.tenant])).toEqual([[TENANT_FEED, 202]]);
		});

		it('stops the run at that item without continue on fail; an empty field still works in the credential’s tenant', async () => {
			const failed = await harness.runNode({ parameters: search }, { items: [{ id: 303 }, {}, { id: 202 }] });
			const empty = await harness.runNode({ parameters: { ...search, tenant: { __rl: true, mode: 'list', value: '' } } }, { items: [{}] });
			const plain = await harness.runNode({ parameters: { ...search, tenant: '' } }, { items: [{}] });

			expect(failed.status).toBe('error');
			expect(failed.error?.message).toBe(noTenant('undefined', 1));
			expect(jsonOf(empty.output)).toEqual(feedOf(101).slice(0, 1));
			expect(jsonOf(plain.output)).toEqual(feedOf(101).slice(0, 1));
			expect(apiRequests(fake).map((request) => request.tenant)).toEqual([303, 101, 101]);
		});

		it('fails a batched write’s item before any request; the items around it are written in their tenants', async () => {
			const uidsOf = (tenant: number) => fake.feed.feedAll(tenant, {}).map((event) => event.metadata.uid);
			const items = [
				{ tenant: 202, uid: uidsOf(202)[0] },
				{ uid: uidsOf(101)[0] },
				{ tenant: null, uid: uidsOf(101)[1] },
				{ tenant: 202, uid: uidsOf(202)[1] },
			];

			const result = await harness.runNode(
				{
					parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: 'ignore', tenant: tenantId('={{ $json.tenant }}') },
					onError: 'continueErrorOutput',
				},
				{ items },
			);

			expect(result.output.map((item) => [item.json.uid, item.json.tenantId, item.pairedItem])).toEqual([
				[items[0].uid, 202, { item: 0 }],
				[items[3].uid, 202, { item: 3 }],
			]);
			expect(result.errorOutput.map((item) => [item.json.error, item.pairedItem])).toEqual([
				[noTenant('undefined', 1), { item: 1 }],
				[noTenant('null', 2), { item: 2 }],
			]);
			expect(apiRequests(fake).map((request) => [request.tenant, (request.body as { targets: unknown[] }).targets.length])).toEqual([[202, 2]]);
			expect(fake.state.writes.length).toBe(1);
		});

		it.each([
			['={{ null }}', 'null'],
			['={{ "" }}', '""'],
			['={{ "  " }}', '"  "'],
			['={{ $execution.customData.get("tenant") }}', 'undefined'],
		])('fails the Flare Trigger’s poll: Tenant %s, nothing sent, emitted or stored', async (expression, shown) => {
			const trigger = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', tenant: tenantId(expression) } });

			// The activation poll fails: n8n does not activate the workflow (n8n 2.41 tries 5 times).
			const first = await trigger.activate();

			expect(first.error?.message).toBe(noTenant(shown, 0));
			expect(first.items ?? null).toBeNull();
			expect(trigger.active).toBe(false);
			expect(trigger.state).toEqual({});
			expect(fake.requests).toEqual([]);

			// A trigger that watched a tenant: its saved search stays as it was.
			expect(await trigger.reactivate({ event: 'newEvent', tenant: tenantId(202) })).toEqual({ items: null });
			const saved = structuredClone(trigger.saved);
			expect(saved['node:Flare Trigger']).toMatchObject({ rev: 1, seen: {} });
			fake.addEvents(1, { tenantId: 202 });
			fake.clearLog();
			expect((await trigger.reactivate({ event: 'newEvent', tenant: tenantId(expression) }))?.error?.message).toBe(noTenant(shown, 0));
			expect(trigger.active).toBe(false);
			expect(trigger.saved).toEqual(saved);
			expect(fake.requests).toEqual([]);
		});
	});

	describe('a credential edited while a run waits for its turn', () => {
		// Item 1 is made (its URL and tenant read from the credential), then waits about 260 ms for the
		// Basic tier's next slot: the credential is edited at 100 ms, virtual time.
		const editAt100ms = (changes: IDataObject) => void sleep(100).then(() => harness.editFlareCredential(changes));
		const changed = (action: string) =>
			`The Flare API credential changed while the request to ${action} waited to be sent: nothing was sent`;
		// The rate gate's slots of the tests before have passed: item 0 goes at once.
		beforeEach(() => moveClock(1000));

		it.each([
			['a Tenant', { tenant: tenantId(303) }],
			['no Tenant (the credential’s own token)', {}],
		])('Base URL edited, %s: the old host never gets the new host’s token, the new host gets nothing of the request', async (_case, tenant) => {
			const a = await recorder();
			try {
				harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: a.url });
				editAt100ms({ baseUrl: fake.url });

				const result = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll', ...tenant }, onError: 'continueErrorOutput' }, { items: [{}, {}] });

				expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
				expect(result.errorOutput.map((item) => [item.json.error, item.pairedItem])).toEqual([[changed('list tenants'), { item: 1 }]]);
				expect(result.errorOutput[0].error?.description).toMatch(/^Its Base URL, Tenant ID or API key was edited during the run\./);
				// Host A: the exchange and item 0, with A's own token; nothing after the edit.
				expect(a.seen).toEqual([`POST /tokens/generate ${fake.apiKeys.full}`, 'GET /firework/v2/me/tenants Bearer token-of-A']);
				expect(fake.requests).toEqual([]);
			} finally {
				await a.close();
			}

			// The next run uses the credential as it is now.
			const again = await harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll', ...tenant } });
			expect(again.status).toBe('success');
			// (A's token, stored as the credential's own, is not sent to B: B answers 401, n8n exchanges.)
			expect(apiRequests(fake).map((request) => [request.status, request.auth, request.tokenValid])).toEqual(
				'tenant' in tenant ? [[200, 'bearer', true]] : [[401, 'none', undefined], [200, 'bearer', true]],
			);
		});

		it('Tenant ID edited while the node’s Tenant names it: no item carries another tenant’s events under its tenantId', async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 202 });
			editAt100ms({ tenantId: 303 });

			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'searchTenantFeed', limit: 1, tenant: tenantId(202) }, onError: 'continueErrorOutput' },
				{ items: [{}, {}] },
			);

			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([[{ ...feedOf(202)[0], tenantId: 202 }, { item: 0 }]]);
			expect(result.errorOutput.map((item) => [item.json.error, item.pairedItem])).toEqual([[changed('search the tenant event feed'), { item: 1 }]]);
			expect(exchanges(fake)).toEqual([[{ tenant_id: 202 }, 200]]);
			expect(apiRequests(fake).map((request) => [request.tenant, request.status])).toEqual([[202, 200]]);
		});

		it('a batched write whose credential changed: its items say that nothing was sent', async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 202 });
			const uids = fake.feed.feedAll(202, {}).map((event) => event.metadata.uid);
			// Items 0 and 1 go together; item 2 (another action) waits for the next slot.
			const items = [{ uid: uids[0], action: 'ignore' }, { uid: uids[1], action: 'ignore' }, { uid: uids[2], action: 'remediate' }];
			editAt100ms({ tenantId: 303 });

			const result = await harness.runNode(
				{ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: '={{ $json.action }}' }, onError: 'continueErrorOutput' },
				{ items },
			);

			expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(result.errorOutput.map((item) => item.pairedItem)).toEqual([{ item: 2 }]);
			expect(result.errorOutput[0].json.error).toBe(changed('take an action on events'));
			expect(apiRequests(fake).map((request) => [request.tenant, request.status])).toEqual([[202, 200]]);
		});
	});

	describe('the Flare Trigger’s tenant', () => {
		const uidsOf = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => [(item.json.metadata as IDataObject).uid, item.json.tenantId]);

		it('moved to another tenant, emits that tenant’s copy of an event it emitted for the old one; moved back, nothing comes twice', async () => {
			fake.reset({ ...OPTIONS, startTime: iso(Date.now() - 35 * DAY) });
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
			const trigger = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', tenant: tenantId(202) } });
			expect(await trigger.activate()).toEqual({ items: null });
			const [shared] = fake.addEvents(1, { tenantId: 202 }).map((event) => event.metadata.uid);
			// One event that matched both tenants: one uid in both feeds (Flare's feed item names the event).
			fake.feed.events.share(shared, 303);
			const own303 = fake.addEvents(1, { tenantId: 303 }).map((event) => event.metadata.uid);

			expect(uidsOf((await trigger.poll()).items)).toEqual([[shared, 202]]);
			// Saved with another Tenant: the activation of the changed trigger emits that tenant's events.
			expect(uidsOf((await trigger.reactivate({ event: 'newEvent', tenant: tenantId(303) }))!.items)).toEqual([
				[shared, 303],
				[own303[0], 303],
			]);
			expect((await trigger.poll()).items).toBeNull();
			expect((await trigger.reactivate({ event: 'newEvent', tenant: tenantId(202) }))!.items).toBeNull();
			expect((await trigger.poll()).items).toBeNull();
			// Keys of a trigger with a Tenant are digests of the tenant and the record's key
			// (docs/trigger.md, "Bounded"); without one, they are as saved triggers have them.
			expect(Object.keys(trigger.state.seen as IDataObject).every((key) => /^t:[0-9a-f]{16}$/.test(key))).toBe(true);
		});

		it("without a Tenant, the credential's Tenant ID is the saved search's scope: an edit of it starts a new search in the new tenant", async () => {
			fake.reset({ ...OPTIONS, startTime: iso(Date.now() - 35 * DAY) });
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 202 });
			const trigger = new TriggerWorkflow(harness, { parameters: { event: 'newEvent' } });
			expect(await trigger.activate()).toEqual({ items: null });
			const added202 = fake.addEvents(2, { tenantId: 202 }).map((event) => event.metadata.uid);
			expect(uidsOf((await trigger.poll()).items)).toEqual(added202.map((uid) => [uid, undefined]));
			const { search, scope } = trigger.state;
			expect(Object.keys(trigger.state.seen as IDataObject).every((key) => key.startsWith('e:'))).toBe(true);

			harness.editFlareCredential({ tenantId: 303 });
			const added303 = fake.addEvents(2, { tenantId: 303 }).map((event) => event.metadata.uid);
			fake.clearLog();
			const moved = await trigger.poll();

			// The same query, in another tenant: the saved search's scope changed (docs/trigger.md).
			expect(trigger.state.search).toBe(search);
			expect(trigger.state.scope).not.toEqual(scope);
			expect(uidsOf(moved.items)).toEqual(added303.map((uid) => [uid, undefined]));
			// A new search from its first page: no cursor of tenant 202's search goes to tenant 303.
			const feed = apiRequests(fake).filter((request) => request.path === TENANT_FEED && request.status === 200);
			expect(feed.map((request) => [request.tenant, (request.body as IDataObject).from ?? null])[0]).toEqual([303, null]);
		});
	});

	describe('pickers', () => {
		it("the Tenant picker's failure names the tenant it used (the credential's), not the node's Tenant", async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 999 });

			const error = await harness
				.listOptions({ kind: 'listSearch', method: 'searchTenants', parameters: { resource: 'event', operation: 'searchTenantFeed', tenant: tenantId(202) }, path: 'parameters.tenant' })
				.then(
					() => undefined,
					(thrown: { message: string; description?: string }) => thrown,
				);

			expect(error?.message).toBe(
				`Flare at ${new URL(fake.url).host} rejected the API key (HTTP 403). Check the API key and that it may access tenant 999, or create a new key under Profile → API Keys.`,
			);
			expect(error?.description).toBe('Open the Flare API credential, check the API key and the Base URL, and use Test to confirm.');
			expect(exchanges(fake)).toEqual([[{ tenant_id: 999 }, 403]]);
		});

		it('advises checking the Tenant only when Flare refused the key for it, not when the token service failed', async () => {
			fake.faults.add({ path: '/tokens/generate', times: 3, fault: { status: 503 } });

			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', limit: 1, tenant: tenantId(303) } });

			expect(result.error?.message).toBe(`Flare at ${new URL(fake.url).host}: the token service is temporarily unavailable (HTTP 503). Try again later.`);
			expect(result.error?.description).toBe('Open the Flare API credential, check the API key and the Base URL, and use Test to confirm.');
			expect(exchanges(fake)).toEqual([
				[{ tenant_id: 303 }, 503],
				[{ tenant_id: 303 }, 503],
				[{ tenant_id: 303 }, 503],
			]);
		});

		it.each([
			['={{ $json.id }}', 101],
			['={{ $json.missing ?? null }}', 101],
			['={{ 202 }}', 202],
		])("Tenant %s: the identifier picker lists the tenant it resolves to in the editor, else the credential's", async (value, listed) => {
			const result = (await harness.listOptions({
				kind: 'listSearch',
				method: 'searchIdentifiers',
				parameters: { resource: 'event', operation: 'searchIdentifierFeed', tenant: tenantId(value) },
				path: 'parameters.identifierId',
			})) as INodeListSearchResult;

			expect(result.results.length).toBeGreaterThan(0);
			expect(apiRequests(fake).map((request) => [request.path, request.tenant])).toEqual([['/firework/v4/identifiers/', listed]]);
		});
	});
});
