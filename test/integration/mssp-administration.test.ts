/**
 * Tenant and member administration for MSSPs (issue 40), with an organization administrator's key:
 * Tenant → Create, Get, Update, Archive; Tenant User → Get Many, Add, Remove; Organization Member →
 * Get Many, Get, Update, Enable, Disable, Get Tenants; their pickers. Exact requests, items and
 * errors, in n8n-core against the fake over real HTTP.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { nextTurn } from '../support/node';
import { jsonOf, useFakeFlare } from './support';

const ORG = 4242;
const rl = (value: string | number): IDataObject => ({ __rl: true, mode: 'id', value: String(value) });

describe('MSSP administration: tenants, their users, the organization members', () => {
	const env = useFakeFlare({ credentials: 50, eventsPerTenant: 10, otherOrganizationTenants: [{ id: 909, name: 'Initech' }] });
	// The token test included: the organization endpoints read the key's organization from it.
	const sent = () =>
		env.fake.requests.filter((request) => request.path !== '/tokens/generate').map((request) => [request.method, request.path, request.query, request.body]);
	const run = (resource: string, operation: string, parameters: IDataObject = {}, items?: IDataObject[]) =>
		env.harness.runNode({ parameters: { resource, operation, ...parameters } }, items ? { items } : {});
	const tokenTest = ['GET', '/tokens/test', {}, undefined];

	describe('Tenant', () => {
		it('Create: the organization from the token test, then one POST of NewTenantInfo; the item is the new tenant, not stamped', async () => {
			const result = await run('tenant', 'create', { name: ' Globex ', industry: 'energy', additionalFields: { description: 'MSSP client 42' } });

			expect(sent()).toEqual([tokenTest, ['POST', `/firework/v2/organizations/${ORG}/tenants`, {}, { name: 'Globex', industry: 'energy', description: 'MSSP client 42' }]]);
			expect(jsonOf(result.output)).toEqual([env.fake.administration.organizationTenants().find((tenant) => tenant.id === 9901) && { ...env.fake.administration.tenant(9901) }]);
			expect(result.output[0].json).toMatchObject({ id: 9901, name: 'Globex', industry: 'energy' });
		});

		it("Create: a token test without the key's organization fails the item as a read, saying nothing was written", async () => {
			env.fake.faults.add({ path: '/tokens/test', fault: { status: 200, body: { user_id: 501 } } });

			const result = await run('tenant', 'create', { name: 'Globex' });

			expect(sent()).toEqual([tokenTest]);
			expect([result.error?.message, result.error?.description]).toEqual([
				"Flare's answer could not be used while trying to read the API key's organization",
				"Flare's token test answered with an object without a numeric 'organization_id', not the key's organization. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.",
			]);
		});

		it('Get: the tenant; an unknown one is a 404 naming it', async () => {
			const found = await run('tenant', 'get', { targetTenantId: rl(202) });
			const missing = await run('tenant', 'get', { targetTenantId: rl(4040) });

			expect(sent()).toEqual([
				['GET', '/firework/v2/tenants/202', {}, undefined],
				['GET', '/firework/v2/tenants/4040', {}, undefined],
			]);
			expect(jsonOf(found.output)).toEqual([env.fake.administration.tenant(202)]);
			expect([missing.error?.name, missing.error?.message]).toEqual(['NodeApiError', 'Tenant 4040 was not found in Flare']);
		});

		it('Update: reads the tenant, sends its four required settings back with the changes given', async () => {
			const before = env.fake.administration.tenant(101)!;

			const result = await run('tenant', 'update', { targetTenantId: rl(101), updateFields: { globalSearchCallsLimit: 50, preventGlobalSearch: false } });

			const body = { name: before.name, description: before.description, industry: before.industry, number_of_employees: before.number_of_employees, global_search_calls_limit: 50, prevent_global_search: false };
			expect(sent()).toEqual([
				['GET', '/firework/v2/tenants/101', {}, undefined],
				['PUT', '/firework/v2/tenants/101', {}, body],
			]);
			expect(env.fake.administration.tenant(101)?.global_search_calls_limit).toBe(50);
			expect(result.output[0].json).toMatchObject({ id: 101, name: before.name });
		});

		// The hostile review of issue 40, F3: Flare's Tenant shows prevent_global_search (v2 OpenAPI line 6067).
		it('Update of the name only: Prevent Global Search and a global-search limit are sent back as read, not reset', async () => {
			await run('tenant', 'update', { targetTenantId: rl(202), updateFields: { preventGlobalSearch: true } });
			env.fake.faults.add({ path: '/firework/v2/tenants/101', method: 'GET', phase: 'after', fault: { status: 200, body: { ...env.fake.administration.tenant(101), global_search_calls_limit: 25 } } });
			env.fake.clearLog();

			await run('tenant', 'update', { targetTenantId: rl(202), updateFields: { name: 'Renamed client' } });
			await run('tenant', 'update', { targetTenantId: rl(101), updateFields: { name: 'Acme Corp' } });

			const puts = sent().filter(([method]) => method === 'PUT');
			expect(puts.map(([, path, , body]) => [path, (body as IDataObject).prevent_global_search, (body as IDataObject).global_search_calls_limit])).toEqual([
				['/firework/v2/tenants/202', true, undefined],
				['/firework/v2/tenants/101', false, 25],
			]);
			expect(env.fake.administration.tenant(202)).toMatchObject({ name: 'Renamed client', prevent_global_search: true });
		});

		it('Update: a required setting Flare does not read back must be given, named, before anything is written', async () => {
			env.fake.faults.add({ path: '/firework/v2/tenants/101', method: 'GET', fault: { status: 200, body: { id: 101, name: 'Acme', industry: 'global', description: 'x' } } });

			const result = await run('tenant', 'update', { targetTenantId: rl(101), updateFields: { name: 'Acme Corp' } });

			expect([result.error?.name, result.error?.message]).toEqual([
				'NodeOperationError',
				"'Number of Employees' must be set: Flare's update of a tenant needs it, and its read of tenant 101 does not give it [item 0]",
			]);
			expect(env.fake.state.writes).toEqual([]);
		});

		it('Update of one tenant from two executions at once: one after the other, both changes kept', async () => {
			const [named, sized] = await Promise.all([
				run('tenant', 'update', { targetTenantId: rl(202), updateFields: { name: 'Acme EU' } }),
				run('tenant', 'update', { targetTenantId: rl(202), updateFields: { numberOfEmployees: 900 } }),
			]);

			expect([named.status, sized.status]).toEqual(['success', 'success']);
			expect(sent().map(([method]) => method)).toEqual(['GET', 'PUT', 'GET', 'PUT']);
			expect(env.fake.administration.tenant(202)).toMatchObject({ name: 'Acme EU', number_of_employees: 900 });
		});

		it('Archive: one POST, the item says which tenant', async () => {
			const result = await run('tenant', 'archive', { targetTenantId: rl(909) });

			expect(sent()).toEqual([['POST', '/firework/v2/tenants/909/archive', {}, undefined]]);
			expect(jsonOf(result.output)).toEqual([{ archived: true, tenantId: 909 }]);
			expect(env.fake.administration.tenant(909)?.is_archived).toBe(true);
		});

		it("a member's key: Flare's refusal says an organization administrator's key is needed", async () => {
			env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.noAstp, baseUrl: env.fake.url });

			const result = await run('tenant', 'get', { targetTenantId: rl(101) });

			expect(result.error?.message).toBe('Flare refused to get the tenant (HTTP 403)');
			expect(result.error?.description).toMatch(/^Only the API key of an organization administrator may do this \(a refusal, HTTP 403 expected: Flare documents none\)\./);
		});
	});

	describe('Tenant User', () => {
		it('Get Many, Return All: pages of 100 whose next is a number; each user as Flare lists it, not stamped', async () => {
			const result = await run('tenantUser', 'getAll', { targetTenantId: rl(101), returnAll: true, tenant: rl(202) });

			expect(sent()).toEqual([['GET', '/firework/v2/tenants/101/users', { size: '100' }, undefined]]);
			expect(jsonOf(result.output)).toEqual(env.fake.administration.usersOf(101));
		});

		it('Get Many, Limit 3: one page of 3', async () => {
			const result = await run('tenantUser', 'getAll', { targetTenantId: rl(101), limit: 3 });

			expect(sent()).toEqual([['GET', '/firework/v2/tenants/101/users', { size: '3' }, undefined]]);
			expect(jsonOf(result.output)).toEqual(env.fake.administration.usersOf(101).slice(0, 3));
		});

		it('Get Many, Return All: a next that Flare gives as a number goes back as from', async () => {
			const users = env.fake.administration.usersOf(101);
			env.fake.faults.add({ path: '/firework/v2/tenants/101/users', fault: { status: 200, body: { items: users.slice(0, 2), next: 2 } } });

			const result = await run('tenantUser', 'getAll', { targetTenantId: rl(101), returnAll: true });

			expect(sent()).toEqual([
				['GET', '/firework/v2/tenants/101/users', { size: '100' }, undefined],
				['GET', '/firework/v2/tenants/101/users', { from: '2', size: '100' }, undefined],
			]);
			expect(jsonOf(result.output)).toEqual(users);
		});

		it('Add, three items, the second an unknown user: in input order, each paired with its own result or error', async () => {
			const result = await env.harness.runNode(
				{ parameters: { resource: 'tenantUser', operation: 'add', targetTenantId: rl(202), userId: '={{ $json.user }}', role: '={{ $json.role }}' }, onError: 'continueRegularOutput' },
				{ items: [{ user: 520, role: 'editor' }, { user: 4040, role: 'viewer' }, { user: 516, role: 'admin' }] },
			);

			expect(sent()).toEqual([
				['POST', '/firework/v2/tenants/202/users', {}, { users: [{ user_id: 520, role: 'editor', is_readonly: false }] }],
				['POST', '/firework/v2/tenants/202/users', {}, { users: [{ user_id: 4040, role: 'viewer', is_readonly: false }] }],
				['POST', '/firework/v2/tenants/202/users', {}, { users: [{ user_id: 516, role: 'admin', is_readonly: false }] }],
			]);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
				[{ added: true, tenantId: 202, userId: 520, role: 'editor', readOnly: false }, { item: 0 }],
				[{ error: 'Tenant 202 or member 4040 was not found in Flare' }, { item: 1 }],
				[{ added: true, tenantId: 202, userId: 516, role: 'admin', readOnly: false }, { item: 2 }],
			]);
			expect(env.fake.administration.usersOf(202).filter((user) => [520, 516].includes(user.id)).map((user) => [user.id, user.role])).toEqual([[520, 'editor'], [516, 'admin']]);
		});

		it('Remove: one DELETE; a bad user ID is refused before any request, naming Member', async () => {
			const removed = await run('tenantUser', 'remove', { targetTenantId: rl(101), userId: rl(510) });
			const bad = await run('tenantUser', 'remove', { targetTenantId: rl(101), userId: rl('={{ "../1" }}') });

			expect(sent()).toEqual([['DELETE', '/firework/v2/tenants/101/users/510', {}, undefined]]);
			expect(jsonOf(removed.output)).toEqual([{ removed: true, tenantId: 101, userId: 510 }]);
			expect(env.fake.administration.usersOf(101).some((user) => user.id === 510)).toBe(false);
			expect(bad.error?.message).toBe(`'Member' must be a positive whole number, not "../1" [item 0]`);
		});
	});

	describe('Organization Member', () => {
		it('Get Many, searched, Return All: the token test, then pages of {members, next}', async () => {
			const all = await run('organizationMember', 'getAll', { returnAll: true });
			const found = await run('organizationMember', 'getAll', { filters: { search: 'analyst' } });

			expect(sent()).toEqual([
				tokenTest,
				['GET', `/firework/v2/organizations/${ORG}/members`, { size: '100' }, undefined],
				tokenTest,
				['GET', `/firework/v2/organizations/${ORG}/members`, { q: 'analyst', size: '50' }, undefined],
			]);
			expect(jsonOf(all.output)).toEqual(env.fake.administration.membersList());
			expect(jsonOf(found.output).map((member) => (member.user as IDataObject).email)).toEqual(['analyst@acme.com']);
		});

		it('Get Many, Limit 5: the fewest pages, following Flare\'s next', async () => {
			const result = await run('organizationMember', 'getAll', { limit: 5 });

			expect(jsonOf(result.output)).toEqual(env.fake.administration.membersList().slice(0, 5));
		});

		it('Get and Get Tenants: the member, and the tenants they can work in', async () => {
			const member = await run('organizationMember', 'get', { userId: rl(510) });
			const tenants = await run('organizationMember', 'getTenants', { userId: rl(501), returnAll: true });

			expect(sent()).toEqual([
				tokenTest,
				['GET', `/firework/v2/organizations/${ORG}/members/510`, {}, undefined],
				tokenTest,
				['GET', `/firework/v2/organizations/${ORG}/members/501/tenants`, { size: '100' }, undefined],
			]);
			expect(jsonOf(member.output)).toEqual([env.fake.administration.membersList().find((entry) => entry.user.id === 510)]);
			expect(jsonOf(tenants.output).map((tenant) => tenant.id)).toEqual([101, 202, 909]);
		});

		it('Update: reads the member, sends back name, surname and e-mail with the change, never the permissions', async () => {
			const { user } = env.fake.administration.membersList().find((entry) => entry.user.id === 510)!;

			const result = await run('organizationMember', 'update', { userId: rl(510), updateFields: { email: 'omar.h@acme.com' } });

			expect(sent()).toEqual([
				tokenTest,
				['GET', `/firework/v2/organizations/${ORG}/members/510`, {}, undefined],
				['PUT', `/firework/v2/organizations/${ORG}/members/510`, {}, { name: user.name, surname: user.surname, email: 'omar.h@acme.com' }],
			]);
			expect((result.output[0].json.user as IDataObject).email).toBe('omar.h@acme.com');
		});

		// The hostile review of issue 40, F4: a read without the member's user was sent back as a partial PUT.
		it("Update: a read whose member has no 'user' fails the item, saying what came; nothing is written", async () => {
			env.fake.faults.add({ path: `/firework/v2/organizations/${ORG}/members/510`, method: 'GET', fault: { status: 200, body: { member: { id: 510, name: 'Omar', email: 'omar@acme.com' } } } });

			const result = await run('organizationMember', 'update', { userId: rl(510), updateFields: { email: 'omar.h@acme.com' } });

			expect(sent().map(([method]) => method)).toEqual(['GET', 'GET']);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Flare's answer could not be used while trying to get the member"]);
			expect(result.error?.description).toMatch(/^Flare answered with a member whose 'user' is nothing, not the member's details\./);
			expect(env.fake.state.writes).toEqual([]);
		});

		it("Update of a disabled member: an answer that shows them enabled again fails the item, saying so and to disable them again", async () => {
			await run('organizationMember', 'disable', { userId: rl(511) });
			const { user } = env.fake.administration.membersList().find((entry) => entry.user.id === 511)!;
			// A Flare whose update replaces the member whole, and so enables them again.
			env.fake.faults.add({ path: `/firework/v2/organizations/${ORG}/members/511`, method: 'PUT', phase: 'after', fault: { status: 200, body: { member: { user: { ...user, is_disabled: false }, tenant_count: 1 } } } });

			const result = await run('organizationMember', 'update', { userId: rl(511), updateFields: { surname: 'Leaver' } });

			expect(sent().filter(([method]) => method === 'PUT')).toHaveLength(1);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Member 511 was updated, but Flare's answer shows them enabled"]);
			expect(result.error?.description).toMatch(/^They were disabled when read, just before the update \(is_disabled true; Flare's answer: false\)\..* disable them again \(Organization Member → Disable\) if needed\. The request was not sent again/);
		});

		it('Disable and Update of one member at once: one after the other, the update reads the state the disable left', async () => {
			env.fake.faults.add({ path: /\/members\/512\/disable$/, fault: { delayMs: 2_000 } });
			const disabling = run('organizationMember', 'disable', { userId: rl(512) });
			for (let turn = 0; turn < 200 && !sent().some(([method]) => method === 'POST'); turn++) await nextTurn();

			const [disabled, updated] = await Promise.all([disabling, run('organizationMember', 'update', { userId: rl(512), updateFields: { surname: 'Leaver' } })]);

			expect([disabled.status, updated.status]).toEqual(['success', 'success']);
			const member = `/firework/v2/organizations/${ORG}/members/512`;
			expect(sent().map(([method, path]) => `${method} ${path}`)).toEqual(['GET /tokens/test', `POST ${member}/disable`, 'GET /tokens/test', `GET ${member}`, `PUT ${member}`]);
			expect((updated.output[0].json.user as IDataObject).is_disabled).toBe(true);
		});

		it('Disable then Enable (offboarding a leaver, and back): the state Flare answers; an answer that keeps the member enabled fails the item', async () => {
			const disabled = await run('organizationMember', 'disable', { userId: rl(512) });
			expect(env.fake.administration.membersList().find((entry) => entry.user.id === 512)?.user.is_disabled).toBe(true);
			const enabled = await run('organizationMember', 'enable', { userId: rl(512) });
			env.fake.faults.add({ path: /\/disable$/, fault: { status: 200, body: { is_disabled: false } } });
			const kept = await run('organizationMember', 'disable', { userId: rl(513) });

			expect(jsonOf(disabled.output)).toEqual([{ userId: 512, is_disabled: true }]);
			expect(jsonOf(enabled.output)).toEqual([{ userId: 512, is_disabled: false }]);
			expect([kept.error?.name, kept.error?.message]).toEqual(['NodeApiError', 'Flare accepted the request to disable the member (HTTP 200), but its answer could not be used']);
			expect(kept.error?.description).toMatch(/^Flare answered that member 513 has is_disabled false\./);
			expect(sent().filter(([method]) => method === 'POST').map(([, path]) => path)).toEqual([
				`/firework/v2/organizations/${ORG}/members/512/disable`,
				`/firework/v2/organizations/${ORG}/members/512/enable`,
				`/firework/v2/organizations/${ORG}/members/513/disable`,
			]);
		});
	});

	describe('pickers', () => {
		const pick = async (method: string, filter?: string): Promise<INodeListSearchResult> =>
			(await env.harness.listOptions({
				kind: 'listSearch',
				method,
				parameters: { resource: 'tenantUser', operation: 'add' },
				path: 'parameters.userId',
				filter,
			})) as INodeListSearchResult;

		it("Target Tenant lists the organization's tenants; Member searches the members through Flare", async () => {
			const tenants = await pick('searchOrganizationTenants');
			const members = await pick('searchOrganizationMembers', 'analyst');

			expect(tenants.results).toEqual([
				{ name: 'Acme Corporation (101)', value: '101' },
				{ name: 'Acme Europe (202)', value: '202' },
				{ name: 'Initech (909)', value: '909' },
			]);
			expect(members.results).toEqual([{ name: 'Jane Analyst (analyst@acme.com, 501)', value: '501' }]);
			expect(sent().filter(([, path]) => path !== '/tokens/test').map(([, path, query]) => [path, query])).toEqual([
				[`/firework/v2/organizations/${ORG}/tenants`, { size: '100' }],
				[`/firework/v2/organizations/${ORG}/members`, { q: 'analyst', size: '100' }],
			]);
		});
	});
});
