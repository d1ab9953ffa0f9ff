/**
 * End-to-end cases of what playbooks reach for (issue 34): an event's AI explanation, Threat Flow
 * reports (list, get, download), identifier recommendations (list, accept, reject), alert channels
 * and rules, and the playbook that revokes the sessions of leaked cookies. Checked against the fake's
 * oracles at the time of the check: cases before them may have changed its state.
 */
import { createHash } from 'crypto';

import type { FakeFlare } from '../fake-flare';
import { masked, maskedView } from '../integration/support';
import type { E2eCase, Step } from './cases';
import { NotedPerFake } from './noted';
import { check, checkEqual } from './report';

const TENANT = 101;
const one = (step: Step): Step[] => [step];
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const requestsOf = (api: Array<{ method: string; path: string; query: unknown; body: unknown }>) =>
	api.map((request) => [request.method, request.path, request.query, request.body]);
const view = <T>(fake: FakeFlare, data: T) => maskedView(data, fake.plantedValues());

/** The stealer logs of the tenant's feed that the cookie playbook's cookies come from. */
const noted = new NotedPerFake<{
	stealerLogs: string[];
	cookies: Array<{ uuid: string; value: string; event_uid?: string; name: string }>;
}>();

export const PLAYBOOK_CASES: E2eCase[] = [
	{
		file: 'operations/event-get-ai-explanation.json',
		about: "Event → Get AI Explanation: Flare's explanation of an event whose source has a space, its credential line masked, also where the response repeats its password in prose",
		steps: one({
			check(run, { api }) {
				const node = 'AI explanation of the event';
				const uid = 'listing/dark market/1010078';
				checkEqual(requestsOf(api), [['GET', '/firework/v2/activities/listing/dark%20market/1010078/ai_assistance', {}, undefined]], node, 'requests');
				const [item] = run.json(node);
				checkEqual(Object.keys(item), ['uid', 'prompt', 'response'], node, 'the fields of the explanation');
				checkEqual(item.uid, uid, node, 'uid');
				check(String(item.prompt).includes('admin@initech.com:********'), node, 'the credential line the prompt quotes is masked');
				check(String(item.response).includes('with the password ********.'), node, 'the password the response repeats in prose is masked');
			},
		}),
	},
	{
		file: 'operations/threat-report-get-many.json',
		about: 'Threat Report → Get Many: the 5 newest standard reports, masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Latest standard reports';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/threat_flow/reports/', { order: 'desc', report_types: 'standard', size: '5' }, undefined]], node, 'requests');
				const expected = fake.playbook
					.reportsOf(TENANT)
					.filter((report) => report.kind === 'standard')
					.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
					.slice(0, 5)
					.map((report) => fake.playbook.report(TENANT, report.id));
				checkEqual(run.json(node), view(fake, expected), node, 'output');
			},
		}),
	},
	{
		file: 'operations/threat-report-get.json',
		about: 'Threat Report → Get: report 870001, masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Threat report 870001';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/threat_flow/reports/870001', {}, undefined]], node, 'requests');
				checkEqual(run.json(node), [view(fake, fake.playbook.report(TENANT, 870001))], node, 'output');
			},
		}),
	},
	{
		file: 'operations/threat-report-download.json',
		about: 'Threat Report → Download: report 870001 as a PDF in the binary field report',
		steps: one({
			check(run, { api }) {
				const node = 'Report 870001 as PDF';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/threat_flow/reports/870001/download', { format: 'pdf' }, undefined]], node, 'requests');
				const [item] = run.items(node) as Array<{ json: Record<string, unknown>; binary?: Record<string, Record<string, unknown>> }>;
				checkEqual(
					{ ...item.json, fileSize: typeof item.json.fileSize },
					{ reportId: 870001, format: 'pdf', fileName: 'threat-report-870001.pdf', fileSize: 'number' },
					node,
					'output',
				);
				const file = item.binary?.report;
				checkEqual([file?.mimeType, file?.fileName, file?.fileExtension], ['application/pdf', 'threat-report-870001.pdf', 'pdf'], node, 'the binary field');
			},
		}),
	},
	{
		file: 'operations/identifier-recommendation-get-many.json',
		about: 'Identifier Recommendation → Get Many: the first 10 domains still recommended',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Recommended domains';
				checkEqual(requestsOf(api), [['GET', '/firework/v4/identifier-recommendations/', { size: '10', status: 'recommended', types: 'domain' }, undefined]], node, 'requests');
				const expected = fake.playbook
					.recommendationsOf(TENANT)
					.filter((recommendation) => recommendation.data.type === 'domain' && recommendation.status === 'recommended')
					.slice(0, 10)
					.map(({ id, data }) => ({ id, data }));
				checkEqual(expected.length, 10, node, 'the fake has 10 such recommendations');
				checkEqual(run.json(node), expected, node, 'output');
			},
		}),
	},
	...(
		[
			['accept', 'Accept them', [9001, 9005, 9009], 'accepted'],
			['reject', 'Reject them', [9002, 9006], 'rejected'],
		] as const
	).map(
		([operation, node, ids, status]): E2eCase => ({
			file: `operations/identifier-recommendation-${operation}.json`,
			about: `Identifier Recommendation → ${node.split(' ')[0]}: ${ids.length} recommendations in one request, each confirmed`,
			steps: one({
				check(run, { fake, api }) {
					checkEqual(
						requestsOf(api),
						[['POST', '/firework/v4/identifier-recommendations/actions', {}, { action: { type: operation }, targets: ids.map((id) => ({ id })) }]],
						node,
						'requests',
					);
					checkEqual(run.json(node), ids.map((id) => ({ id, action: operation, done: true })), node, 'output');
					const now = fake.playbook.recommendationsOf(TENANT).filter((recommendation) => (ids as readonly number[]).includes(recommendation.id));
					checkEqual(now.map((recommendation) => recommendation.status), ids.map(() => status), node, `the recommendations are ${status} in Flare`);
				},
			}),
		}),
	),
	{
		file: 'operations/alert-channel-get-many.json',
		about: 'Alert Channel → Get Many: every channel of the tenant with its status, pages of 10',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Alert channels';
				checkEqual(api.map((request) => [request.method, request.path, request.query.size]), [['GET', '/firework/v4/alerts/channels', '10'], ['GET', '/firework/v4/alerts/channels', '10']], node, 'requests');
				// The Slack webhook URL a delivery error quotes is masked past /services/.
				const shown = fake.playbook.channelsOf(TENANT).map((channel) =>
					channel.state?.message?.includes('hooks.slack.com') ? { ...channel, state: { ...channel.state, message: channel.state.message.replace(/(hooks\.slack\.com\/services\/)\S+/, '$1********') } } : channel,
				);
				checkEqual(run.json(node), shown, node, 'output');
			},
		}),
	},
	{
		file: 'operations/alert-rule-get-many.json',
		about: "Alert Rule → Get Many: every rule of the tenant, pages of 10",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Alert rules';
				const rules = fake.playbook.alertRules(TENANT);
				checkEqual(api.map((request) => request.path), Array(Math.ceil(rules.length / 10)).fill('/firework/v4/alerts/'), node, 'requests');
				checkEqual(run.json(node), rules, node, 'output');
			},
		}),
	},
	{
		file: 'operations/alert-rule-create.json',
		about: 'Alert Rule → Create: high and critical events of identifier 7001 to channel 301, hourly',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Critical events of identifier 7001';
				// The write, then its read-back (the tenant's rules named like it).
				checkEqual(api.map((request) => [request.method, request.path]), [['POST', '/firework/v2/assets/7001/alerts'], ['GET', '/firework/v4/alerts/']], node, 'requests');
				const body = api[0].body as Record<string, unknown>;
				checkEqual(
					[api[0].method, api[0].path, { ...body, start_at: typeof body.start_at }],
					[
						'POST',
						'/firework/v2/assets/7001/alerts',
						{ name: 'Critical events to n8n', type: 'channel', params: { type: 'channel', alert_channel_id: 301 }, tenant_alert_channel_id: 301, frequency: 60, start_at: 'string', risks: [4, 5] },
					],
					node,
					'request',
				);
				const [created] = run.json(node);
				checkEqual(fake.playbook.rulesOf(TENANT, 'assets', 7001).find((rule) => rule.id === created.id), created, node, 'output: the rule as Flare keeps it');
			},
		}),
	},
	{
		file: 'operations/alert-rule-update.json',
		about: "Alert Rule → Update: rule 5101 of identifier 7001 every 30 minutes, the rest kept",
		steps: one({
			check(run, { fake, api }) {
				const node = 'Alert rule 5101, every 30 minutes';
				checkEqual(
					api.map((request) => [request.method, request.path]),
					[['GET', '/firework/v2/assets/7001/alerts'], ['PUT', '/firework/v2/assets/7001/alerts/5101'], ['GET', '/firework/v4/alerts/']],
					node,
					'requests: read, write, read back',
				);
				const rule = fake.playbook.rulesOf(TENANT, 'assets', 7001).find((candidate) => candidate.id === 5101)!;
				checkEqual([rule.frequency, rule.name, rule.risks], [30, 'Leaks of the main domain', [4, 5]], node, 'the rule in Flare');
				checkEqual(run.json(node), [view(fake, rule)], node, 'output');
			},
		}),
	},
	{
		file: 'operations/alert-rule-delete.json',
		about: 'Alert Rule → Delete: a temporary rule of group 100, created then deleted',
		steps: one({
			check(run, { fake, api }) {
				const [created] = run.json('Create a temporary rule');
				const node = 'Delete the rule';
				checkEqual(
					api.map((request) => [request.method, request.path]),
					[
						['POST', '/firework/v2/assets/groups/100/alerts'],
						['GET', '/firework/v4/alerts/'],
						['DELETE', `/firework/v2/assets/groups/100/alerts/${String(created.id)}`],
					],
					node,
					'requests',
				);
				checkEqual(run.json(node), [{ deleted: true, alertRuleId: created.id, groupId: 100 }], node, 'output');
				check(!fake.playbook.rulesOf(TENANT, 'assets/groups', 100).some((rule) => rule.id === created.id), node, 'the rule is gone from Flare');
			},
		}),
	},
	{
		file: 'playbooks/revoke-leaked-cookie-sessions.json',
		about: 'New leaked cookie of app.example.com (manual: the 5 newest) → revoke (stand-in) → its stealer logs tagged handled',
		manualFrom: 'New leaked cookie of our app',
		steps: one({
			before(fake: FakeFlare) {
				// Three session cookies of the app from two stealer logs of the tenant's feed, one expired,
				// one of another name.
				const stealerLogs = fake.feed
					.feedAll(TENANT, { filters: { type: ['stealer_log'] }, order: 'desc' })
					.slice(0, 2)
					.map((item) => item.metadata.uid);
				const now = Math.floor(fake.now() / 1000) * 1000;
				const at = (ms: number) => new Date(ms).toISOString();
				const add = (eventUid: string, secondsAgo: number, extra: { name?: string; expiresAt?: string } = {}) =>
					fake.addCookies(1, { domain: 'app.example.com', importedAt: at(now - secondsAgo * 1000), eventUid, name: extra.name ?? 'session', expiresAt: extra.expiresAt ?? at(now + 30 * 86_400_000) });
				const cookies = [
					...add(stealerLogs[0], 30),
					...add(stealerLogs[1], 20),
					...add(stealerLogs[0], 10),
					...add(stealerLogs[1], 5, { expiresAt: at(now - 86_400_000) }),
					...add(stealerLogs[1], 5, { name: 'remember_me' }),
				];
				noted.set(fake, { stealerLogs, cookies });
			},
			check(run, { fake, api }) {
				const { stealerLogs, cookies } = noted.get(fake);
				const trigger = 'New leaked cookie of our app';
				checkEqual(stealerLogs.length, 2, trigger, 'the feed has 2 stealer logs or more');
				checkEqual(
					requestsOf(api.filter((request) => request.path === '/astp/v2/cookies/_search')),
					[['POST', '/astp/v2/cookies/_search', {}, { domain: 'app.example.com', names: ['session'], order: 'desc', size: 25 }]],
					trigger,
					'the test fetch: the newest session cookies of the domain',
				);
				// The three that may still open a session, newest first (the expired one left out).
				const fresh = [cookies[2], cookies[1], cookies[0]];
				const served = fake.feed.cookiesFor({ domain: 'app.example.com', names: ['session'], order: 'desc' }).filter((cookie) => fresh.some((one) => one.uuid === cookie.uuid));
				checkEqual(run.json(trigger), served.map((cookie) => ({ ...cookie, value: sha256(cookie.value) })), trigger, 'output: the 3 session cookies, values as SHA-256');
				checkEqual(
					run.json('Session to revoke'),
					served.map((cookie) => ({ app_host: 'app.example.com', cookie_name: 'session', session_token_sha256: sha256(cookie.value), stealer_log: cookie.event_uid })),
					'Session to revoke',
					'one session to revoke per cookie',
				);
				const logs = [stealerLogs[0], stealerLogs[1]];
				checkEqual(run.json('One item per stealer log'), logs.map((uid) => ({ uid, revoked: uid === stealerLogs[0] ? 2 : 1 })), 'One item per stealer log', 'one item per stealer log');
				const tagsOf = (uid: string) => fake.events.fullEvent(uid, TENANT)!.activity.header.tags as string[];
				const node = 'Tag handled in Flare';
				checkEqual(
					requestsOf(api.filter((request) => request.path === '/firework/v4/events/tenant/metadata')),
					logs.map((uid) => [
						'PATCH',
						'/firework/v4/events/tenant/metadata',
						{ uid },
						{ tags: tagsOf(uid), notes: `n8n revoked ${uid === stealerLogs[0] ? 2 : 1} stolen sessions of app.example.com` },
					]),
					node,
					'the stealer logs tagged handled, their other tags kept',
				);
				check(logs.every((uid) => tagsOf(uid).includes('handled')), node, 'Flare has them tagged handled');
				check(!JSON.stringify(run.json(trigger)).includes(masked(cookies[0].value)), trigger, 'no value is shown, masked or not');
			},
		}),
	},
];
