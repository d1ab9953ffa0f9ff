/**
 * Identifier → Create, Get, Get Many, Update and Tenant → Get Many through the real engine, against
 * the fake's oracles (docs/feed-endpoints.md §9–10): exact requests and bodies, exact records,
 * paging to the end, Limit, the list filters, bad input before any request, Update's read-and-merge,
 * pairing and Flare's failures.
 */
import type { IDataObject } from 'n8n-workflow';

import { IdentifierCreateBody, IdentifierUpdateBody, PublicIdentifier, TenantList } from '../contract';
import { planted, type FakeFlare } from '../fake-flare';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const LIST_PATH = '/firework/v4/identifiers/';
const path = (id: number) => `/firework/v4/identifiers/${id}`;
/** The tenant of the harness's credential (the fake's first). */
const TENANT = 101;
/** The id the fake gives the first identifier created. */
const FIRST_NEW_ID = 7031;

const identifier = (operation: string, parameters: IDataObject = {}) => ({
	parameters: { resource: 'identifier', operation, ...parameters },
});
const byId = (id: number | string) => ({ __rl: true, mode: 'id', value: String(id) });
/** Identifiers as the node outputs them by default: a `secret` identifier's secret masked. */
const asOutput = <T>(fake: FakeFlare, records: T): T => maskedView(records, fake.plantedValues());
/** A monitored secret typed into the form (planted, so that the leaked-value scan looks for it). */
const SECRET = ` ${planted('AKIA EXAMPLE')} `;

