/**
 * Issue #8: identifier, matching-policy and source IDs are resource locators. "From List" runs the
 * node's listSearch methods against Flare's list endpoints, the way n8n's editor calls them; "By ID"
 * and the plain values of workflows saved before the change run through the real workflow engine.
 */
import type { IDataObject, INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { MatchingPolicyAssignment } from '../contract';
import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { apiRequests, jsonOf, maskedView } from './support';

type ListMethod = 'searchIdentifiers' | 'searchMatchingPolicies' | 'searchSources';

/** Page sizes the pickers ask for (methods/listSearch.ts). */
const PAGE = { identifiers: '100', policies: '25', sources: '1000' };

/** A resource locator value as n8n's editor saves it. */
const rl = (mode: 'list' | 'id', value: string, cachedResultName?: string): IDataObject => ({
	__rl: true,
	mode,
	value,
	...(cachedResultName ? { cachedResultName } : {}),
});

describe('Pickers (resource locators) and the values of saved workflows', () => {
	let fake: FakeFlare;
	let harness: Harness;

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	/** A fresh fake (longer lists on request) and a credential that has no token of the old one yet. */
	function resetFake(options: { identifiers?: number; policies?: number; sources?: number } = {}) {
		fake.reset({ credentials: 100, ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	}

	beforeEach(() => resetFake());

	/**
	 * Calls a listSearch method as n8n's DynamicNodeParametersService does (Harness.listOptions: a
	 * temporary workflow holding the node being edited, a LoadOptionsContext on it); what it lists is
	 * collected for the secret and leaked-value scans.
	 */
	async function listSearch(
		method: ListMethod,
		options: { filter?: string; paginationToken?: string; parameters?: INodeParameters; credentialId?: string } = {},
	): Promise<INodeListSearchResult> {
		return (await harness.listOptions({
			kind: 'listSearch',
			method,
			parameters: options.parameters ?? { resource: 'identifier', operation: 'delete' },
			path: 'parameters.identifierId',
			filter: options.filter,
			paginationToken: options.paginationToken,
			credentialId: options.credentialId,
		})) as INodeListSearchResult;
	}

	/** [method, path, query] of the requests sent to Flare (token exchange left out). */
	const sent = () => apiRequests(fake).map((request) => [request.method, request.path, request.query]);

	describe('From List', () => {
		it('searchIdentifiers lists the identifiers by name, as "<name> (<id>)", from one request', async () => {
			const result = await listSearch('searchIdentifiers');

			expect(sent()).toEqual([['GET', '/firework/v4/identifiers/', { order_by: 'name', size: PAGE.identifiers }]]);
			expect(result).toEqual({
				results: fake.dataset.identifiers(101, 'name').map((identifier) => ({
					name: `${identifier.name} (${identifier.id})`,
					value: String(identifier.id),
				})),
				paginationToken: undefined,
			});
			expect(result.results).toHaveLength(30);
			expect(result.results).toContainEqual({ name: 'example.com (7001)', value: '7001' });
		});

		it('searchIdentifiers pages with Flare\'s cursor: one request per call, the token is the next cursor', async () => {
			resetFake({ identifiers: 250 });
			const expected = fake.dataset.identifiers(101, 'name').map((identifier) => String(identifier.id));

			const pages: INodeListSearchResult[] = [];
			let token: string | undefined;
			do {
				fake.clearLog();
				const page = await listSearch('searchIdentifiers', { paginationToken: token });
				expect(sent()).toEqual([
					['GET', '/firework/v4/identifiers/', { order_by: 'name', size: PAGE.identifiers, ...(token ? { from: token } : {}) }],
				]);
				pages.push(page);
				token = page.paginationToken;
			} while (token !== undefined && pages.length < 10);

			expect(token).toBeUndefined();
			expect(pages.flatMap((page) => page.results.map((entry) => entry.value))).toEqual(expected);
			expect(pages.map((page) => page.results.length)).toEqual([100, 100, 50]);
			expect(pages.slice(0, -1).every((page) => typeof page.paginationToken === 'string')).toBe(true);
		});

		it('searchIdentifiers filters the page on the typed text, by name or ID, ignoring case', async () => {
			const all = fake.dataset.identifiers(101, 'name');

			const byName = await listSearch('searchIdentifiers', { filter: '  MENTIONS ' });
			const byId = await listSearch('searchIdentifiers', { filter: '7012' });
			const none = await listSearch('searchIdentifiers', { filter: 'no such identifier' });

			const mentions = all.filter((identifier) => identifier.name.includes('mentions'));
			expect(mentions).toHaveLength(6);
			expect(byName.results).toEqual(mentions.map((identifier) => ({ name: `${identifier.name} (${identifier.id})`, value: String(identifier.id) })));
			expect(byId.results.map((entry) => entry.value)).toEqual(['7012']);
			expect(none).toEqual({ results: [], paginationToken: undefined });
			// Flare cannot search identifiers by name: the filter never reaches the request.
			expect(sent()).toEqual(Array(3).fill(['GET', '/firework/v4/identifiers/', { order_by: 'name', size: PAGE.identifiers }]));
		});

		it('searchMatchingPolicies lists the policies by name, and follows the cursor past 25', async () => {
			const first = await listSearch('searchMatchingPolicies', { parameters: { resource: 'matchingPolicy', operation: 'assign' } });
			expect(sent()).toEqual([['GET', '/firework/v4/matching-policies', { size: PAGE.policies }]]);
			expect(first).toEqual({
				results: fake.dataset.policies().map((policy) => ({ name: policy.name, value: policy.uuid })),
				paginationToken: undefined,
			});
			const filtered = await listSearch('searchMatchingPolicies', { filter: 'NOISE' });
			expect(filtered.results).toEqual([{ name: 'Exclude noise', value: fake.dataset.policies()[7].uuid }]);

			resetFake({ policies: 40 });
			const page1 = await listSearch('searchMatchingPolicies');
			const page2 = await listSearch('searchMatchingPolicies', { paginationToken: page1.paginationToken });
			expect(apiRequests(fake).map((request) => request.query)).toEqual([
				{ size: PAGE.policies },
				{ size: PAGE.policies, from: page1.paginationToken },
			]);
			expect([...page1.results, ...page2.results].map((entry) => entry.value)).toEqual(fake.dataset.policies().map((policy) => policy.uuid));
			expect(page2.paginationToken).toBeUndefined();
		});

		it('searchSources lists the sources by name, filters on name or ID, and follows the cursor', async () => {
			const all = await listSearch('searchSources', { parameters: { resource: 'source', operation: 'get' } });
			expect(sent()).toEqual([['GET', '/astp/v2/sources', { size: PAGE.sources }]]);
			expect(all).toEqual({
				results: fake.dataset.sources().map((source) => ({ name: source.name, value: source.id })),
				paginationToken: undefined,
			});
			expect((await listSearch('searchSources', { filter: 'collection-' })).results).toEqual([
				{ name: 'Collection #1', value: 'collection-1' },
				{ name: 'Collection #2', value: 'collection-2' },
			]);
			expect((await listSearch('searchSources', { filter: 'rockyou' })).results).toEqual([{ name: 'RockYou2021', value: 'rockyou2021' }]);

			resetFake({ sources: 1500 });
			const page1 = await listSearch('searchSources');
			const page2 = await listSearch('searchSources', { paginationToken: page1.paginationToken });
			expect(apiRequests(fake).map((request) => request.query)).toEqual([
				{ size: PAGE.sources },
				{ size: PAGE.sources, from: page1.paginationToken },
			]);
			expect([...page1.results, ...page2.results].map((entry) => entry.value)).toEqual(fake.dataset.sources().map((source) => source.id));
		});

		it('explains a missing entitlement and retries a busy Flare, like the operations', async () => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.noAstp, baseUrl: fake.url }, 'cred-no-astp');
			await expect(listSearch('searchSources', { credentialId: 'cred-no-astp' })).rejects.toMatchObject({
				name: 'NodeApiError',
				message: 'Your Flare account has no access to the ASTP feature, needed to list sources',
			});

			fake.clearLog();
			fake.faults.add({ path: '/firework/v4/identifiers/', fault: { status: 503 } });
			const result = await listSearch('searchIdentifiers');
			expect(apiRequests(fake).map((request) => request.status)).toEqual([503, 200]);
			expect(result.results).toHaveLength(30);
		});
	});

	describe('By ID, From List and plain values give the same request', () => {
		const source = 'combolist-acme';

		it.each([
			['a plain string (saved before #8)', source],
			['From List', rl('list', source, 'ACME combolist')],
			['By ID, with spaces', rl('id', ` ${source} `)],
			['By ID, from an expression', rl('id', '={{ $json.source }}')],
			['an expression for the whole parameter', '={{ $json.source }}'],
		])('Source → Get with %s', async (_label, sourceId) => {
			const result = await harness.runNode(
				{ parameters: { resource: 'source', operation: 'get', sourceId } },
				{ items: [{ source }] },
			);

			expect(result.status).toBe('success');
			expect(sent()).toEqual([['GET', `/astp/sources/${source}`, {}]]);
			// The fake plants a credential line in the description: masked as any output.
			expect(jsonOf(result.output)).toEqual([maskedView(fake.dataset.source(source), fake.plantedValues())]);
		});

		it.each([
			['a plain string (saved before #8)', '7016'],
			['a plain number', 7016],
			['From List', rl('list', '7016', 'initech.net (7016)')],
			['By ID', rl('id', '7016')],
		])('Matching Policy → Get by Identifier with %s', async (_label, identifierId) => {
			const result = await harness.runNode({ parameters: { resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId } });

			expect(result.status).toBe('success');
			expect(sent()).toEqual([['GET', '/firework/v4/matching-policies/by_identifier_id/7016', {}]]);
			expect(jsonOf(result.output)).toEqual(fake.dataset.assignmentsFor(7016));
			for (const item of result.output) MatchingPolicyAssignment.parse(item.json);
		});

		it.each([
			['a plain string (saved before #8)', (uuid: string) => uuid],
			['From List', (uuid: string) => rl('list', uuid, 'Brand monitoring')],
			['By ID, upper case', (uuid: string) => rl('id', uuid.toUpperCase())],
		])('Matching Policy → Assign with %s', async (_label, policy) => {
			const { uuid } = fake.dataset.policies()[1];

			const result = await harness.runNode({
				parameters: { resource: 'matchingPolicy', operation: 'assign', policyUuid: policy(uuid), identifierIds: '7002' },
			});

			expect(result.status).toBe('success');
			expect(apiRequests(fake).map((request) => [request.method, request.path, request.body])).toEqual([
				['POST', `/firework/v4/matching-policies/${uuid}/assignments`, { identifier_ids: [7002], clean_past_events: false }],
			]);
			expect(jsonOf(result.output)).toEqual([{ assigned: true, policyUuid: uuid, identifierIds: [7002], cleanPastEvents: false }]);
		});

		it.each([
			['a plain number (saved before #8)', 7004],
			['From List', rl('list', '7004', 'Office IP 203.0.113.4 (7004)')],
			['By ID', rl('id', '7004')],
		])('Identifier → Delete with %s', async (_label, identifierId) => {
			const result = await harness.runNode({ parameters: { resource: 'identifier', operation: 'delete', identifierId } });

			expect(sent()).toEqual([['DELETE', '/firework/v4/identifiers/7004', {}]]);
			expect(jsonOf(result.output)).toEqual([{ deleted: true, identifierId: 7004 }]);
			expect(fake.dataset.identifierExists(7004)).toBe(false);
		});

		it('reads the locator of each item: By ID from an expression, one request per item', async () => {
			const result = await harness.runNode(
				{ parameters: { resource: 'identifier', operation: 'delete', identifierId: rl('id', '={{ $json.id }}') } },
				{ items: [{ id: 7005 }, { id: '7006' }] },
			);

			expect(sent()).toEqual([
				['DELETE', '/firework/v4/identifiers/7005', {}],
				['DELETE', '/firework/v4/identifiers/7006', {}],
			]);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ deleted: true, identifierId: 7005 }, { item: 0 }],
				[{ deleted: true, identifierId: 7006 }, { item: 1 }],
			]);
		});
	});

	describe('locator values are checked before anything is sent', () => {
		it.each([
			[{ resource: 'identifier', operation: 'delete', identifierId: rl('id', '12.5') }, '- Enter the numeric ID of an identifier, e.g. 7001'],
			[{ resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId: rl('id', '../1') }, '- Enter the numeric ID of an identifier, e.g. 7001'],
			[
				{ resource: 'matchingPolicy', operation: 'assign', policyUuid: rl('id', 'not-a-uuid'), identifierIds: '7001' },
				'- Enter the UUID of a matching policy, e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10',
			],
			[{ resource: 'source', operation: 'get', sourceId: rl('id', '   ') }, '- Enter the ID of a source, e.g. collection-1'],
			[{ resource: 'source', operation: 'get', sourceId: rl('list', '') }, '- Parameter "Source" is required.'],
			[{ resource: 'identifier', operation: 'delete', identifierId: rl('list', '') }, '- Parameter "Identifier" is required.'],
		] as Array<[IDataObject, string]>)('n8n refuses to start with an invalid typed value: %j → %s', async (parameters, issue) => {
			// n8n checks every node's parameters, the "By ID" regex included, before a workflow starts.
			await expect(harness.runNode({ parameters })).rejects.toMatchObject({
				name: 'WorkflowHasIssuesError',
				message: `The 'Flare' node has issues:\n${issue}`,
			});
			expect(fake.requests).toEqual([]);
		});

		it.each([
			[{ resource: 'identifier', operation: 'delete', identifierId: rl('id', '={{ $json.value }}') }, '12.5', `'Identifier' must be a positive whole number, not "12.5" [item 0]`],
			[{ resource: 'identifier', operation: 'delete', identifierId: rl('list', '={{ $json.value }}') }, '', `'Identifier' must be a positive whole number, not "" [item 0]`],
			[{ resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId: rl('id', '={{ $json.value }}') }, '../1', `'Identifier' must be a positive whole number, not "../1" [item 0]`],
			[
				{ resource: 'matchingPolicy', operation: 'assign', policyUuid: rl('list', '={{ $json.value }}'), identifierIds: '7001' },
				'not-a-uuid',
				`'Matching Policy' is not a UUID: "not-a-uuid" [item 0]`,
			],
			[{ resource: 'matchingPolicy', operation: 'assign', policyUuid: rl('id', '={{ $json.value }}'), identifierIds: '7001' }, ' ', `'Matching Policy' is required [item 0]`],
			[{ resource: 'source', operation: 'get', sourceId: rl('id', '={{ $json.value }}') }, '   ', `'Source' is required [item 0]`],
			[{ resource: 'source', operation: 'get', sourceId: rl('list', '={{ $json.value }}') }, { id: 1 }, `'Source' must be text [item 0]`],
		] as Array<[IDataObject, IDataObject[string], string]>)('the node checks what an expression gives: %j with %j → %s', async (parameters, value, message) => {
			const result = await harness.runNode({ parameters }, { items: [{ value }] });

			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(message);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(fake.requests).toEqual([]);
		});

		it('a 404 names the ID taken from the locator', async () => {
			const result = await harness.runNode({
				parameters: { resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId: rl('list', '7999', 'Gone (7999)') },
			});

			expect(sent()).toEqual([['GET', '/firework/v4/matching-policies/by_identifier_id/7999', {}]]);
			expect(result.error?.message).toBe('Identifier 7999 was not found in Flare');
		});
	});
});
