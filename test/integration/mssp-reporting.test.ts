/**
 * What an MSSP's reporting and alerting playbooks reach for (issue 40): Report → Get Many, Get,
 * Download; Alert Channel → Create (every destination type); Threat Report → Delete and Publish;
 * Event → Get Related Conversation; Source → Get Many; Identifier Group → Update; Update Tenant
 * Metadata clearing a severity override and notes. Exact requests, items (leaked values and secrets
 * masked) and errors, in n8n-core against the fake over real HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { plantedSecret } from '../fake-flare/planted';
import { plantedInConversation } from '../fake-flare/threat-flow';
import { apiRequests, jsonOf, masked, maskedView, useFakeFlare } from './support';

const TENANT = 101;
const rl = (value: string | number): IDataObject => ({ __rl: true, mode: 'id', value: String(value) });

describe('MSSP reporting and alerting', () => {
	const env = useFakeFlare({ credentials: 50, eventsPerTenant: 20 });
	const sent = () => apiRequests(env.fake).map((request) => [request.method, request.path, request.query, request.body]);
	const run = (resource: string, operation: string, parameters: IDataObject = {}) =>
		env.harness.runNode({ parameters: { resource, operation, ...parameters } });

	describe('Report (platform reports)', () => {
		const reports = () => env.fake.reporting.reportsOf(TENANT);

		it('Get Many: newest first, archived left out unless asked, pages of 100 for Return All', async () => {
			const recent = await run('report', 'getAll', { limit: 5 });
			const all = await run('report', 'getAll', { returnAll: true, filters: { includeArchived: true }, options: { orderBy: 'title', order: 'asc' } });

			expect(sent()).toEqual([
				['GET', '/firework/v4/reports', { order_by: 'created_at', order_type: 'desc', include_archived: 'false', size: '5' }, undefined],
				['GET', '/firework/v4/reports', { order_by: 'title', order_type: 'asc', include_archived: 'true', size: '100' }, undefined],
			]);
			expect(jsonOf(recent.output)).toEqual(reports().filter((report) => !report.is_archived).reverse().slice(0, 5));
			expect(jsonOf(all.output).map((report) => report.id)).toEqual(
				[...reports()].sort((a, b) => (a.title === b.title ? a.id - b.id : a.title < b.title ? -1 : 1)).map((report) => report.id),
			);
		});

		it('Get: the report; an unknown one is a 404 naming it', async () => {
			const [report] = reports();
			const found = await run('report', 'get', { reportId: rl(report.id) });
			const missing = await run('report', 'get', { reportId: rl(999) });

			expect(jsonOf(found.output)).toEqual([report]);
			expect(missing.error?.message).toBe('Report 999 was not found in Flare');
		});

		it.each([
			['pdf', 'application/pdf'],
			['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
			['csv', 'text/csv'],
			['zip', 'application/zip'],
		] as const)('Download as %s: the file byte for byte in the binary field, what it is in the JSON', async (format, mimeType) => {
			const [report] = reports();

			const result = await run('report', 'download', { reportId: rl(report.id), format, binaryPropertyName: 'report' });

			const file = env.fake.reporting.fileOf(report, format);
			expect(sent()).toEqual([['GET', `/firework/v4/reports/${report.id}/download`, { format }, undefined]]);
			const [item] = result.output;
			expect(item.json).toEqual({ reportId: report.id, format, fileName: `report-${report.id}.${format}`, fileSize: file.length });
			expect([item.binary!.report.mimeType, item.binary!.report.fileName]).toEqual([mimeType, `report-${report.id}.${format}`]);
			expect(Buffer.from(item.binary!.report.data, 'base64').equals(file)).toBe(true);
		});

		// The hostile review of issue 40, F8: JSON that does not start with { or [ passed as a CSV file.
		it.each([
			['a JSON null', 'null'],
			['a JSON text', '"report is being generated"'],
			['a JSON number', '0'],
		])('Download as csv: %s that Flare labels application/json fails the item, saying it is JSON', async (_what, rawBody) => {
			const [report] = reports();
			env.fake.faults.add({ path: /\/download$/, fault: { status: 200, rawBody, headers: { 'content-type': 'application/json' } } });

			const result = await run('report', 'download', { reportId: rl(report.id), format: 'csv' });

			expect([result.error?.message, result.output]).toEqual(["Flare's answer could not be used while trying to download the report", []]);
			expect(result.error?.description).toMatch(/^Flare answered with JSON \(application\/json\), not a csv file\./);
		});

		it('Download: an endless answer is cut off at 50 MiB; a redirect is not followed', async () => {
			const [report] = reports();
			env.fake.faults.add({ path: /\/download$/, fault: { endlessBody: true } });
			const endless = await run('report', 'download', { reportId: rl(report.id), format: 'pdf' });
			env.fake.faults.add({ path: /\/download$/, fault: { redirect: { status: 302 } } });
			const moved = await run('report', 'download', { reportId: rl(report.id), format: 'pdf' });

			expect(endless.error?.description).toMatch(/^The answer was cut off at 50 MiB and nothing of it was used\./);
			expect(moved.error?.message).toMatch(/^Flare answered with a redirect to .* \(HTTP 302\) while trying to download the report$/);
			expect(env.fake.otherOrigin.requests).toEqual([]);
		});

		it("Download as csv: a CSV file that Flare labels application/json (as its OpenAPI declares every download) is the file", async () => {
			const [report] = reports();
			const csv = 'title,severity\nLeak,high\n';
			env.fake.faults.add({ path: /\/download$/, fault: { status: 200, rawBody: csv, headers: { 'content-type': 'application/json' } } });

			const result = await run('report', 'download', { reportId: rl(report.id), format: 'csv' });

			expect(Buffer.from(result.output[0].binary!.data.data, 'base64').toString()).toBe(csv);
		});

		it.each([
			['csv', { status: 200, body: { detail: 'report not ready' } }, 'JSON (application/json), not a csv file'],
			['csv', { status: 200, rawBody: '<html>proxy error</html>', headers: { 'content-type': 'text/html' } }, 'a file that does not start as one (text/html), not a csv file'],
			['zip', { status: 200, rawBody: '%PDF-1.7', headers: { 'content-type': 'application/pdf' } }, 'a file that does not start as one (application/pdf), not a zip file'],
		] as const)('Download as %s: an answer that is not such a file fails the item, saying what came', async (format, fault, what) => {
			const [report] = reports();
			env.fake.faults.add({ path: /\/download$/, fault });

			const result = await run('report', 'download', { reportId: rl(report.id), format });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Flare's answer could not be used while trying to download the report"]);
			expect(result.error?.description).toMatch(new RegExp(`^Flare answered with ${what.replace(/[()]/g, '\\$&')}\\.`));
		});
	});

	describe('Alert Channel → Create', () => {
		const slackUrl = `https://hooks.slack.com/services/T0/B0/${plantedSecret('', 'test-slack')}`;
		const token = plantedSecret('', 'test-jira-token');
		const cases: Array<[string, IDataObject, IDataObject]> = [
			['email', { channelType: 'email', email: 'soc@acme.com', emailOptions: { csvAttachment: true, subjectTag: '[FLARE]', language: 'fr' } }, { type: 'email', email: 'soc@acme.com', json_attachment: false, csv_attachment: true, subject_tag: '[FLARE]', language: 'fr' }],
			['slack', { channelType: 'slack', webhookUrl: slackUrl }, { type: 'slack', webhook_url: slackUrl }],
			['discord', { channelType: 'discord', webhookUrl: slackUrl }, { type: 'discord', webhook_url: slackUrl }],
			['teams', { channelType: 'teams', webhookUrl: slackUrl }, { type: 'teams', teams_webhook_url: slackUrl }],
			[
				'jira',
				{ channelType: 'jira', jiraSite: 'acme.atlassian.net', accountEmail: 'bot@acme.com', apiToken: token, projectKey: 'SEC', issueType: 'Task', labels: 'flare, leaks', customFields: { field: [{ name: 'customfield_1', value: 'Flare' }] } },
				{ type: 'jira', server_netloc: 'acme.atlassian.net', email: 'bot@acme.com', api_token: token, project_key: 'SEC', issue_type: 'Task', labels: ['flare', 'leaks'], custom_fields: { customfield_1: 'Flare' } },
			],
			['servicenow', { channelType: 'servicenow', serverUrl: 'https://acme.service-now.com', apiKey: token, tableName: 'incident' }, { type: 'servicenow', server_url: 'https://acme.service-now.com', api_key: token, table_name: 'incident' }],
			['azure_sentinel', { channelType: 'azure_sentinel', workspaceId: '72f988bf-86f1-41af-91ab-2d7cd011db47', sharedKey: token }, { type: 'azure_sentinel', workspace_id: '72f988bf-86f1-41af-91ab-2d7cd011db47', shared_key: token }],
			[
				'azure_sentinel_v2',
				{ channelType: 'azure_sentinel_v2', entraTenantId: '72F988BF-86F1-41AF-91AB-2D7CD011DB47', entraClientId: '0f3a9c1e-5b7d-4e2f-8a6c-1d9e7b3f5a20', entraSecret: token, ingestionUrl: 'https://dce.ingest.monitor.azure.com/streams/Custom-Flare_CL' },
				{ type: 'azure_sentinel_v2', entra_client_id: '0f3a9c1e-5b7d-4e2f-8a6c-1d9e7b3f5a20', entra_tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47', entra_secret: token, url: 'https://dce.ingest.monitor.azure.com/streams/Custom-Flare_CL' },
			],
			['splunk', { channelType: 'splunk', splunkHost: 'splunk.acme.com:8088', apiToken: token, index: 'flare' }, { type: 'splunk', api_token: token, netloc: 'splunk.acme.com:8088', index: 'flare', labels: [] }],
			[
				'webhook',
				{ channelType: 'webhook', webhookUrl: 'https://n8n.acme.com/webhook/flare', secret: token, webhookOptions: { basicAuthUsername: 'flare', basicAuthPassword: token, customHeaders: { header: [{ name: 'X-Tenant', value: token }] } } },
				{ type: 'webhook', webhook_url: 'https://n8n.acme.com/webhook/flare', secret: token, basic_auth: { username: 'flare', password: token }, custom_headers: { 'X-Tenant': token } },
			],
		];

		it.each(cases)('%s: one POST of CreateAlertChannel with its params; the channel as Flare answers it, every secret masked', async (_type, fields, params) => {
			const result = await run('alertChannel', 'create', { name: 'Client SOC', ...fields });

			expect(sent()).toEqual([['POST', '/firework/v4/alerts/channels', {}, { name: 'Client SOC', params }]]);
			const [item] = jsonOf(result.output);
			expect(item).toMatchObject({ id: 900, name: 'Client SOC', type: params.type });
			expect(JSON.stringify(item)).not.toContain('PlAnTeD');
			expect(env.fake.playbook.channel(900)?.params).toEqual(params);
		});

		it("a 422 that echoes the params (FastAPI's input) shows none of the secrets given, in the message or the description", async () => {
			const header = plantedSecret('', 'test-header-422');
			const params = { type: 'webhook', webhook_url: 'https://n8n.acme.com/webhook/x', secret: token, custom_headers: { 'X-Tenant': header } };
			const detail = [{ type: 'value_error', loc: ['body', 'params', 'webhook'], msg: `Value error, cannot reach ${params.webhook_url} with ${JSON.stringify(params)}`, input: params }];
			env.fake.faults.add({ path: '/firework/v4/alerts/channels', method: 'POST', fault: { status: 422, body: { detail } } });

			const result = await run('alertChannel', 'create', {
				name: 'Hook',
				channelType: 'webhook',
				webhookUrl: params.webhook_url,
				secret: token,
				webhookOptions: { customHeaders: { header: [{ name: 'X-Tenant', value: header }] } },
			});

			expect(result.error?.message).toBe("Flare rejected the request to create the alert channel");
			expect(JSON.stringify([result.error?.message, result.error?.description])).not.toMatch(/PlAnTeD/);
		});

		it('the secrets given come back masked, also where no name says they are secrets (a custom header)', async () => {
			const result = await run('alertChannel', 'create', { name: 'Hook', ...cases[9][1] });

			const params = result.output[0].json.params as IDataObject;
			expect(params).toEqual({
				type: 'webhook',
				webhook_url: masked('https://n8n.acme.com/webhook/flare'),
				secret: masked(token),
				// "auth" names a secret: the whole object is masked.
				basic_auth: '********',
				custom_headers: { 'X-Tenant': masked(token) },
			});
		});

		// The hostile review of issue 40, F2: no Leaked Value Output, so a Full one a saved workflow may
		// hold (from a build before 0.1.0) shows nothing either.
		it("the secrets given come back masked also with a Leaked Value Output of Full saved in the workflow: the form has none", async () => {
			const jira = await run('alertChannel', 'create', { name: 'Client Jira', ...cases[4][1], options: { leakedValueOutput: 'full' } });
			const slack = await run('alertChannel', 'create', { name: 'Client Slack', ...cases[1][1], options: { leakedValueOutput: 'full' } });

			expect([(jira.output[0].json.params as IDataObject).api_token, (slack.output[0].json.params as IDataObject).webhook_url]).toEqual([masked(token), masked(slackUrl)]);
			expect(JSON.stringify(jsonOf([...jira.output, ...slack.output]))).not.toContain('PlAnTeD');
		});

		it.each([
			[{ channelType: 'slack', webhookUrl: 'hooks.slack.com/x' }, "'Webhook URL' is not an http(s) URL [item 0]"],
			[{ channelType: 'jira', jiraSite: 'https://acme.atlassian.net', accountEmail: 'bot@acme.com', apiToken: 'x', projectKey: 'SEC', issueType: 'Task' }, `'Jira Site' is not a host name: "https://acme.atlassian.net" [item 0]`],
			[{ channelType: 'webhook', webhookUrl: 'https://x.example.com', secret: 's', webhookOptions: { basicAuthUsername: 'flare' } }, "'Basic Auth Password' is required with 'Basic Auth Username' [item 0]"],
			[{ channelType: 'azure_sentinel_v2', entraTenantId: 'acme', entraClientId: 'x', entraSecret: 's', ingestionUrl: 'https://x.example.com' }, `'Entra Client ID' is not a GUID: "x" [item 0]`],
			// The hostile review of issue 40, F9: a line break in a header's name added a header of its own.
			...[
				['X-Tenant\r\nX-Injected: 1', 'v', `'Custom Headers' has a header 1 whose name is not an HTTP header name: "X-Tenant\\r\\nX-Injected: 1" [item 0]`],
				['X Tenant', 'v', `'Custom Headers' has a header 1 whose name is not an HTTP header name: "X Tenant" [item 0]`],
				['X-Tenant', 'acme\nX-Injected: 1', "'Custom Headers' has a header 1 (X-Tenant) whose value holds a line break or another control character [item 0]"],
			].map(([name, value, message]): [IDataObject, string] => [
				{ channelType: 'webhook', webhookUrl: 'https://n8n.acme.com/webhook/x', secret: 'a long random secret', webhookOptions: { customHeaders: { header: [{ name, value }] } } },
				message,
			]),
		])('refuses %j before any request, naming the field', async (fields, message) => {
			const result = await run('alertChannel', 'create', { name: 'Bad', ...fields });

			expect(sent()).toEqual([]);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
		});
	});

	describe('Threat Report → Delete and Publish', () => {
		it('Publish with a new title, then Delete: the report as Flare answers it, then gone', async () => {
			const published = await run('threatReport', 'publish', { reportId: rl(870002), title: 'Reviewed for Acme' });
			const deleted = await run('threatReport', 'delete', { reportId: rl(870002) });
			const again = await run('threatReport', 'delete', { reportId: rl(870002) });

			expect(sent().map(([method, path, , body]) => [method, path, body])).toEqual([
				['PATCH', '/firework/v4/threat_flow/reports/870002/publish', { title: 'Reviewed for Acme' }],
				['DELETE', '/firework/v4/threat_flow/reports/870002', undefined],
				['DELETE', '/firework/v4/threat_flow/reports/870002', undefined],
			]);
			expect(published.output[0].json).toMatchObject({ id: 870002, title: 'Reviewed for Acme', published_at: expect.any(String) });
			expect(JSON.stringify(jsonOf(published.output))).not.toContain('PlAnTeD');
			expect(jsonOf(deleted.output)).toEqual([{ deleted: true, reportId: 870002 }]);
			expect(again.error?.message).toBe('Threat report 870002 was not found in Flare');
		});

		it('Publish without a title sends the payload Flare requires, its title null', async () => {
			const result = await run('threatReport', 'publish', { reportId: rl(870003) });

			expect(sent()).toEqual([['PATCH', '/firework/v4/threat_flow/reports/870003/publish', {}, { title: null }]]);
			expect(result.output[0].json).toMatchObject({ id: 870003, title: 'Weekly threat landscape #3' });
		});
	});

	describe('Event → Get Related Conversation', () => {
		const chat = () => env.fake.events.allUids().find((uid) => uid.startsWith('chat_message/'))!;

		it('the messages after the event, translated: one item, the credential line a message quotes masked', async () => {
			const uid = chat();

			const result = await run('event', 'getRelatedConversation', { uid, messages: 5, options: { shouldTranslate: true } });

			expect(sent()).toEqual([['POST', '/firework/v4/threat_flow/unit_summary/related_conversation', {}, { uid, direction: 'next', size: 5, should_translate: true }]]);
			const [item] = jsonOf(result.output);
			const messages = item.conversation_messages as IDataObject[];
			expect(messages.map((message) => message.uid)).toEqual([16, 17, 18, 19, 20].map((k) => `${uid}/m${k}`));
			expect(messages[1].message).toBe('fresh logs, this one works: admin@initech.com:********');
			expect(messages[1].message_en).toBe('[en] fresh logs, this one works: admin@initech.com:********');
			expect(JSON.stringify(item)).not.toContain(plantedInConversation(uid));
			expect(item).toEqual(maskedView(item, env.fake.plantedValues()));
		});

		it('the messages before it; an event that is not a chat is Flare\'s refusal naming Event UID; Messages is bounded before any request', async () => {
			const before = await run('event', 'getRelatedConversation', { uid: chat(), direction: 'previous', messages: 3 });
			const notChat = await run('event', 'getRelatedConversation', { uid: env.fake.events.allUids().find((uid) => !uid.startsWith('chat_message/')) });
			const tooMany = await run('event', 'getRelatedConversation', { uid: chat(), messages: 101 });

			expect((before.output[0].json.conversation_messages as IDataObject[]).map((message) => message.uid)).toEqual([12, 13, 14].map((k) => `${chat()}/m${k}`));
			expect(notChat.error?.message).toBe("Flare rejected the value of 'Event UID'");
			expect(tooMany.error?.message).toBe("'Messages' must be a whole number from 1 to 100, not 101 [item 0]");
			expect(sent()).toHaveLength(2);
		});
	});

	describe('Source → Get Many, Identifier Group → Update', () => {
		it('Source → Get Many, Return All: pages of 10,000, every source oldest first', async () => {
			const result = await run('source', 'getAll', { returnAll: true });

			expect(sent()).toEqual([['GET', '/astp/v2/sources', { size: '10000' }, undefined]]);
			expect(jsonOf(result.output)).toEqual(maskedView(env.fake.dataset.sources(), env.fake.plantedValues()));
		});

		it('Identifier Group → Update: one PUT of UpdateGroupData, the renamed group', async () => {
			const result = await run('identifierGroup', 'update', { groupId: rl(101), name: ' Subsidiaries EU ' });

			expect(sent()).toEqual([['PUT', '/firework/v2/assets/groups/101', {}, { name: 'Subsidiaries EU' }]]);
			expect(jsonOf(result.output)).toEqual([env.fake.dataset.identifierGroup(101, TENANT)]);
			expect(result.output[0].json.name).toBe('Subsidiaries EU');
		});
	});

	describe('Event → Update Tenant Metadata: clearing', () => {
		const uid = () => env.fake.feed.feedAll(TENANT, {})[0].metadata.uid;

		it('sends null for the severity override and the notes; Flare\'s answer shows them cleared', async () => {
			env.fake.events.setMetadata(TENANT, uid(), { severity: 'critical', notes: 'escalated' });

			const result = await run('event', 'updateTenantMetadata', { uid: uid(), updateFields: { clearSeverity: true, clearNotes: true } });

			expect(sent()).toEqual([['PATCH', '/firework/v4/events/tenant/metadata', { uid: uid() }, { severity: null, notes: null }]]);
			expect(result.output[0].json).toMatchObject({ uid: uid(), severity: null, notes: null });
			expect(env.fake.events.state(TENANT, uid())).toMatchObject({ override: null, notes: null });
		});

		it('an answer that still shows the override fails the item, saying what Flare kept; nothing is sent again', async () => {
			env.fake.faults.add({ path: '/firework/v4/events/tenant/metadata', phase: 'after', fault: { status: 200, body: { uid: uid(), severity: 'high', notes: null, tags: [] } } });

			const result = await run('event', 'updateTenantMetadata', { uid: uid(), updateFields: { clearSeverity: true } });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', `Event '${uid()}' was updated, but Flare's answer does not show its severity override cleared`]);
			expect(result.error?.description).toMatch(/^Its answer to the write shows severity "high"\. The node sends null to clear a field/);
			expect(sent()).toHaveLength(1);
		});

		// The hostile review of issue 40, F7: an answer that leaves out what was cleared confirms nothing.
		it.each([
			['the severity override', { clearSeverity: true }, { notes: null }, "its severity override cleared", "has no 'severity'"],
			['the notes', { clearNotes: true }, { severity: null }, 'its notes cleared', "has no 'notes'"],
			['both, the notes shown kept', { clearSeverity: true, clearNotes: true }, { severity: null, notes: 'escalated' }, 'its notes cleared', 'shows notes "escalated"'],
		])('Clear %s: an answer without it, or showing it kept, fails the item, saying the write was applied', async (_what, updateFields, answer, cleared, shows) => {
			env.fake.events.setMetadata(TENANT, uid(), { severity: 'critical', notes: 'escalated' });
			env.fake.faults.add({ path: '/firework/v4/events/tenant/metadata', phase: 'after', fault: { status: 200, body: { uid: uid(), tags: [], ...answer } } });

			const result = await run('event', 'updateTenantMetadata', { uid: uid(), updateFields });

			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', `Event '${uid()}' was updated, but Flare's answer does not show ${cleared}`]);
			expect(result.error?.description).toMatch(new RegExp(`^Its answer to the write ${shows}\\.`));
			expect(sent()).toHaveLength(1);
		});

		it("Clear Notes: an answer showing the notes empty ('') confirms it", async () => {
			env.fake.faults.add({ path: '/firework/v4/events/tenant/metadata', phase: 'after', fault: { status: 200, body: { uid: uid(), severity: 'low', notes: '', tags: [] } } });

			const result = await run('event', 'updateTenantMetadata', { uid: uid(), updateFields: { clearNotes: true } });

			expect(result.status).toBe('success');
		});

		it('Clear Severity Override with a new Severity is refused before any request, naming both', async () => {
			const result = await run('event', 'updateTenantMetadata', { uid: uid(), updateFields: { clearSeverity: true, severity: 'low' } });

			expect(result.error?.message).toBe("'Clear Severity Override' cannot go with 'Severity' [item 0]");
			expect(sent()).toEqual([]);
		});
	});
});