describe('Identifier → Create', () => {
	const flare = useFakeFlare({ credentials: 100 });

	it('sends what it watches, categories, severities (lowest first), name and group, and emits the new identifier', async () => {
		const result = await flare.harness.runNode(
			identifier('create', {
				identifierType: 'domain',
				fqdn: ' Acme.com. ',
				categories: ['stealer_log', 'leaked_credential', 'stealer_log'],
				severities: ['critical', 'medium', 'high'],
				additionalFields: { name: ' Main website ', groupId: '102' },
			}),
		);

		expect(result.status).toBe('success');
		const [request] = apiRequests(flare.fake);
		expect([request.method, request.path, request.status]).toEqual(['POST', LIST_PATH, 200]);
		expect(request.body).toEqual({
			data: { type: 'domain', fqdn: 'acme.com' },
			name: 'Main website',
			categories: ['stealer_log', 'leaked_credential'],
			emerging_categories: [],
			severities: ['medium', 'high', 'critical'],
			group_id: 102,
		});
		IdentifierCreateBody.parse(request.body);
		const stored = flare.fake.dataset.identifier(FIRST_NEW_ID, TENANT);
		expect(stored).toMatchObject({ name: 'Main website', group_id: 102, data: { type: 'domain', fqdn: 'acme.com' } });
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, [stored]));
		PublicIdentifier.parse(result.output[0].json);
		expect(flare.fake.state.writes).toHaveLength(1);
	});

	it.each([
		[{ identifierType: 'keyword', keyword: ' acme corp ' }, { type: 'keyword', keyword: 'acme corp' }],
		[{ identifierType: 'ip', ip: '203.0.113.0/24' }, { type: 'ip', ip: '203.0.113.0/24' }],
		[{ identifierType: 'ip', ip: '2001:db8::ff00:42:8329' }, { type: 'ip', ip: '2001:db8::ff00:42:8329' }],
		[{ identifierType: 'bin', bin: '41234567' }, { type: 'bin', bin: '41234567' }],
		[{ identifierType: 'azure_tenant', azureTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' }, { type: 'azure_tenant', tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47' }],
		[{ identifierType: 'search_query', searchQuery: '"acme corp" AND password' }, { type: 'search_query', search_query: '"acme corp" AND password' }],
		[{ identifierType: 'github_repository', repoOwner: 'acme', repoName: 'web.site' }, { type: 'github_repository', repo_owner: 'acme', repo_name: 'web.site' }],
		[{ identifierType: 'secret', secret: SECRET }, { type: 'secret', secret: SECRET }],
		[
			{
				identifierType: 'identity',
				identityAttributes: {
					emails: [{ email: 'jane.doe@acme.com' }],
					names: [{ firstName: 'Jane', lastName: 'Doe', strict: true }],
					usernames: [{ username: 'jdoe' }],
				},
			},
			{
				type: 'identity',
				attributes: [
					{ type: 'email', email: 'jane.doe@acme.com' },
					{ type: 'name', first_name: 'Jane', last_name: 'Doe', is_strict: true },
					{ type: 'username', username: 'jdoe' },
				],
			},
		],
	])('watches %j', async (parameters, data) => {
		const result = await flare.harness.runNode(identifier('create', { ...parameters, categories: ['leak'] }));

		expect(result.status).toBe('success');
		const [request] = apiRequests(flare.fake);
		expect(request.body).toEqual({
			data,
			// Without a Name, a secret identifier is named by its masked secret (docs/api-contract.md, "Masking").
			...(data.type === 'secret' ? { name: 'Secret P********D' } : {}),
			categories: ['leak'],
			emerging_categories: [],
			severities: ['info', 'low', 'medium', 'high', 'critical'],
		});
		IdentifierCreateBody.parse(request.body);
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, [flare.fake.dataset.identifier(FIRST_NEW_ID, TENANT)]));
		expect(result.output[0].json.data).toEqual(asOutput(flare.fake, data));
	});

	const fifteen = { emails: Array.from({ length: 16 }, (_, k) => ({ email: `user${k}@acme.com` })) };

	it.each([
		[{ identifierType: 'domain', fqdn: 'https://acme.com/' }, `'Domain' is not a domain name: "https://acme.com/" [item 0]`],
		[{ identifierType: 'ip', ip: '203.0.113.256' }, `'IP Address' is not an IP address or network: "203.0.113.256" [item 0]`],
		[{ identifierType: 'ip', ip: '203.0.113.0/33' }, `'IP Address' is not an IP address or network: "203.0.113.0/33" [item 0]`],
		[{ identifierType: 'ip', ip: 'fe80::1%eth0' }, `'IP Address' is not an IP address or network: "fe80::1%eth0" [item 0]`],
		[{ identifierType: 'bin', bin: '41234' }, `'BIN' is not a BIN: "41234" [item 0]`],
		[{ identifierType: 'github_repository', repoOwner: 'acme/website', repoName: 'website' }, `'Repository Owner' is not a GitHub user or organization name: "acme/website" [item 0]`],
		[{ identifierType: 'secret', secret: '={{ "  " }}' }, `'Secret' is required [item 0]`],
		[{ identifierType: 'identity', identityAttributes: {} }, `'Attributes' needs at least one e-mail address, name or username [item 0]`],
		[{ identifierType: 'identity', identityAttributes: { emails: [{ email: 'jane@' }] } }, `'Attributes' has an e-mail address that is not valid: "jane@" [item 0]`],
		[{ identifierType: 'identity', identityAttributes: { names: [{ firstName: 'Jane', lastName: '' }] } }, `'Attributes' has an empty last name [item 0]`],
		[{ identifierType: 'identity', identityAttributes: fifteen }, `'Attributes' has 16 attributes; Flare takes at most 15 [item 0]`],
		[{ identifierType: 'keyword', keyword: 'acme', categories: '={{ [] }}' }, `'Categories' needs at least one category [item 0]`],
		[{ identifierType: 'keyword', keyword: 'acme', categories: ['leak', 'rumours'] }, `'Categories' has an unknown value: "rumours" [item 0]`],
		[{ identifierType: 'keyword', keyword: 'acme', severities: [] }, `'Severities' needs at least one severity [item 0]`],
		[{ identifierType: 'keyword', keyword: 'acme', additionalFields: { groupId: 'sales' } }, `'Identifier Group' must be a positive whole number, not "sales" [item 0]`],
	])('rejects %j before any request', async (parameters, message) => {
		const result = await flare.harness.runNode(identifier('create', { categories: ['leak'], ...parameters }));

		expect(result.error?.message).toBe(message);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(flare.fake.requests).toEqual([]);
	});

	it("shows Flare's refusal of a value", async () => {
		flare.fake.faults.add({
			path: LIST_PATH,
			method: 'POST',
			fault: { status: 400, body: { error: { code: 'INVALID_IDENTIFIER_DATA', message: 'fqdn is invalid', data: null } } },
		});

		const result = await flare.harness.runNode(identifier('create', { fqdn: 'acme.com', categories: ['leak'] }));

		expect(result.error?.message).toBe('Flare could not create the identifier (HTTP 400)');
		expect(result.error?.description).toBe('fqdn is invalid');
	});

	it('is never sent twice once Flare may have created it', async () => {
		flare.fake.faults.add({ path: LIST_PATH, method: 'POST', phase: 'after', fault: { status: 503 } });

		const result = await flare.harness.runNode(identifier('create', { fqdn: 'acme.com', categories: ['leak'] }));

		expect(result.error?.message).toBe('Flare did not confirm the request to create the identifier');
		expect(apiRequests(flare.fake)).toHaveLength(1);
		expect(flare.fake.dataset.identifierExists(FIRST_NEW_ID)).toBe(true);
	});
});

