/**
 * Identifier groups (issue 26): Identifier Group → Get Many, Get, Create, Delete, the group picker
 * (methods/listSearch.ts) used by Identifier Create / Update / Get Many, and Event → Search Identifier
 * Group Feed, through the real engine against the fake Flare API: exact requests, exact items, exact
 * errors.
 */
import type { IDataObject, INode, INodeListSearchResult, INodeParameters } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';

import { FeedItem, FeedRequestBody, IdentifierGroup } from '../contract';
import type { LoggedRequest } from '../fake-flare';
import { PACKAGE_NAME } from '../harness/engine';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const TENANT = 101;
const GROUPS = '/firework/v2/assets/groups/';
const groupFeed = (id: number | string) => `/firework/v4/events/identifier_groups/${id}/_search`;

/** A resource locator value as n8n's editor saves it. */
const rl = (mode: 'list' | 'id', value: string): IDataObject => ({ __rl: true, mode, value });

const group = (operation: string, extra: IDataObject = {}) => ({ resource: 'identifierGroup', operation, ...extra });

const sent = (requests: LoggedRequest[]) => requests.map((request) => [request.method, request.path, request.query, request.body]);

describe('Identifier groups', () => {
	const flare = useFakeFlare({ credentials: 100, eventsPerTenant: 40 });

	describe('Get Many, Get, Create, Delete', () => {
		it('Get Many lists the groups from one request, one item each', async () => {
			const result = await flare.harness.runNode({ parameters: group('getAll') });

			expect(result.status).toBe('success');
			expect(sent(apiRequests(flare.fake))).toEqual([['GET', GROUPS, {}, undefined]]);
			const expected = flare.fake.dataset.identifierGroups(TENANT);
			expect(expected.map((entry) => entry.name)).toEqual(['Acme brands', 'Subsidiaries', 'Executives']);
			expect(jsonOf(result.output)).toEqual(expected);
			for (const item of result.output) IdentifierGroup.parse(item.json);
		});

		it('Get Many says what came when Flare answers without assets_groups, rather than "no groups"', async () => {
			flare.fake.faults.add({ path: GROUPS, fault: { status: 200, body: { groups: [] } } });

			const result = await flare.harness.runNode({ parameters: group('getAll') });

			expect(result.status).toBe('error');
			expect(result.error?.message).toBe("Flare's answer could not be used while trying to list identifier groups");
			expect(result.error?.description).toMatch(/^Flare answered with an object without 'assets_groups', not a list of identifier groups/);
		});

		it.each([
			['From List', rl('list', '101')],
			['By ID, with spaces', rl('id', ' 101 ')],
			['a plain number', 101],
		])('Get reads the group picked %s, unwrapped from assets_group', async (_label, groupId) => {
			const result = await flare.harness.runNode({ parameters: group('get', { groupId }) });

			expect(sent(apiRequests(flare.fake))).toEqual([['GET', `${GROUPS}101`, {}, undefined]]);
			expect(jsonOf(result.output)).toEqual([flare.fake.dataset.identifierGroup(101, TENANT)]);
		});

		it('Get says which group Flare does not know', async () => {
			const result = await flare.harness.runNode({ parameters: group('get', { groupId: rl('id', '999') }) });

			expect(result.error?.message).toBe('Identifier group 999 was not found in Flare');
			expect(result.error?.description).toBe(
				'Check the ID, and that it belongs to the tenant selected in the credential. Flare says: "Identifier group 999 not found".',
			);
		});

		it('rejects a group that is not a number before anything is sent', async () => {
			const result = await flare.harness.runNode({ parameters: group('delete', { groupId: '={{ "../groups" }}' }) });

			expect([result.error?.name, result.error?.message]).toEqual([
				'NodeOperationError',
				`'Identifier Group' must be a positive whole number, not "../groups" [item 0]`,
			]);
			expect(flare.fake.requests).toEqual([]);
		});

		it('Create sends the name, outputs the new group, and the list then holds it', async () => {
			const result = await flare.harness.runNode({ parameters: group('create', { name: ' Acme Europe ' }) });

			expect(sent(apiRequests(flare.fake))).toEqual([['POST', GROUPS, {}, { name: 'Acme Europe' }]]);
			const created = flare.fake.dataset.identifierGroup(103, TENANT);
			expect(created?.name).toBe('Acme Europe');
			expect(jsonOf(result.output)).toEqual([created]);
			expect(flare.fake.state.writes).toEqual([{ method: 'POST', path: GROUPS, body: { name: 'Acme Europe' } }]);
		});

		it('Create with continue on fail: an empty name is an error item, the other item is created', async () => {
			const result = await flare.harness.runNode(
				{ parameters: group('create', { name: '={{ $json.name }}' }), onError: 'continueRegularOutput' },
				{ items: [{ name: ' ' }, { name: 'Brands' }] },
			);

			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ error: `'Name' is required [item 0]` }, { item: 0 }],
				[flare.fake.dataset.identifierGroup(103, TENANT), { item: 1 }],
			]);
			expect(apiRequests(flare.fake)).toHaveLength(1);
		});

		it('Delete deletes the group and says so; a 502 after Flare applied it is not sent again', async () => {
			const deleted = await flare.harness.runNode({ parameters: group('delete', { groupId: rl('list', '102') }) });

			expect(sent(apiRequests(flare.fake))).toEqual([['DELETE', `${GROUPS}102`, {}, undefined]]);
			expect(jsonOf(deleted.output)).toEqual([{ deleted: true, groupId: 102 }]);
			expect(flare.fake.dataset.identifierGroup(102, TENANT)).toBeUndefined();

			flare.fake.clearLog();
			flare.fake.faults.add({ path: `${GROUPS}101`, phase: 'after', fault: { status: 502, rawBody: 'bad gateway' } });
			const failed = await flare.harness.runNode({ parameters: group('delete', { groupId: rl('id', '101') }) });

			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([502]);
			expect(failed.error?.message).toBe('Flare did not confirm the request to delete the identifier group');
			expect(flare.fake.dataset.identifierGroup(101, TENANT)).toBeUndefined();
		});
	});

	describe('The group picker', () => {
		async function searchGroups(filter?: string): Promise<INodeListSearchResult> {
			const parameters: INodeParameters = { resource: 'identifier', operation: 'create' };
			const nodeTypes = flare.harness.nodeTypes();
			const node: INode = {
				id: 'temp',
				name: 'Temp-Node',
				type: `${PACKAGE_NAME}.flare`,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { flareApi: { id: 'cred-1', name: 'Flare' } },
			};
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
			const additionalData = flare.harness.additionalData(new ExecutionLifecycleHooks('internal', 'harness', {} as never));
			additionalData.currentNodeParameters = parameters;
			const context = new LoadOptionsContext(workflow, workflow.getNode('Temp-Node')!, additionalData, 'parameters.additionalFields.groupId');
			const search = nodeTypes.getByNameAndVersion(node.type, 1).methods?.listSearch?.searchIdentifierGroups;
			if (!search) throw new Error('No listSearch method searchIdentifierGroups');
			return await search.call(context, filter);
		}

		it('lists every group as "<name> (<id>)" from one request, without paging parameters', async () => {
			const result = await searchGroups();

			expect(sent(apiRequests(flare.fake))).toEqual([['GET', GROUPS, {}, undefined]]);
			expect(result).toEqual({
				results: [
					{ name: 'Acme brands (100)', value: '100' },
					{ name: 'Subsidiaries (101)', value: '101' },
					{ name: 'Executives (102)', value: '102' },
				],
				paginationToken: undefined,
			});
		});

		it('filters on the typed name or ID, and skips entries it cannot pick', async () => {
			expect((await searchGroups(' SUBSID')).results).toEqual([{ name: 'Subsidiaries (101)', value: '101' }]);
			expect((await searchGroups('102')).results).toEqual([{ name: 'Executives (102)', value: '102' }]);

			flare.fake.faults.add({ path: GROUPS, fault: { status: 200, body: { assets_groups: [null, { name: 'no id' }, { id: 7, name: '' }] } } });
			expect(await searchGroups()).toEqual({ results: [{ name: 'Group (7)', value: '7' }], paginationToken: undefined });
		});

		it.each([
			['without assets_groups', { groups: [] }, "Flare answered with an object without 'assets_groups', not a list of identifier groups"],
			['a list', [], 'Flare answered with a list, not a list of identifier groups'],
		])('fails on an answer %s, saying what came, rather than listing no groups', async (_name, body, what) => {
			flare.fake.faults.add({ path: GROUPS, fault: { status: 200, body } });

			const error = await searchGroups().then(
				() => undefined,
				(thrown: unknown) => thrown as { message: string; description?: string },
			);

			expect([error?.message, error?.description]).toEqual([
				"Flare's answer could not be used while trying to list identifier groups",
				`${what}. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`,
			]);
		});
	});

	describe('Identifier Create, Update and Get Many take the group from the picker', () => {
		it('Create sends the group picked as group_id', async () => {
			await flare.harness.runNode({
				parameters: {
					resource: 'identifier',
					operation: 'create',
					identifierType: 'keyword',
					keyword: 'acme',
					categories: ['leak'],
					additionalFields: { groupId: rl('list', '101') },
				},
			});

			expect((apiRequests(flare.fake)[0].body as IDataObject).group_id).toBe(101);
		});

		it('Create sends no group_id when the picker is left empty', async () => {
			await flare.harness.runNode({
				parameters: {
					resource: 'identifier',
					operation: 'create',
					identifierType: 'keyword',
					keyword: 'acme',
					categories: ['leak'],
					additionalFields: { groupId: rl('list', '') },
				},
			});

			expect(apiRequests(flare.fake)[0].body).not.toHaveProperty('group_id');
		});

		it('Update sends the group typed By ID, and Get Many filters on it', async () => {
			const updated = await flare.harness.runNode({
				parameters: { resource: 'identifier', operation: 'update', identifierId: rl('id', '7002'), updateFields: { groupId: rl('id', ' 102 ') } },
			});
			expect(updated.status).toBe('success');
			const put = apiRequests(flare.fake).filter((request) => request.method === 'PUT');
			expect(put.map((request) => (request.body as IDataObject).group_id)).toEqual([102]);

			flare.fake.clearLog();
			const listed = await flare.harness.runNode({
				parameters: { resource: 'identifier', operation: 'getAll', returnAll: true, filters: { groupId: rl('list', '102') } },
			});
			expect(apiRequests(flare.fake)[0].query).toEqual({ order_by: 'id', group_id: '102', size: '100' });
			const expected = flare.fake.dataset.identifiers(TENANT).filter((identifier) => identifier.group_id === 102);
			expect(expected.map((identifier) => identifier.id)).toContain(7002);
			expect(jsonOf(listed.output)).toEqual(expected);
		});

		it('names the picker in its error', async () => {
			const result = await flare.harness.runNode({
				parameters: { resource: 'identifier', operation: 'getAll', filters: { groupId: rl('id', 'sales') } },
			});

			expect(result.error?.message).toBe(`'Identifier Group' must be a positive whole number, not "sales" [item 0]`);
			expect(flare.fake.requests).toEqual([]);
		});
	});

	describe('Event → Search Identifier Group Feed', () => {
		const feedOf = (groupId: number, body: IDataObject) =>
			maskedView(flare.fake.feed.groupFeedAll(TENANT, body, groupId), flare.fake.plantedValues());

		it('walks the feed of the group picked (empty and short pages included) with the identifier feed\'s body', async () => {
			flare.fake.reset({ credentials: 100, eventsPerTenant: 200, quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({
				parameters: {
					resource: 'event',
					operation: 'searchIdentifierGroupFeed',
					groupId: rl('list', '101'),
					returnAll: true,
					severityFilter: 'minimum',
					minimumSeverity: 'low',
					options: { order: 'asc' },
				},
			});

			const body = { filters: { severity: 'low' }, order: 'asc' };
			const requests = apiRequests(flare.fake);
			expect(requests.map((request) => [request.method, request.path, request.status])).toEqual(requests.map(() => ['POST', groupFeed(101), 200]));
			expect(
				requests.map((request) => {
					const copy = { ...(request.body as IDataObject) };
					delete copy.from;
					return copy;
				}),
			).toEqual(requests.map(() => ({ ...body, size: 10 })));
			for (const request of requests) FeedRequestBody.parse(request.body);
			const members = new Set(flare.fake.dataset.groupIdentifierIds(101, TENANT));
			const expected = feedOf(101, body);
			expect(expected.length).toBeGreaterThan(20);
			// More pages than a walk without empty and short pages needs: the walk went through them.
			expect(requests.length).toBeGreaterThan(Math.ceil(expected.length / 10));
			expect(expected.length).toBeLessThan(flare.fake.feed.feedAll(TENANT, body).length);
			expect(jsonOf(result.output)).toEqual(expected);
			for (const item of result.output) {
				FeedItem.parse(item.json);
				expect((item.json.identifiers as IDataObject[]).some((entry) => members.has(entry.id as number))).toBe(true);
			}
		});

		it('Limit takes the fewest pages, filled evenly', async () => {
			const result = await flare.harness.runNode({
				parameters: { resource: 'event', operation: 'searchIdentifierGroupFeed', groupId: rl('id', '100'), limit: 3 },
			});

			expect(jsonOf(result.output)).toEqual(feedOf(100, {}).slice(0, 3));
			expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ order: 'desc', size: 3 }]);
		});

		it('says which group Flare does not know, and pairs errors with items on continue on fail', async () => {
			const result = await flare.harness.runNode(
				{
					parameters: { resource: 'event', operation: 'searchIdentifierGroupFeed', groupId: '={{ $json.group }}', limit: 1 },
					onError: 'continueRegularOutput',
				},
				{ items: [{ group: 999 }, { group: 'x' }, { group: 100 }] },
			);

			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ error: 'Identifier group 999 was not found in Flare' }, { item: 0 }],
				[{ error: `'Identifier Group' must be a positive whole number, not "x" [item 1]` }, { item: 1 }],
				[feedOf(100, {})[0], { item: 2 }],
			]);
			expect(apiRequests(flare.fake).map((request) => [request.path, request.status])).toEqual([
				[groupFeed(999), 404],
				[groupFeed(100), 200],
			]);
		});
	});
});
