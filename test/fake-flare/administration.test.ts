/**
 * The fake's routes of issue 40, against the contract (test/contract/administration.ts): tenant and
 * member administration, a tenant's users, platform reports, Threat Flow delete and publish, an
 * event's conversation, and an identifier group's rename.
 */
import {
	AdministeredTenant,
	EnableState,
	ErrorEnvelope,
	MemberPage,
	MemberWithMetadata,
	OrganizationTenant,
	pageOf,
	PublicReport,
	PublicReportPage,
	RelatedConversation,
	ThreatFlowReport,
	TenantUsersPage,
	ValidationErrorEnvelope,
} from '../contract';
import { call, tokenFor } from './client';
import { FakeFlare } from './index';
import { plantedInConversation } from './threat-flow';

let fake: FakeFlare;
let token: string;

beforeAll(async () => {
	fake = await FakeFlare.start({ otherOrganizationTenants: [{ id: 909, name: 'Initech' }] });
});
afterAll(async () => fake.stop());
beforeEach(async () => {
	fake.reset();
	token = await tokenFor(fake);
});

const ORG = 4242;
const TenantPage = pageOf(OrganizationTenant);

describe('tenants of the organization', () => {
	it('lists, creates, gets, updates and archives; each write recorded', async () => {
		const listed = TenantPage.parse((await call(fake, 'GET', `/firework/v2/organizations/${ORG}/tenants?size=100`, { token })).json);
		expect(listed.items.map((tenant) => tenant.id)).toEqual([101, 202, 909]);

		const created = await call(fake, 'POST', `/firework/v2/organizations/${ORG}/tenants`, { token, body: { name: 'Globex', industry: 'energy' } });
		const tenant = AdministeredTenant.parse(created.json);
		expect([tenant.id, tenant.name, tenant.industry, tenant.description]).toEqual([9901, 'Globex', 'energy', '']);

		const got = await call(fake, 'GET', `/firework/v2/tenants/${tenant.id}`, { token });
		expect(AdministeredTenant.parse(got.json)).toEqual(tenant);

		const body = { name: 'Globex Inc', description: 'MSSP client', industry: 'energy', number_of_employees: 40, global_search_calls_limit: 50 };
		const updated = AdministeredTenant.parse((await call(fake, 'PUT', `/firework/v2/tenants/${tenant.id}`, { token, body })).json);
		expect([updated.name, updated.number_of_employees, 'global_search_calls_limit' in updated]).toEqual(['Globex Inc', 40, false]);
		expect(fake.administration.tenant(tenant.id)?.global_search_calls_limit).toBe(50);

		const archived = await call(fake, 'POST', `/firework/v2/tenants/${tenant.id}/archive`, { token });
		expect([archived.status, archived.text]).toEqual([200, '']);
		expect(fake.administration.tenant(tenant.id)?.is_archived).toBe(true);
		expect(fake.state.writes.map((write) => write.method)).toEqual(['POST', 'PUT', 'POST']);
	});

	it('an update without the four required fields is a 422 naming the first missing; an unknown tenant a v2 404', async () => {
		const partial = await call(fake, 'PUT', '/firework/v2/tenants/101', { token, body: { name: 'X' } });
		expect(partial.status).toBe(422);
		expect(ValidationErrorEnvelope.parse(partial.json).detail.map((entry) => entry.loc)).toContainEqual(['body', 'description']);
		const missing = await call(fake, 'GET', '/firework/v2/tenants/4040', { token });
		expect([missing.status, missing.json]).toEqual([404, { message: 'Tenant 4040 not found', code: 'NOT_FOUND' }]);
	});

	it("a member's key, or another organization: 403, nothing changes", async () => {
		const member = await tokenFor(fake, 'noAstp');
		for (const [method, path] of [['GET', '/firework/v2/tenants/101'], ['POST', `/firework/v2/organizations/${ORG}/tenants`], ['GET', `/firework/v2/organizations/${ORG}/members`]] as const) {
			const result = await call(fake, method, path, { token: member, body: method === 'POST' ? { name: 'X' } : undefined });
			expect([path, result.status, ErrorEnvelope.parse(result.json).error.code]).toEqual([path, 403, 'FORBIDDEN']);
		}
		const other = await call(fake, 'GET', '/firework/v2/organizations/1/members', { token });
		expect(other.status).toBe(403);
		expect(fake.state.writes).toEqual([]);
	});
});