describe('Identifier → Get', () => {
	const flare = useFakeFlare({ credentials: 100 });

	it('gets the identifier by ID', async () => {
		const result = await flare.harness.runNode(identifier('get', { identifierId: byId(' 7003 ') }));

		expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.status])).toEqual([['GET', path(7003), 200]]);
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, [flare.fake.dataset.identifier(7003, TENANT)]));
		PublicIdentifier.parse(result.output[0].json);
	});

	it('one output item per input item, paired; an unknown one fails alone', async () => {
		const result = await flare.harness.runNode(
			{ ...identifier('get', { identifierId: '={{ $json.id }}' }), onError: 'continueRegularOutput' },
			{ items: [{ id: 7001 }, { id: 7999 }, { id: 7002 }] },
		);

		expect(result.output.map((item) => [item.json.id ?? item.json.error, item.pairedItem])).toEqual([
			[7001, { item: 0 }],
			['Identifier 7999 was not found in Flare', { item: 1 }],
			[7002, { item: 2 }],
		]);
	});
});

describe('Identifier → Get Many', () => {
	const flare = useFakeFlare({ credentials: 100 });

	it('a Limit is one request of that size, by ID', async () => {
		const result = await flare.harness.runNode(identifier('getAll', { limit: 5 }));

		expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.query])).toEqual([
			['GET', LIST_PATH, { order_by: 'id', size: '5' }],
		]);
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, flare.fake.dataset.identifiers(TENANT).slice(0, 5)));
	});

	it('Return All walks pages of 100 to the end, through empty and short pages', async () => {
		flare.fake.reset({ credentials: 100, identifiers: 260, quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });

		const result = await flare.harness.runNode(identifier('getAll', { returnAll: true, options: { orderBy: 'name' } }));

		expect(result.status).toBe('success');
		const expected = flare.fake.dataset.identifiers(TENANT, 'name');
		expect(expected).toHaveLength(260);
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, expected));
		const queries = apiRequests(flare.fake).map((request) => request.query);
		// 100, empty, 50 (short), empty, the last 110 in two pages.
		expect(queries.map((query) => [query.size, query.order_by])).toEqual(Array(6).fill(['100', 'name']));
		expect(new Set(queries.slice(1).map((query) => query.from)).size).toBe(5);
	});

	it('sends every filter, the types as repeated keys, and gets only what matches', async () => {
		const matches = (record: PublicIdentifier) =>
			['ip', 'bin'].includes(record.data.type) && record.group_id === 101 && !record.is_disabled;

		const result = await flare.harness.runNode(
			identifier('getAll', { returnAll: true, filters: { types: ['ip', 'bin'], groupId: 101, isDisabled: false } }),
		);

		const [request] = apiRequests(flare.fake);
		// The log keeps the first value of a repeated key; the items show that Flare read both.
		expect(request.query).toEqual({ order_by: 'id', is_disabled: 'false', group_id: '101', types: 'ip', size: '100' });
		const expected = flare.fake.dataset.identifiers(TENANT).filter(matches);
		expect(new Set(expected.map((record) => record.data.type))).toEqual(new Set(['ip', 'bin']));
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, expected));
	});

	it('filters on the authorization status of domain identifiers', async () => {
		await flare.harness.runNode(identifier('create', { fqdn: 'new.acme.com', categories: ['leak'] }));

		const result = await flare.harness.runNode(identifier('getAll', { returnAll: true, filters: { authorizationStatus: 'pending' } }));

		expect(apiRequests(flare.fake)[1].query).toEqual({ order_by: 'id', authorization_status: 'pending', size: '100' });
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, [flare.fake.dataset.identifier(FIRST_NEW_ID, TENANT)]));
	});

	it('rejects bad filters before any request', async () => {
		const group = await flare.harness.runNode(identifier('getAll', { filters: { groupId: '-3' } }));
		const disabled = await flare.harness.runNode(identifier('getAll', { filters: { isDisabled: '={{ "yes" }}' } }));
		const types = await flare.harness.runNode(identifier('getAll', { filters: { types: ['domain', 'email'] } }));

		expect(group.error?.message).toBe(`'Identifier Group' must be a positive whole number, not "-3" [item 0]`);
		expect(disabled.error?.message).toBe(`'Disabled' must be true or false [item 0]`);
		expect(types.error?.message).toBe(`'Types' has an unknown value: "email" [item 0]`);
		expect(flare.fake.requests).toEqual([]);
	});
});

