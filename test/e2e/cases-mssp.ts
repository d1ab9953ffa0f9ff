/**
 * The workflows of issue 40's operations (workflows/operations/): tenant and member administration,
 * platform reports, an alert channel, Threat Flow delete and publish, a conversation, the sources, a
 * group's rename. They run last in a line: the organization's tenants and members they change are
 * not what the cases before them expect.
 */
import type { FakeFlare } from '../fake-flare';
import { masked, maskedView } from '../integration/support';
import type { E2eCase, Step } from './cases';
import { check, checkEqual } from './report';

const TENANT = 101;
const ORGANIZATION = 4242;
const one = (step: Step): Step[] => [step];
const requestsOf = (api: Array<{ method: string; path: string; query: unknown; body: unknown }>) =>
	api.map((request) => [request.method, request.path, request.query, request.body]);
const view = <T>(fake: FakeFlare, data: T) => maskedView(data, fake.plantedValues());
const member = (fake: FakeFlare, id: number) => fake.administration.membersList().find((entry) => entry.user.id === id)!;

export const MSSP_CASES: E2eCase[] = [
	{
		file: 'operations/identifier-group-update.json',
		about: 'Identifier Group → Update: group 102 renamed',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Rename group 102';
				checkEqual(requestsOf(api), [['PUT', '/firework/v2/assets/groups/102', {}, { name: 'Executives and board' }]], node, 'requests');
				checkEqual(run.json(node), [fake.dataset.identifierGroup(102, TENANT)], node, 'output');
				checkEqual(fake.dataset.identifierGroup(102, TENANT)?.name, 'Executives and board', node, 'the group in Flare');
			},
		}),
	},
	{
		file: 'operations/tenant-create.json',
		about: "Tenant → Create: the key's organization, then a new tenant in it",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Create the client tenant';
				checkEqual(
					requestsOf(api),
					[['POST', `/firework/v2/organizations/${ORGANIZATION}/tenants`, {}, { name: 'Globex Industries (client)', industry: 'energy', description: 'MSSP client since 2027' }]],
					node,
					'requests (after the token test)',
				);
				const [created] = run.json(node);
				checkEqual(created, fake.administration.tenant(Number(created.id)), node, 'output: the tenant as Flare keeps it');
			},
		}),
	},
	{
		file: 'operations/tenant-get.json',
		about: 'Tenant → Get: tenant 101',
		steps: one({
			check(run, { fake }) {
				checkEqual(run.json('Tenant 101'), [fake.administration.tenant(101)], 'Tenant 101', 'output');
			},
		}),
	},
	{
		file: 'operations/tenant-update.json',
		about: "Tenant → Update: tenant 606's global-search limit, its settings read first and kept (Prevent Global Search too)",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Limit tenant 606';
				const tenant = fake.administration.tenant(606)!;
				checkEqual(
					requestsOf(api),
					[
						['GET', '/firework/v2/tenants/606', {}, undefined],
						['PUT', '/firework/v2/tenants/606', {}, { name: tenant.name, description: tenant.description, industry: tenant.industry, number_of_employees: tenant.number_of_employees, prevent_global_search: tenant.prevent_global_search, global_search_calls_limit: 500 }],
					],
					node,
					'requests',
				);
				checkEqual(tenant.global_search_calls_limit, 500, node, 'the limit in Flare');
				checkEqual(run.json(node).map((item) => item.id), [606], node, 'output');
			},
		}),
	},
	{
		file: 'operations/tenant-archive.json',
		about: 'Tenant → Archive: a temporary tenant created, then archived',
		steps: one({
			check(run, { fake }) {
				const [created] = run.json('Create a temporary tenant');
				checkEqual(run.json('Archive it'), [{ archived: true, tenantId: created.id }], 'Archive it', 'output');
				checkEqual(fake.administration.tenant(Number(created.id))?.is_archived, true, 'Archive it', 'the tenant in Flare');
			},
		}),
	},
	{
		file: 'operations/tenant-user-get-many.json',
		about: "Tenant User → Get Many: tenant 101's users, with their role",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Users of tenant 101';
				checkEqual(requestsOf(api), [['GET', '/firework/v2/tenants/101/users', { size: '100' }, undefined]], node, 'requests');
				checkEqual(run.json(node), fake.administration.usersOf(101), node, 'output');
			},
		}),
	},
	{
		file: 'operations/tenant-user-add.json',
		about: 'Tenant User → Add: member 512 an editor of tenant 202',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Add member 512 to tenant 202';
				checkEqual(requestsOf(api), [['POST', '/firework/v2/tenants/202/users', {}, { users: [{ user_id: 512, role: 'editor', is_readonly: false }] }]], node, 'requests');
				checkEqual(run.json(node), [{ added: true, tenantId: 202, userId: 512, role: 'editor', readOnly: false }], node, 'output');
				check(fake.administration.usersOf(202).some((user) => user.id === 512 && user.role === 'editor'), node, 'the user in Flare');
			},
		}),
	},
	{
		file: 'operations/tenant-user-remove.json',
		about: 'Tenant User → Remove: member 513 out of tenant 101',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Remove member 513 from tenant 101';
				checkEqual(requestsOf(api), [['DELETE', '/firework/v2/tenants/101/users/513', {}, undefined]], node, 'requests');
				checkEqual(run.json(node), [{ removed: true, tenantId: 101, userId: 513 }], node, 'output');
				check(!fake.administration.usersOf(101).some((user) => user.id === 513), node, 'the user gone from the tenant');
			},
		}),
	},
	{
		file: 'operations/organization-member-get-many.json',
		about: 'Organization Member → Get Many: every member, from the token test and one page',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Members';
				checkEqual(requestsOf(api), [['GET', `/firework/v2/organizations/${ORGANIZATION}/members`, { size: '100' }, undefined]], node, 'requests (after the token test)');
				checkEqual(run.json(node), fake.administration.membersList(), node, 'output');
			},
		}),
	},
	{
		file: 'operations/organization-member-get.json',
		about: 'Organization Member → Get: member 510',
		steps: one({
			check(run, { fake }) {
				checkEqual(run.json('Member 510'), [member(fake, 510)], 'Member 510', 'output');
			},
		}),
	},
	{
		file: 'operations/organization-member-update.json',
		about: "Organization Member → Update: member 511's last name, the rest read first and kept",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Rename member 511';
				const { user } = member(fake, 511);
				const put = api.find((request) => request.method === 'PUT');
				checkEqual(put?.body, { name: user.name, surname: 'Haddad', email: user.email }, node, 'the write');
				checkEqual(run.json(node), [member(fake, 511)], node, 'output');
			},
		}),
	},
	{
		file: 'operations/organization-member-disable.json',
		about: 'Organization Member → Disable: member 514, a leaver',
		steps: one({
			check(run, { fake }) {
				checkEqual(run.json('Disable member 514'), [{ userId: 514, is_disabled: true }], 'Disable member 514', 'output');
				checkEqual(member(fake, 514).user.is_disabled, true, 'Disable member 514', 'the member in Flare');
			},
		}),
	},
	{
		file: 'operations/organization-member-enable.json',
		about: 'Organization Member → Enable: member 515 disabled, then enabled again',
		steps: one({
			check(run, { fake }) {
				checkEqual(run.json('Disable member 515'), [{ userId: 515, is_disabled: true }], 'Disable member 515', 'output');
				checkEqual(run.json('Enable member 515'), [{ userId: 515, is_disabled: false }], 'Enable member 515', 'output');
				checkEqual(member(fake, 515).user.is_disabled, false, 'Enable member 515', 'the member in Flare');
			},
		}),
	},
	{
		file: 'operations/organization-member-get-tenants.json',
		about: "Organization Member → Get Tenants: the tenants member 510 works in",
		steps: one({
			check(run, { fake }) {
				const node = "Member 510's tenants";
				const expected = fake.administration.organizationTenants().filter((tenant) => fake.administration.usersOf(tenant.id).some((user) => user.id === 510));
				checkEqual(run.json(node), expected, node, 'output');
			},
		}),
	},
	{
		file: 'operations/report-get-many.json',
		about: 'Report → Get Many: the platform reports, newest first, archived ones left out',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Reports';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/reports', { order_by: 'created_at', order_type: 'desc', include_archived: 'false', size: '100' }, undefined]], node, 'requests');
				checkEqual(run.json(node), fake.reporting.reportsOf(TENANT).filter((report) => !report.is_archived).reverse(), node, 'output');
			},
		}),
	},
	{
		file: 'operations/report-get.json',
		about: 'Report → Get: report 610001',
		steps: one({
			check(run, { fake }) {
				checkEqual(run.json('Report 610001'), [fake.reporting.reportsOf(TENANT)[0]], 'Report 610001', 'output');
			},
		}),
	},
	{
		file: 'operations/report-download.json',
		about: 'Report → Download: report 610001 as a PDF in the binary field report',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Report 610001 as PDF';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/reports/610001/download', { format: 'pdf' }, undefined]], node, 'requests');
				const [item] = run.items(node) as Array<{ json: Record<string, unknown>; binary?: Record<string, Record<string, unknown>> }>;
				const file = fake.reporting.fileOf(fake.reporting.reportsOf(TENANT)[0], 'pdf');
				checkEqual(item.json, { reportId: 610001, format: 'pdf', fileName: 'report-610001.pdf', fileSize: file.length }, node, 'output');
				const binary = item.binary?.report;
				checkEqual([binary?.mimeType, binary?.fileName, binary?.fileExtension], ['application/pdf', 'report-610001.pdf', 'pdf'], node, 'the binary field');
			},
		}),
	},
	{
		file: 'operations/alert-channel-create.json',
		about: "Alert Channel → Create: a client's Jira channel, its API token masked in the output",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Create the Jira channel';
				const params = { type: 'jira', server_netloc: 'acme.atlassian.net', email: 'flare-bot@acme.com', api_token: 'replace-with-your-jira-api-token', project_key: 'SEC', issue_type: 'Task', labels: ['flare', 'leaks'] };
				checkEqual(requestsOf(api), [['POST', '/firework/v4/alerts/channels', {}, { name: 'Acme SOC Jira', params }]], node, 'requests');
				const [created] = run.json(node);
				checkEqual(fake.playbook.channel(Number(created.id))?.params, params, node, 'the channel in Flare');
				checkEqual((created.params as Record<string, unknown>).api_token, masked(params.api_token), node, 'output: the token masked');
			},
		}),
	},
	{
		file: 'operations/threat-report-delete.json',
		about: 'Threat Report → Delete: report 870012',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Delete report 870012';
				checkEqual(requestsOf(api), [['DELETE', '/firework/v4/threat_flow/reports/870012', {}, undefined]], node, 'requests');
				checkEqual(run.json(node), [{ deleted: true, reportId: 870012 }], node, 'output');
				check(fake.playbook.report(TENANT, 870012) === undefined, node, 'the report gone from Flare');
			},
		}),
	},
	{
		file: 'operations/threat-report-publish.json',
		about: 'Threat Report → Publish: report 870011 under a new title',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Publish report 870011';
				checkEqual(requestsOf(api), [['PATCH', '/firework/v4/threat_flow/reports/870011/publish', {}, { title: 'Weekly threat landscape #11 (reviewed)' }]], node, 'requests');
				checkEqual(run.json(node), [view(fake, fake.playbook.report(TENANT, 870011))], node, 'output');
			},
		}),
	},
	{
		file: 'operations/event-get-related-conversation.json',
		about: 'Event → Get Related Conversation: 10 messages after a Telegram event, translated, masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Conversation';
				const uid = 'chat_message/telegram/1010005';
				checkEqual(requestsOf(api), [['POST', '/firework/v4/threat_flow/unit_summary/related_conversation', {}, { uid, direction: 'next', size: 10, should_translate: true }]], node, 'requests');
				const [item] = run.json(node);
				const messages = item.conversation_messages as Array<Record<string, unknown>>;
				checkEqual(messages.length, 10, node, 'messages');
				checkEqual(messages[1].message, 'fresh logs, this one works: admin@initech.com:********', node, 'the quoted credential masked');
				checkEqual(item, view(fake, item), node, 'nothing planted left');
			},
		}),
	},
	{
		file: 'operations/source-get-many.json',
		about: 'Source → Get Many: every leak source, oldest first',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Sources';
				checkEqual(requestsOf(api), [['GET', '/astp/v2/sources', { size: '10000' }, undefined]], node, 'requests');
				checkEqual(run.json(node), view(fake, fake.dataset.sources()), node, 'output');
			},
		}),
	},
];
