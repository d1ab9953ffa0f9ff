/**
 * What playbooks reach for (issue 34): Event → Get AI Explanation, Threat Report → Get Many, Get and
 * Download, Identifier Recommendation → Get Many, Alert Rule → Create, Update, Delete and Get Many,
 * Alert Channel → Get Many, and their pickers: exact requests, exact items (leaked values masked as
 * the fake plants them), exact errors, in n8n-core against the fake over real HTTP.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { docxOf, pdfOf } from '../fake-flare/files';
import { MAX_FILE_BYTES } from '../../nodes/Flare/shared/body';
import { apiRequests, jsonOf, maskedView, untilDisconnected, useFakeFlare } from './support';

const TENANT = 101;
const rl = (value: string | number): IDataObject => ({ __rl: true, mode: 'id', value: String(value) });

describe('Issue 34: the operations playbooks reach for', () => {
	const env = useFakeFlare({ credentials: 100, eventsPerTenant: 20 });
	const sent = () => apiRequests(env.fake).map((request) => [request.method, request.path, request.query, request.body]);
	const view = <T>(data: T) => maskedView(data, env.fake.plantedValues());

	describe('Event → Get AI Explanation', () => {
		const explain = (uid: string, extra: IDataObject = {}) => env.harness.runNode({ parameters: { resource: 'event', operation: 'getAiExplanation', uid, ...extra } });

		it("one GET of the uid's path, one item {uid, prompt, response}, its quoted credential line masked", async () => {
			const [uid] = env.fake.events.allUids();
			const [index, source, id] = uid.split('/');

			const result = await explain(` ${uid} `);

			expect(sent()).toEqual([['GET', `/firework/v2/activities/${index}/${source}/${id}/ai_assistance`, {}, undefined]]);
			expect(result.output).toHaveLength(1);
			const item = result.output[0].json as IDataObject;
			expect(Object.keys(item)).toEqual(['uid', 'prompt', 'response']);
			expect(item.uid).toBe(uid);
			// The prompt's credential line is masked by its form; the response repeats its password in prose.
			expect(item.prompt).toContain('admin@initech.com:********');
			expect(item.response).toContain('the account admin@initech.com, with the password ********. Reset');
			expect(JSON.stringify(item)).not.toContain('PlAnTeD');
			expect(result.output[0].pairedItem).toEqual({ item: 0 });
		});

		it('a password the prompt gives as "Password: …" and the response repeats in prose is masked in both (hostile review of issue 34, #4)', async () => {
			const [uid] = env.fake.events.allUids();
			const secret = 'Zq7!winterHarbor';
			env.fake.faults.add({
				path: /ai_assistance$/,
				method: 'GET',
				fault: {
					status: 200,
					body: {
						activity_ai_assistance: {
							uid,
							prompt: `Explain this stealer log event.\nURL: https://vpn.initech.com/login\nLogin: admin@initech.com\nPassword: ${secret}`,
							response: `The stealer log holds a working VPN login of your organization: the account admin@initech.com with the password ${secret}. Reset it.`,
						},
					},
				},
			});

			const result = await explain(uid);

			expect(result.output[0].json).toEqual({
				uid,
				prompt: 'Explain this stealer log event.\nURL: https://vpn.initech.com/login\nLogin: admin@initech.com\nPassword: ********',
				response: 'The stealer log holds a working VPN login of your organization: the account admin@initech.com with the password ********. Reset it.',
			});
		});

		it('keeps the slashes of an ID, each part encoded', async () => {
			const result = await explain('experimental/darknet/dark chat/example-id-55667');

			expect(sent()).toEqual([['GET', '/firework/v2/activities/experimental/darknet/dark%20chat/example-id-55667/ai_assistance', {}, undefined]]);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Event 'experimental/darknet/dark chat/example-id-55667' was not found in Flare"]);
		});

		it.each([['leak/leak_site'], ['leak//1'], ['leak/../1'], ['a/b/.']])('refuses %p before any request, naming Event UID', async (uid) => {
			const result = await explain(uid);

			expect(sent()).toEqual([]);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', `'Event UID' is not an event UID: "${uid}" [item 0]`]);
		});
	});

	describe('Threat Report', () => {
		const reports = (types?: string[]) =>
			env.fake.playbook
				.reportsOf(TENANT)
				.filter((report) => !types || types.includes(report.kind))
				.sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
				.map((report) => env.fake.playbook.report(TENANT, report.id)!);

		it('Get Many, Limit 15: one page of 15, newest first, summaries and highlights masked', async () => {
			const result = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'getAll', limit: 15 } });

			expect(sent()).toEqual([['GET', '/firework/v4/threat_flow/reports/', { order: 'desc', size: '15' }, undefined]]);
			const expected = reports().slice(0, 15);
			expect(expected.length).toBeGreaterThan(10);
			expect(jsonOf(result.output)).toEqual(view(expected));
			expect(JSON.stringify(jsonOf(result.output))).toContain('vpn-admin@initech.com:********');
		});

		it('Get Many, Return All, Standard only, oldest first: pages of 100, every standard report', async () => {
			const result = await env.harness.runNode({
				parameters: { resource: 'threatReport', operation: 'getAll', returnAll: true, filters: { reportTypes: ['standard'] }, options: { order: 'asc' } },
			});

			expect(apiRequests(env.fake).map((request) => request.path)).toEqual(['/firework/v4/threat_flow/reports/']);
			expect(env.fake.requests.at(-1)?.query).toEqual({ order: 'asc', report_types: 'standard', size: '100' });
			expect(jsonOf(result.output)).toEqual(view(reports(['standard']).reverse()));
		});

		it('Get: the report of the ID, masked; an unknown ID is a 404 naming it', async () => {
			const [report] = reports();

			const found = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'get', reportId: rl(report.id) } });
			const missing = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'get', reportId: rl(999) } });

			expect(sent()).toEqual([
				['GET', `/firework/v4/threat_flow/reports/${report.id}`, {}, undefined],
				['GET', '/firework/v4/threat_flow/reports/999', {}, undefined],
			]);
			expect(jsonOf(found.output)).toEqual([view(report)]);
			expect([missing.error?.name, missing.error?.message]).toEqual(['NodeApiError', 'Threat report 999 was not found in Flare']);
		});

		it.each([
			['pdf', 'application/pdf', pdfOf],
			['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docxOf],
		] as const)('Download as %s: the file byte for byte in the binary field, what it is in the JSON', async (format, mimeType, render) => {
			const [report] = reports(['standard']);

			const result = await env.harness.runNode({
				parameters: { resource: 'threatReport', operation: 'download', reportId: rl(report.id), format, binaryPropertyName: 'report' },
			});

			expect(sent()).toEqual([['GET', `/firework/v4/threat_flow/reports/${report.id}/download`, { format }, undefined]]);
			const file = render([report.title, report.summary, ...report.content.split('\n'), ...report.highlights]);
			expect(result.output).toHaveLength(1);
			const [item] = result.output;
			expect(item.json).toEqual({ reportId: report.id, format, fileName: `threat-report-${report.id}.${format}`, fileSize: file.length });
			expect(Object.keys(item.binary ?? {})).toEqual(['report']);
			const binary = item.binary!.report;
			expect([binary.mimeType, binary.fileName, binary.fileExtension]).toEqual([mimeType, `threat-report-${report.id}.${format}`, format]);
			// Flare's file as it came: the node cannot mask inside it (the form and docs say so).
			expect(Buffer.from(binary.data, 'base64').equals(file)).toBe(true);
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		it("Download: the file is known by its first bytes, whatever media type Flare gives it (its OpenAPI says JSON)", async () => {
			const file = Buffer.from('%PDF-1.7\n% a report\n%%EOF\n', 'latin1');
			env.fake.faults.add({ path: /\/download$/, fault: { status: 200, rawBody: file.toString('latin1'), headers: { 'content-type': 'application/json' } } });

			const result = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'download', reportId: rl(870001) } });

			expect(result.status).toBe('success');
			expect(Buffer.from(result.output[0].binary!.data.data, 'base64').equals(file)).toBe(true);
		});

		it.each([
			['an HTML page (a proxy, a login page) for a PDF', 'pdf', '<!doctype html><html><body>Sign in to continue</body></html>', 'text/html', 'Flare answered with a file that does not start as one (text/html), not a pdf file'],
			['a PDF for a DOCX', 'docx', '%PDF-1.7\n% a report\n%%EOF\n', 'application/pdf', 'Flare answered with a file that does not start as one (application/pdf), not a docx file'],
			['an empty answer', 'pdf', '', 'application/pdf', 'Flare answered with an empty file (application/pdf), not a pdf file'],
		])('Download: %s is not the file, and the error does not quote it (hostile review of issue 34, #5)', async (_name, format, rawBody, type, says) => {
			env.fake.faults.add({ path: /\/download$/, fault: { status: 200, rawBody, headers: { 'content-type': type } } });

			const result = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'download', reportId: rl(870001), format } });

			expect(result.status).toBe('error');
			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Flare's answer could not be used while trying to download the threat report"]);
			expect(result.error?.description).toBe(`${says}. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`);
		});

		it('Download: a file larger than 50 MiB is cut off there, not held whole (hostile review of issue 34, #5)', async () => {
			env.fake.faults.add({ path: /\/download$/, fault: { endlessBody: true } });

			// The size ends it, never the Timeout: virtual time stands still while bytes flow, however
			// slowly a busy machine reads them (a Timeout of 30 s, far below the default, shows it).
			const result = await env.harness.runNode({
				parameters: { resource: 'threatReport', operation: 'download', reportId: rl(870001), requestOptions: { timeout: 30_000 } },
			});

			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', "Flare's answer was too large to read while trying to download the threat report"]);
			expect(result.error?.description).toContain('cut off at 50 MiB');
			const downloads = env.fake.requests.filter((request) => request.path.endsWith('/download'));
			expect(downloads).toHaveLength(1);
			await untilDisconnected(downloads[0]);
			expect([downloads[0].status, downloads[0].cutOffByFake]).toEqual([200, undefined]);
			expect(downloads[0].bytesSent).toBeLessThanOrEqual(MAX_FILE_BYTES + 16 * 1024 * 1024);
		});

		it('Download: a JSON answer is not the file; a bad field name is refused before any request', async () => {
			env.fake.faults.add({ path: /\/download$/, fault: { status: 200, body: { detail: 'Report is still being generated' } } });
			const json = await env.harness.runNode({ parameters: { resource: 'threatReport', operation: 'download', reportId: rl(870001) } });
			const field = await env.harness.runNode({
				parameters: { resource: 'threatReport', operation: 'download', reportId: rl(870001), binaryPropertyName: 'a.b' },
			});

			expect(sent()).toEqual([['GET', '/firework/v4/threat_flow/reports/870001/download', { format: 'pdf' }, undefined]]);
			expect([json.error?.name, json.error?.message]).toEqual(['NodeApiError', "Flare's answer could not be used while trying to download the threat report"]);
			expect(json.error?.description).toContain('not a pdf file');
			expect([field.error?.name, field.error?.message]).toEqual([
				'NodeOperationError',
				`'Put Output File in Field' must be a field name of letters, digits, _ or -, not "a.b" [item 0]`,
			]);
		});
	});

	describe('Identifier Recommendation → Get Many', () => {
		it('Return All of two types still recommended: pages of 100, repeated types, items as Flare sends them', async () => {
			const result = await env.harness.runNode({
				parameters: { resource: 'identifierRecommendation', operation: 'getAll', returnAll: true, filters: { types: ['domain', 'email'], status: 'recommended' } },
			});

			const expected = env.fake.playbook
				.recommendationsOf(TENANT)
				.filter((recommendation) => ['domain', 'email'].includes(recommendation.data.type) && recommendation.status === 'recommended')
				.map(({ id, data }) => ({ id, data }));
			expect(expected.length).toBeGreaterThan(0);
			expect(jsonOf(result.output)).toEqual(expected);
			const raw = env.fake.requests.filter((request) => request.path === '/firework/v4/identifier-recommendations/');
			expect(raw.map((request) => request.query.size)).toEqual(['100']);
		});

		it('Limit 3, a query: the first three whose value holds it', async () => {
			const result = await env.harness.runNode({ parameters: { resource: 'identifierRecommendation', operation: 'getAll', limit: 3, filters: { query: 'ACME_USER' } } });

			expect(sent()).toEqual([['GET', '/firework/v4/identifier-recommendations/', { query: 'ACME_USER', size: '3' }, undefined]]);
			expect(jsonOf(result.output).map((item) => (item.data as IDataObject).type)).toEqual(['username', 'username', 'username']);
		});
	});

	describe('Alert Rule and Alert Channel', () => {
		const identifier = () => env.fake.dataset.identifierIds()[0];
		const group = () => env.fake.dataset.identifierGroups(TENANT)[0].id;

		it('Create of an identifier: one POST of the rule, sent to the channel; the rule as Flare answers it', async () => {
			const result = await env.harness.runNode({
				parameters: {
					resource: 'alertRule',
					operation: 'create',
					identifierId: rl(identifier()),
					name: 'Critical leaks to n8n',
					alertChannelId: rl(302),
					frequency: 15,
					additionalFields: { severities: ['critical', 'high'], eventTypes: 'leak, stealer_log', startAt: '2025-01-01T00:00:00Z' },
				},
			});

			const body = {
				name: 'Critical leaks to n8n',
				type: 'channel',
				params: { type: 'channel', alert_channel_id: 302 },
				tenant_alert_channel_id: 302,
				frequency: 15,
				start_at: '2025-01-01T00:00:00.000Z',
				search_types: ['leak', 'stealer_log'],
				risks: [4, 5],
			};
			expect(sent()).toEqual([
				['POST', `/firework/v2/assets/${identifier()}/alerts`, {}, body],
				// What Flare stored, read back (alert-rule-writes.test.ts).
				['GET', '/firework/v4/alerts/', { order_type: 'desc', q: 'Critical leaks to n8n', size: '10' }, undefined],
			]);
			const created = env.fake.playbook.rulesOf(TENANT, 'assets', identifier()).find((rule) => rule.name === 'Critical leaks to n8n');
			expect(jsonOf(result.output)).toEqual([created]);
			expect(env.fake.state.writes).toHaveLength(1);
		});

		it("Create of a group goes to the group's path; an unknown channel is Flare's 404, which may be about either", async () => {
			const ok = await env.harness.runNode({
				parameters: { resource: 'alertRule', operation: 'create', ruleOf: 'identifierGroup', groupId: rl(group()), name: 'Brands', alertChannelId: rl(301) },
			});
			const bad = await env.harness.runNode({
				parameters: { resource: 'alertRule', operation: 'create', identifierId: rl(identifier()), name: 'Nowhere', alertChannelId: rl(4242) },
			});

			expect(sent().map(([method, path]) => [method, path])).toEqual([
				['POST', `/firework/v2/assets/groups/${group()}/alerts`],
				['GET', '/firework/v4/alerts/'],
				['POST', `/firework/v2/assets/${identifier()}/alerts`],
			]);
			expect(ok.status).toBe('success');
			expect([bad.error?.name, bad.error?.message]).toEqual(['NodeApiError', `Identifier ${identifier()} or alert channel 4242 was not found in Flare`]);
			expect(bad.error?.description).toContain('Flare says: "Alert channel 4242 not found"');
		});

		it("Update: reads the owner's rules, sends the rule back with the change, its other fields as read", async () => {
			const [rule] = env.fake.playbook.rulesOf(TENANT, 'assets', identifier());

			const result = await env.harness.runNode({
				parameters: { resource: 'alertRule', operation: 'update', identifierId: rl(identifier()), alertRuleId: rl(rule.id), updateFields: { frequency: 30, severities: ['critical'] } },
			});

			const { name, type, params, start_at, search_types, experimental_search_types, tenant_alert_channel_id } = rule;
			expect(sent()).toEqual([
				['GET', `/firework/v2/assets/${identifier()}/alerts`, {}, undefined],
				['PUT', `/firework/v2/assets/${identifier()}/alerts/${rule.id}`, {}, { name, type, params, frequency: 30, start_at, search_types, experimental_search_types, risks: [5], tenant_alert_channel_id }],
				['GET', '/firework/v4/alerts/', { order_type: 'desc', q: name, size: '10' }, undefined],
			]);
			const updated = env.fake.playbook.rulesOf(TENANT, 'assets', identifier()).find((candidate) => candidate.id === rule.id)!;
			expect([updated.frequency, updated.risks]).toEqual([30, [5]]);
			expect(jsonOf(result.output)).toEqual([updated]);
		});

		it("Update of a rule with its own destination (a legacy Slack one): its settings are never written back as read; it can be sent to a channel", async () => {
			const [, legacy] = env.fake.playbook.rulesOf(TENANT, 'assets', identifier());
			const update = (updateFields: IDataObject) =>
				env.harness.runNode({ parameters: { resource: 'alertRule', operation: 'update', identifierId: rl(identifier()), alertRuleId: rl(legacy.id), updateFields } });

			const refused = await update({ frequency: 30 });
			const moved = await update({ frequency: 30, alertChannelId: rl(302) });

			expect(sent().map(([method]) => method)).toEqual(['GET', 'GET', 'PUT', 'GET']);
			expect([refused.error?.name, refused.error?.message]).toEqual([
				'NodeOperationError',
				`'Alert Channel' must be set to update alert rule ${legacy.id}, which sends to its own slack destination [item 0]`,
			]);
			expect(sent()[2][3]).toEqual({
				name: legacy.name,
				type: 'channel',
				params: { type: 'channel', alert_channel_id: 302 },
				frequency: 30,
				start_at: legacy.start_at,
				search_types: [],
				experimental_search_types: [],
				risks: [],
				tenant_alert_channel_id: 302,
			});
			expect(JSON.stringify(jsonOf(moved.output))).not.toContain('hooks.slack.com');
		});

		it('Update of a rule the owner does not have: a 404 naming both, nothing written', async () => {
			const result = await env.harness.runNode({
				parameters: { resource: 'alertRule', operation: 'update', identifierId: rl(identifier()), alertRuleId: rl(999), updateFields: { name: 'x' } },
			});

			expect(sent().map(([method]) => method)).toEqual(['GET']);
			expect([result.error?.name, result.error?.message]).toEqual(['NodeApiError', `Alert rule 999 of identifier ${identifier()} was not found in Flare`]);
			expect(env.fake.state.writes).toEqual([]);
		});

		it('Delete: one DELETE of the rule under its group; the item says what was deleted', async () => {
			const [rule] = env.fake.playbook.rulesOf(TENANT, 'assets/groups', group());

			const result = await env.harness.runNode({
				parameters: { resource: 'alertRule', operation: 'delete', ruleOf: 'identifierGroup', groupId: rl(group()), alertRuleId: rl(rule.id) },
			});

			expect(sent()).toEqual([['DELETE', `/firework/v2/assets/groups/${group()}/alerts/${rule.id}`, {}, undefined]]);
			expect(jsonOf(result.output)).toEqual([{ deleted: true, alertRuleId: rule.id, groupId: group() }]);
			expect(env.fake.playbook.rulesOf(TENANT, 'assets/groups', group())).toEqual([]);
		});

		it('Get Many, Return All: the tenant\'s rules in pages of 10; Search sends q', async () => {
			const all = await env.harness.runNode({ parameters: { resource: 'alertRule', operation: 'getAll', returnAll: true } });
			env.fake.clearLog();
			const searched = await env.harness.runNode({ parameters: { resource: 'alertRule', operation: 'getAll', limit: 5, filters: { search: 'watch' } } });

			const rules = env.fake.playbook.alertRules(TENANT);
			expect(rules.length).toBeGreaterThan(10);
			expect(jsonOf(all.output)).toEqual(rules);
			expect(sent()).toEqual([['GET', '/firework/v4/alerts/', { order_type: 'asc', q: 'watch', size: '5' }, undefined]]);
			expect(jsonOf(searched.output)).toEqual(rules.filter((rule) => rule.name.toLowerCase().includes('watch')).slice(0, 5));
		});

		it('Alert Channel → Get Many: every channel with its status, pages of 10', async () => {
			const result = await env.harness.runNode({ parameters: { resource: 'alertChannel', operation: 'getAll', returnAll: true } });

			expect(apiRequests(env.fake).map((request) => request.query.size)).toEqual(['10', '10']);
			const channels = env.fake.playbook.channelsOf(TENANT);
			const slack = channels.findIndex((channel) => channel.type === 'slack');
			// The Slack webhook URL its delivery error quotes: the path after /services/ masked (hostile review of issue 34, #7).
			expect(channels[slack].state?.message).toMatch(/^POST https:\/\/hooks\.slack\.com\/services\/T0FLARE\/B0FLARE\/\S+ failed: 404 no_service$/);
			expect(jsonOf(result.output)).toEqual(channels.map((channel, index) => (index === slack ? { ...channel, state: { status: 'error', message: 'POST https://hooks.slack.com/services/******** failed: 404 no_service' } } : channel)));
		});
	});

	describe('pickers', () => {
		const list = async (method: string, filter?: string) =>
			(await env.harness.listOptions({
				kind: 'listSearch',
				method,
				parameters: { resource: 'alertRule', operation: 'create' },
				path: 'parameters.alertChannelId',
				filter,
			})) as INodeListSearchResult;

		it('alert channels: searched by Flare (q), "<name> (<type>, <id>)"', async () => {
			const result = await list('searchAlertChannels', 'slack');

			expect(sent()).toEqual([['GET', '/firework/v4/alerts/channels', { q: 'slack', size: '10' }, undefined]]);
			expect(result.results).toEqual([{ name: 'Slack #security (slack, 302)', value: '302' }]);
		});

		it('threat reports (newest first), alert rules, recommendations still waiting', async () => {
			const reports = await list('searchThreatReports');
			const rules = await list('searchAlertRules', 'legacy');
			const recommendations = await list('searchIdentifierRecommendations', 'acme-4.');

			expect(reports.results[0].value).toBe(String(env.fake.playbook.reportsOf(TENANT).map((report) => report).sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0].id));
			expect(rules.results).toEqual([{ name: 'Legacy Slack alert (5102)', value: '5102' }]);
			expect(recommendations.results).toEqual([{ name: 'acme-4.com (domain, 9005)', value: '9005' }]);
			expect(apiRequests(env.fake).map((request) => [request.path, request.query])).toEqual([
				['/firework/v4/threat_flow/reports/', { order: 'desc', size: '10' }],
				['/firework/v4/alerts/', { q: 'legacy', size: '10' }],
				['/firework/v4/identifier-recommendations/', { query: 'acme-4.', size: '100', status: 'recommended' }],
			]);
		});
	});
});