describe('Identifier → Update', () => {
	const flare = useFakeFlare({ credentials: 100 });
	const update = (id: number, parameters: IDataObject) => identifier('update', { identifierId: byId(id), ...parameters });

	it('reads the identifier, reads it again just before the write, then sends it back with the one change: the other fields keep their values', async () => {
		const before = flare.fake.dataset.identifier(7002, TENANT);

		const result = await flare.harness.runNode(update(7002, { updateFields: { name: 'Acme mentions' } }));

		expect(result.status).toBe('success');
		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.status])).toEqual([
			['GET', path(7002), 200],
			['GET', path(7002), 200],
			['PUT', path(7002), 200],
		]);
		const body = {
			data: before.data,
			name: 'Acme mentions',
			categories: before.categories,
			emerging_categories: before.emerging_categories,
			severities: before.severities,
			group_id: before.group_id,
			is_disabled: before.is_disabled,
		};
		expect(requests[2].body).toEqual(body);
		IdentifierUpdateBody.parse(requests[2].body);
		const after = flare.fake.dataset.identifier(7002, TENANT);
		expect(after).toEqual({ ...before, name: 'Acme mentions', updated_at: after.updated_at });
		expect(jsonOf(result.output)).toEqual([after]);
	});

	it('replaces what it watches, the categories, the severities and the state when asked', async () => {
		const before = flare.fake.dataset.identifier(7001, TENANT);
		expect(before.data.type).toBe('domain');

		const result = await flare.harness.runNode(
			update(7001, {
				replaceData: true,
				identifierType: 'keyword',
				keyword: 'acme',
				updateFields: { categories: ['paste'], severities: ['high', 'low'], isDisabled: true, groupId: '7' },
			}),
		);

		expect(apiRequests(flare.fake)[2].body).toEqual({
			data: { type: 'keyword', keyword: 'acme' },
			name: before.name,
			categories: ['paste'],
			emerging_categories: before.emerging_categories,
			severities: ['low', 'high'],
			group_id: 7,
			is_disabled: true,
		});
		expect(jsonOf(result.output)).toEqual(asOutput(flare.fake, [flare.fake.dataset.identifier(7001, TENANT)]));
		expect(result.output[0].json).toMatchObject({ data: { type: 'keyword', keyword: 'acme' }, is_disabled: true, group_id: 7 });
	});

	it('with nothing to change, or a bad change, stops before any request', async () => {
		const nothing = await flare.harness.runNode(update(7001, { updateFields: { name: '  ' } }));
		const badData = await flare.harness.runNode(update(7001, { replaceData: true, identifierType: 'bin', bin: '12' }));
		const noSeverity = await flare.harness.runNode(update(7001, { updateFields: { severities: [] } }));

		expect(nothing.error?.message).toBe(`'Update Fields' has nothing to change [item 0]`);
		expect(nothing.error?.description).toBe('Add a field to change under Update Fields, or turn on Replace What It Watches.');
		expect(badData.error?.message).toBe(`'BIN' is not a BIN: "12" [item 0]`);
		expect(noSeverity.error?.message).toBe(`'Severities' needs at least one severity [item 0]`);
		expect(flare.fake.requests).toEqual([]);
	});

	it('an unknown identifier fails at the read: nothing is written', async () => {
		const result = await flare.harness.runNode(update(7999, { updateFields: { name: 'X' } }));

		expect(result.error?.message).toBe('Identifier 7999 was not found in Flare');
		expect(apiRequests(flare.fake).map((request) => [request.method, request.status])).toEqual([['GET', 404]]);
		expect(flare.fake.state.writes).toEqual([]);
	});

	it('the read is retried after a 5xx; the write is never sent twice', async () => {
		flare.fake.faults.add({ path: path(7003), method: 'GET', fault: { status: 503 } });
		flare.fake.faults.add({ path: path(7003), method: 'PUT', phase: 'after', fault: { status: 502 } });

		const result = await flare.harness.runNode(update(7003, { updateFields: { name: 'Y' } }));

		expect(result.error?.message).toBe('Flare did not confirm the request to update the identifier');
		expect(apiRequests(flare.fake).map((request) => [request.method, request.status])).toEqual([
			['GET', 503],
			['GET', 200],
			['GET', 200],
			['PUT', 502],
		]);
		expect(flare.fake.state.writes).toHaveLength(1);
	});

	it('maps a 422 on the body to the field', async () => {
		flare.fake.faults.add({
			path: path(7004),
			method: 'PUT',
			fault: { status: 422, body: { detail: [{ loc: ['body', 'severities', 0], msg: 'not a severity', type: 'enum' }] } },
		});

		const result = await flare.harness.runNode(update(7004, { updateFields: { severities: ['low'] } }));

		expect(result.error?.message).toBe("Flare rejected the value of 'Severities'");
	});

	it('continue on fail: each item is read and written on its own, paired', async () => {
		const result = await flare.harness.runNode(
			{ ...identifier('update', { identifierId: '={{ $json.id }}', updateFields: { name: '={{ $json.name }}' } }), onError: 'continueRegularOutput' },
			{ items: [{ id: 7005, name: 'First' }, { id: 7999, name: 'Lost' }, { id: 7006, name: 'Second' }] },
		);

		expect(result.output.map((item) => [item.json.name ?? item.json.error, item.pairedItem])).toEqual([
			['First', { item: 0 }],
			['Identifier 7999 was not found in Flare', { item: 1 }],
			['Second', { item: 2 }],
		]);
		expect(flare.fake.state.writes.map((write) => write.path)).toEqual([path(7005), path(7006)]);
	});
	it.each([
		['a list', [{ id: 7001 }], 'is a list, not an identifier'],
		['without data', { categories: ['leak'], emerging_categories: [], severities: ['high'] }, "has no 'data'"],
		['data without a type', { data: { fqdn: 'acme.com' }, categories: ['leak'], emerging_categories: [], severities: ['high'] }, "has no 'data.type'"],
		['without categories', { data: { type: 'domain', fqdn: 'acme.com' }, emerging_categories: [], severities: ['high'] }, "has no 'categories'"],
		['severities a text', { data: { type: 'domain', fqdn: 'acme.com' }, categories: ['leak'], emerging_categories: [], severities: 'high' }, "has a 'severities' that is not a list of texts"],
		['without emerging_categories', { data: { type: 'domain', fqdn: 'acme.com' }, categories: ['leak'], severities: ['high'] }, "has no 'emerging_categories'"],
		['a numeric name', { data: { type: 'domain', fqdn: 'acme.com' }, name: 5, categories: ['leak'], emerging_categories: [], severities: ['high'] }, "has a 'name' of the wrong type"],
		['the v3 shape', { identifier: { id: 7001, name: 'example.com' } }, "has no 'data'"],
	])('checks what it read: an answer %s fails, naming what is missing, and nothing is written', async (_shape, body, problem) => {
		flare.fake.faults.add({ path: path(7001), method: 'GET', fault: { status: 200, body } });

		const result = await flare.harness.runNode(update(7001, { updateFields: { name: 'X' } }));

		expect([result.error?.name, result.error?.message, result.error?.description]).toEqual([
			'NodeApiError',
			"Flare's answer could not be used while trying to get the identifier",
			`Flare's answer to the read of identifier 7001 ${problem}, so nothing was written. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`,
		]);
		expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['GET']);
		expect(flare.fake.state.writes).toEqual([]);
	});

	it('refuses to write when the identifier changed between its read and the write: run it again', async () => {
		const before = flare.fake.dataset.identifier(7002, TENANT);
		// The read just before the write sees a rename made meanwhile (by another n8n process).
		flare.fake.faults.add({ path: path(7002), method: 'GET', skip: 1, fault: { status: 200, body: { ...before, name: 'Renamed meanwhile', updated_at: '2026-11-25T10:00:00+00:00' } } });

		const result = await flare.harness.runNode(update(7002, { updateFields: { isDisabled: true } }));

		expect([result.error?.name, result.error?.message, result.error?.description]).toEqual([
			'NodeOperationError',
			'Identifier 7002 changed in Flare while it was being updated [item 0]',
			'Something else (another n8n process, or someone in Flare) changed it between the read and the write, so nothing was written. Run the node again: it reads it anew.',
		]);
		expect(apiRequests(flare.fake).map((request) => [request.method, request.status])).toEqual([['GET', 200], ['GET', 200]]);
		expect(flare.fake.state.writes).toEqual([]);
	});

	it('sees a change within the same second, whose updated_at is the same', async () => {
		const before = flare.fake.dataset.identifier(7002, TENANT);
		flare.fake.faults.add({ path: path(7002), method: 'GET', skip: 1, fault: { status: 200, body: { ...before, severities: ['critical'] } } });

		const result = await flare.harness.runNode(update(7002, { updateFields: { name: 'Acme' } }));

		expect(result.error?.message).toBe('Identifier 7002 changed in Flare while it was being updated [item 0]');
		expect(flare.fake.state.writes).toEqual([]);
	});

	/** What two secret identifiers watch (made-up keys). */
	const WATCHED = ['AKIA-PROD-KEY-0001', 'AKIA-PROD-KEY-0002'];

	it('a secret identifier: never writes back the secret it read; with Replace What It Watches, sends the one entered', async () => {
		const created = await flare.harness.runNode(
			identifier('create', { identifierType: 'secret', secret: WATCHED[0], categories: ['leak'], severities: ['high'] }),
		);
		const id = Number(created.output[0].json.id);
		flare.fake.clearLog();

		const rename = await flare.harness.runNode(update(id, { updateFields: { name: 'Prod key' } }));

		expect([rename.error?.name, rename.error?.message, rename.error?.description]).toEqual([
			'NodeOperationError',
			`'Replace What It Watches' must be on to update identifier ${id}, a secret [item 0]`,
			"Flare's docs do not say whether a secret is read back in clear, so the node never writes back the secret it read. Turn on Replace What It Watches and enter the secret again.",
		]);
		expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['GET']);

		flare.fake.clearLog();
		const replaced = await flare.harness.runNode(
			update(id, { replaceData: true, identifierType: 'secret', secret: WATCHED[1], updateFields: { name: 'Prod key' } }),
		);

		expect(replaced.status).toBe('success');
		const put = apiRequests(flare.fake).find((request) => request.method === 'PUT');
		expect(put?.body).toMatchObject({ data: { type: 'secret', secret: WATCHED[1] }, name: 'Prod key' });
	});

	it('bounds a new name before anything is sent', async () => {
		const result = await flare.harness.runNode(update(7001, { updateFields: { name: '={{ "n".repeat(256) }}' } }));

		expect(result.error?.message).toBe(`'Name' is too long: 256 characters, at most 255 [item 0]`);
		expect(flare.fake.requests).toEqual([]);
	});
});