describe("a tenant's users", () => {
	it('lists in pages whose next is a number, adds with a role, removes; an unknown user is a 404 and nothing changes', async () => {
		const first = TenantUsersPage.parse((await call(fake, 'GET', '/firework/v2/tenants/101/users?size=2', { token })).json);
		expect([first.items.length, first.next]).toEqual([2, 2]);
		const rest = TenantUsersPage.parse((await call(fake, 'GET', `/firework/v2/tenants/101/users?size=100&from=${first.next}`, { token })).json);
		expect([...first.items, ...rest.items]).toEqual(fake.administration.usersOf(101));
		expect(rest.next).toBeNull();

		const unknown = await call(fake, 'POST', '/firework/v2/tenants/202/users', { token, body: { users: [{ user_id: 510, role: 'editor' }, { user_id: 4040 }] } });
		expect([unknown.status, unknown.json]).toEqual([404, { message: 'User 4040 not found', code: 'NOT_FOUND' }]);
		expect(fake.administration.usersOf(202).some((user) => user.id === 520)).toBe(false);
		const added = await call(fake, 'POST', '/firework/v2/tenants/202/users', { token, body: { users: [{ user_id: 520, role: 'editor', is_readonly: true }] } });
		expect([added.status, added.text]).toEqual([200, '']);
		expect(fake.administration.usersOf(202).find((user) => user.id === 520)).toMatchObject({ role: 'editor', is_readonly: true });

		const removed = await call(fake, 'DELETE', '/firework/v2/tenants/202/users/520', { token });
		const again = await call(fake, 'DELETE', '/firework/v2/tenants/202/users/520', { token });
		expect([removed.status, again.status]).toEqual([200, 404]);
		expect(fake.state.writes.map((write) => write.method)).toEqual(['POST', 'DELETE']);
	});
});

describe('members of the organization', () => {
	it('lists {members, next} searched by q, gets, updates, disables and enables, lists their tenants', async () => {
		const page = MemberPage.parse((await call(fake, 'GET', `/firework/v2/organizations/${ORG}/members?size=5`, { token })).json);
		expect(page.members.map((member) => member.user.id)).toEqual([501, 510, 511, 512, 513]);
		expect(page.next).not.toBeNull();
		const found = MemberPage.parse((await call(fake, 'GET', `/firework/v2/organizations/${ORG}/members?q=ANALYST`, { token })).json);
		expect(found.members.map((member) => member.user.email)).toEqual(['analyst@acme.com']);

		const got = MemberWithMetadata.parse(((await call(fake, 'GET', `/firework/v2/organizations/${ORG}/members/510`, { token })).json as { member: unknown }).member);
		expect(got.user.id).toBe(510);
		const updated = await call(fake, 'PUT', `/firework/v2/organizations/${ORG}/members/510`, { token, body: { name: 'Omar', surname: 'Haddad', email: 'omar@acme.com' } });
		expect(MemberWithMetadata.parse((updated.json as { member: unknown }).member).user).toMatchObject({ surname: 'Haddad', email: 'omar@acme.com' });

		const disabled = await call(fake, 'POST', `/firework/v2/organizations/${ORG}/members/510/disable`, { token });
		expect(EnableState.parse(disabled.json)).toEqual({ is_disabled: true });
		const enabled = await call(fake, 'POST', `/firework/v2/organizations/${ORG}/members/510/enable`, { token });
		expect(EnableState.parse(enabled.json)).toEqual({ is_disabled: false });

		const tenants = TenantPage.parse((await call(fake, 'GET', `/firework/v2/organizations/${ORG}/members/501/tenants`, { token })).json);
		expect(tenants.items.map((tenant) => tenant.id)).toEqual([101, 202, 909]);
		expect(got.tenant_count).toBe(fake.administration.organizationTenants().filter((tenant) => fake.administration.usersOf(tenant.id).some((user) => user.id === 510)).length);
	});
});