describe('Tenant → Get Many', () => {
	const flare = useFakeFlare({ credentials: 100 });

	it('emits one item per tenant, whatever tenant the credential works in', async () => {
		const result = await flare.harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll' } });

		expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.status])).toEqual([
			['GET', '/firework/v2/me/tenants', 200],
		]);
		const { tenants } = TenantList.parse({ tenants: jsonOf(result.output) });
		expect(tenants).toEqual(flare.fake.feed.tenants());
		expect(tenants).toEqual([
			{ id: 101, name: 'Acme Corporation' },
			{ id: 202, name: 'Acme Europe' },
		]);
		expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it.each([
		['a bare list', [{ id: 101, name: 'Acme Corporation' }, { id: 202, name: 'Acme Europe' }]],
		['{ tenants: [] }', { tenants: [] }],
	])('reads %s as the tenants', async (_shape, body) => {
		flare.fake.faults.add({ path: '/firework/v2/me/tenants', fault: { status: 200, body } });

		const result = await flare.harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll' } });

		expect(result.status).toBe('success');
		expect(jsonOf(result.output)).toEqual(Array.isArray(body) ? body : []);
		expect(result.output.map((item) => item.pairedItem)).toEqual(result.output.map(() => ({ item: 0 })));
	});

	it.each([
		['{}', {}, "Flare answered with an object without 'tenants', not a list of tenants"],
		['{ items: [...] }', { items: [{ id: 101 }] }, "Flare answered with an object without 'tenants', not a list of tenants"],
		['{ tenants: "101" }', { tenants: '101' }, "Flare answered with an object whose 'tenants' is a text, not a list of tenants"],
		['{ tenants: [101, 202] }', { tenants: [101, 202] }, "Flare's answer holds tenants that are not objects"],
		['null', null, 'Flare answered with null, not a record or a list of records'],
		['a number', 42, 'Flare answered with a number, not a record or a list of records'],
		['a list of numbers', [101, 202], "Flare's answer holds 2 of 2 entries that are not objects"],
	])('fails clearly on an answer of another shape: %s', async (_shape, body, what) => {
		flare.fake.faults.add({ path: '/firework/v2/me/tenants', fault: { status: 200, rawBody: JSON.stringify(body) } });

		const result = await flare.harness.runNode({ parameters: { resource: 'tenant', operation: 'getAll' } });

		expect(result.status).toBe('error');
		expect([result.error?.name, result.error?.message, result.error?.description]).toEqual([
			'NodeApiError',
			"Flare's answer could not be used while trying to list tenants",
			`${what}. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`,
		]);
		expect(result.output).toEqual([]);
	});
});