describe('platform reports (v4)', () => {
	it('lists without the archived ones unless asked, in the order asked, pages of at most 100; gets one; downloads each format', async () => {
		const all = fake.reporting.reportsOf(101);
		const page = PublicReportPage.parse((await call(fake, 'GET', '/firework/v4/reports?size=100&order_by=created_at&order_type=desc', { token })).json);
		expect(page.items).toEqual(all.filter((report) => !report.is_archived).reverse());
		const archived = PublicReportPage.parse((await call(fake, 'GET', '/firework/v4/reports?size=100&include_archived=true', { token })).json);
		expect(archived.items).toHaveLength(all.length);
		const tooMany = await call(fake, 'GET', '/firework/v4/reports?size=101', { token });
		expect(tooMany.status).toBe(422);

		expect(PublicReport.parse((await call(fake, 'GET', `/firework/v4/reports/${all[0].id}`, { token })).json)).toEqual(all[0]);
		for (const [format, start] of [['pdf', '%PDF'], ['docx', 'PK\x03\x04'], ['zip', 'PK\x03\x04'], ['csv', 'id,title']] as const) {
			const file = await fetch(`${fake.url}/firework/v4/reports/${all[0].id}/download?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
			const bytes = Buffer.from(await file.arrayBuffer());
			expect([format, file.status, bytes.subarray(0, start.length).toString('latin1')]).toEqual([format, 200, start]);
		}
	});
});

describe('Threat Flow: delete, publish, conversations', () => {
	it('publishes (title optional) and deletes a report of the tenant; an unknown one is a 404', async () => {
		const published = await call(fake, 'PATCH', '/firework/v4/threat_flow/reports/870001/publish', { token, body: { title: 'Reviewed' } });
		const report = ThreatFlowReport.parse((published.json as { report: unknown }).report);
		expect([report.title, report.published_at]).toEqual(['Reviewed', expect.any(String)]);
		expect(fake.playbook.report(101, 870001)?.title).toBe('Reviewed');
		const deleted = await call(fake, 'DELETE', '/firework/v4/threat_flow/reports/870001', { token });
		expect([deleted.status, deleted.json]).toEqual([200, {}]);
		expect(fake.playbook.report(101, 870001)).toBeUndefined();
		expect((await call(fake, 'DELETE', '/firework/v4/threat_flow/reports/870001', { token })).status).toBe(404);
		expect(fake.state.writes).toHaveLength(2);
	});

	it('the messages after and before a chat event, translated when asked, with cursors; one quotes a planted credential line', async () => {
		const uid = fake.events.allUids().find((candidate) => candidate.startsWith('chat_message/'))!;
		const path = '/firework/v4/threat_flow/unit_summary/related_conversation';
		const after = RelatedConversation.parse((await call(fake, 'POST', path, { token, body: { uid, size: 5 } })).json);
		expect(after.conversation_messages.map((message) => message.uid)).toEqual([16, 17, 18, 19, 20].map((k) => `${uid}/m${k}`));
		expect(after.conversation_messages[1].message).toContain(plantedInConversation(uid));
		expect([after.next, after.previous]).toEqual(['m20', 'm16']);
		const before = RelatedConversation.parse((await call(fake, 'POST', path, { token, body: { uid, direction: 'previous', size: 3, should_translate: true } })).json);
		expect(before.conversation_messages.map((message) => [message.uid, message.message_en?.startsWith('[en] ')])).toEqual([12, 13, 14].map((k) => [`${uid}/m${k}`, true]));
		const on = RelatedConversation.parse((await call(fake, 'POST', path, { token, body: { uid, size: 100, search_after: after.next } })).json);
		expect([on.conversation_messages.length, on.next]).toEqual([9, null]);
		const notChat = fake.events.allUids().find((candidate) => !candidate.startsWith('chat_message/'))!;
		expect((await call(fake, 'POST', path, { token, body: { uid: notChat } })).status).toBe(422);
		expect((await call(fake, 'POST', path, { token, body: { uid: 'chat_message/x/none' } })).status).toBe(404);
	});
});

describe('identifier groups', () => {
	it('PUT renames a group (UpdateGroupData) and answers it under assets_group; an unknown one is a 404', async () => {
		const renamed = await call(fake, 'PUT', '/firework/v2/assets/groups/101', { token, body: { name: 'Brands' } });
		expect(renamed.json).toEqual({ assets_group: { ...fake.dataset.identifierGroup(101, 101), name: 'Brands' } });
		expect((await call(fake, 'PUT', '/firework/v2/assets/groups/4040', { token, body: { name: 'X' } })).status).toBe(404);
		expect((await call(fake, 'PUT', '/firework/v2/assets/groups/101', { token, body: { name: 'X', extra: 1 } })).status).toBe(422);
	});
});
