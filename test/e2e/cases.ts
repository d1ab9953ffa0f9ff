/**
 * What the end-to-end suite runs and expects: every workflow in workflows/, executed by a real n8n
 * against the fake Flare API, checked against the fake's dataset (the oracle) and request log.
 */
import type { IdentityRecord } from '../contract';
import type { FakeFlare, FakeFlareOptions, LoggedRequest } from '../fake-flare';
import { masked, maskedView, simplifiedIdentities } from '../integration/support';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX } from '../reliability/secret-scan';
import { EVENT_CASES } from './cases-events';
import { INVENTORY_CASES } from './cases-inventory';
import { MSSP_CASES } from './cases-mssp';
import { PLAYBOOK_CASES } from './cases-playbook';
import { RESPONSE_CASES } from './cases-response';
import { OTHER_TENANTS, SUITE_TENANTS, TENANT_CASES } from './cases-tenants';
import { type FakeModelOptions, messageText, type ModelRequest } from './fake-model';
import { check, checkEqual, failedNode, type RunView } from './report';
import type { Received, ToolStandIns } from './stand-ins';

/** The dataset every workflow of the suite is written for (seed 1); the values below come from it. */
export const SUITE_DATASET: FakeFlareOptions = {
	// 22,000 credentials per domain: a Return All search walks 4 pages of up to 10,000 credentials,
	// and the fake answers the second one empty and the third one short, as Flare may.
	credentials: 110_000,
	quirks: { emptyPageEvery: 2, shortPageEvery: 3 },
	// Recognisable secrets, searched for in everything n8n printed, logged and stored (secrets.ts).
	apiKeys: { full: CANARY_API_KEY },
	tokenPrefix: CANARY_TOKEN_PREFIX,
	// One credential serves them all (cases-tenants.ts); the organization has others it may not.
	tenants: SUITE_TENANTS,
	otherOrganizationTenants: OTHER_TENANTS,
};

const SEARCH_PATH = '/firework/v4/credentials/global/_search';

export interface StepContext {
	fake: FakeFlare;
	/** Requests the fake received during this execution, token requests included. */
	requests: LoggedRequest[];
	/** The same without the token requests. */
	api: LoggedRequest[];
	/** How n8n ended: the exit code of `n8n execute` (byCommand), else 0 for a success and 1 otherwise. */
	exitCode: number;
	/** Requests the fake chat model (fake-model.ts) received during this execution. */
	model: ModelRequest[];
	/** The stand-ins of the tools the playbooks act on, when the run has them (stand-ins/). */
	tools?: ToolStandIns;
	/** What those tools received during this execution. */
	received: Received[];
}

export interface Step {
	/** Prepares the fake before the execution. */
	before?: (fake: FakeFlare) => void;
	/** Expected run status; default success. */
	status?: 'success' | 'error';
	check: (run: RunView, context: StepContext) => void;
}

export interface E2eCase {
	/** Workflow file, relative to workflows/. */
	file: string;
	/** What the case shows, for the log. */
	about: string;
	/** Executions of the same workflow, in turn. */
	steps: Step[];
	/** The case checks token exchanges itself (otherwise: none after the first execution of a run). */
	managesTokens?: boolean;
	/**
	 * Run from this trigger (default: the workflow's Manual Trigger): a polling trigger's "fetch test
	 * event" only runs in manual mode.
	 */
	manualFrom?: string;
	/**
	 * Run with `n8n execute`, a new n8n process for each execution, as a script or a system scheduler
	 * runs a workflow: for what crosses processes (the token stored by one, reused by the next) and
	 * the command's exit code. Every other case runs in one started n8n, as the editor's "Execute
	 * workflow" runs it (manual.ts).
	 */
	byCommand?: true;
}

const tokenRequests = (requests: LoggedRequest[]) =>
	requests.filter((request) => request.method === 'POST' && request.path === '/tokens/generate');

const one = (step: Step): Step[] => [step];

/** The simplified search item the README promises, password masked. */
export function simplifiedCredential(record: Record<string, unknown>): Record<string, unknown> {
	return {
		id: record.id,
		identity_name: record.identity_name,
		hash: masked(String(record.hash)),
		hash_type: record.hash_type ?? null,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: (record.source as { name?: string } | undefined)?.name ?? null,
		credential_hash: record.credential_hash ?? null,
	};
}

/** The items of a search node, without the quota that depends on what ran before. */
export function searchItems(run: RunView, node: string) {
	return run.json(node).map((item) => {
		const copy = { ...item };
		delete copy.globalSearchesRemaining;
		return copy;
	});
}

/**
 * "Request a threat report" created one request, and "Get the request status" ran twice: the fake
 * answers "processing" to the first status read, then the report. Returns the stored request and the report as the node outputs it (masked).
 */
function checkReportRequestLoop(run: RunView, fake: FakeFlare) {
	const node = 'Get the request status';
	const stored = fake.state.reportRequests.at(-1)!;
	const report = maskedView(stored.report, fake.plantedValues());
	checkEqual(
		run.json('Request a threat report'),
		[{ request_id: stored.request_id }],
		'Request a threat report',
		'output',
	);
	checkEqual(
		run.runs(node),
		[[{ status: 'processing', report: null }], [{ status: 'completed', report }]],
		node,
		'status of each run',
	);
	return { stored, report };
}

export const CASES: E2eCase[] = [
	{
		file: 'behaviours/token-reuse.json',
		about: 'one token exchange, the stored token reused, one new exchange after expiry',
		managesTokens: true,
		byCommand: true,
		steps: [
			{
				check(run, { fake, requests }) {
					checkEqual(
						tokenRequests(requests).length,
						1,
						'Get the source',
						'token requests, first execution',
					);
					checkEqual(
						run.json('Get the source'),
						maskedView([fake.dataset.source('combolist-acme')], fake.plantedValues()),
						'Get the source',
						'output',
					);
				},
			},
			{
				check(run, { requests }) {
					checkEqual(
						tokenRequests(requests).length,
						0,
						'Get the source',
						'token requests, second execution (the stored token must be reused)',
					);
					check(
						requests.every((request) => request.auth === 'bearer' && request.tokenValid === true),
						'Get the source',
						'every request of the second execution carries the stored, valid token',
					);
					checkEqual(run.items('Get the source').length, 1, 'Get the source', 'items');
				},
			},
			{
				before: (fake) => fake.expireAllTokens(),
				check(run, { requests }) {
					checkEqual(
						tokenRequests(requests).length,
						1,
						'Get the source',
						'token requests after the token expired',
					);
					checkEqual(
						requests.map((request) => `${request.method} ${request.path} ${request.status}`),
						[
							'GET /astp/sources/combolist-acme 401',
							'POST /tokens/generate 200',
							'GET /astp/sources/combolist-acme 200',
						],
						'Get the source',
						'requests after the token expired',
					);
					checkEqual(run.items('Get the source').length, 1, 'Get the source', 'items');
				},
			},
		],
	},
	// ---- one workflow per operation ----
	{
		file: 'operations/astp-url-get-many.json',
		about: 'ASTP URL → Get Many, Return All',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get URLs where the credential was used';
				const expected = fake.dataset.urlsFor('7af7532e2cc520f6d71925d0262db52c');
				check(expected.length > 0, node, 'the dataset has URLs for this credential hash');
				checkEqual(run.json(node), expected, node, 'output');
				checkEqual(
					api.map((request) => request.body),
					[{ credential_hash: '7af7532e2cc520f6d71925d0262db52c', size: 5000 }],
					node,
					'request bodies',
				);
			},
		}),
	},
	{
		file: 'operations/event-get.json',
		about: 'Event → Get, UID with characters to encode',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get the event';
				checkEqual(
					run.json(node),
					maskedView([fake.dataset.event('blog_post/hack&talk/4230')], fake.plantedValues()),
					node,
					'output',
				);
				checkEqual(
					api.map((request) => request.query),
					[{ uid: 'blog_post/hack&talk/4230' }],
					node,
					'query',
				);
			},
		}),
	},
	{
		file: 'operations/identifier-delete.json',
		about: 'Identifier → Delete',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Delete identifier 7030';
				checkEqual(run.json(node), [{ deleted: true, identifierId: 7030 }], node, 'output');
				checkEqual(
					api.map((request) => `${request.method} ${request.path} ${request.status}`),
					['DELETE /firework/v4/identifiers/7030 202'],
					node,
					'requests',
				);
				check(
					fake.state.deletedIdentifiers.has(7030),
					node,
					'identifier 7030 is deleted in the fake',
				);
			},
		}),
	},
	{
		file: 'operations/identity-get-by-keyword.json',
		about: 'Identity → Get by Keyword, wildcard, Limit 20',
		steps: one({
			check(run, { fake }) {
				const node = 'Get identities by keyword';
				// The walk the node makes: pages of Limit (20) identities until 20 passwords are out.
				const identities: IdentityRecord[] = fake.dataset.identitiesByKeyword('elena.green*', 20);
				const expected = simplifiedIdentities(identities).slice(0, 20);
				checkEqual(expected.length, 20, node, 'the dataset has 20 passwords for elena.green*');
				checkEqual(run.json(node), expected, node, 'output (simplified, masked)');
			},
		}),
	},
	{
		file: 'operations/identity-get-by-password.json',
		about: 'Identity → Get by Password, Limit 10',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get identities by password';
				const expected = simplifiedIdentities(
					fake.dataset.identitiesByPassword('hunter2', 10),
				).slice(0, 10);
				checkEqual(expected.length, 10, node, 'the dataset has 10 results for hunter2');
				checkEqual(run.json(node), expected, node, 'output (simplified, masked)');
				checkEqual(
					api.map((request) => request.path),
					['/leaksdb/identities/by_password/hunter2'],
					node,
					'request paths',
				);
			},
		}),
	},
	{
		file: 'operations/leaked-credential-search.json',
		about: 'Leaked Credential → Search, Limit 5, masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Search leaked credentials';
				const expected = fake.dataset
					.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } })
					.slice(0, 5);
				checkEqual(
					searchItems(run, node),
					expected.map((record) => simplifiedCredential(record as never)),
					node,
					'output',
				);
				check(
					run.json(node).every((item) => typeof item.globalSearchesRemaining === 'number'),
					node,
					'every item carries globalSearchesRemaining',
				);
				checkEqual(
					api.map((request) => request.body),
					[{ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 5 }],
					node,
					'request bodies',
				);
			},
		}),
	},
	{
		file: 'operations/matching-policy-assign.json',
		about: 'Matching Policy → Assign',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Assign the policy';
				const uuid = '9f28d2f4-8a81-4c58-a5a1-d29b1bc28e07';
				checkEqual(
					run.json(node),
					[
						{
							assigned: true,
							policyUuid: uuid,
							identifierIds: [7012, 7013],
							cleanPastEvents: true,
						},
					],
					node,
					'output',
				);
				checkEqual(
					api.map((request) => request.body),
					[{ identifier_ids: [7012, 7013], clean_past_events: true }],
					node,
					'request bodies',
				);
				for (const id of [7012, 7013]) {
					check(
						fake.dataset
							.assignmentsFor(id)
							.some(
								(assignment) =>
									assignment.matching_policy.uuid === uuid && assignment.clean_past_events,
							),
						node,
						`identifier ${id} has the policy in the fake`,
					);
				}
			},
		}),
	},
	{
		file: 'operations/matching-policy-get-by-identifier.json',
		about: 'Matching Policy → Get by Identifier',
		steps: one({
			check(run, { fake }) {
				const node = 'Get the policies of identifier 7016';
				const expected = fake.dataset.assignmentsFor(7016);
				checkEqual(expected.length, 3, node, 'the dataset has 3 assignments for identifier 7016');
				checkEqual(run.json(node), expected, node, 'output');
			},
		}),
	},
	{
		file: 'operations/source-get.json',
		about: 'Source → Get',
		steps: one({
			check(run, { fake }) {
				const node = 'Get the source';
				checkEqual(run.json(node), maskedView([fake.dataset.source('combolist-acme')], fake.plantedValues()), node, 'output');
			},
		}),
	},
	{
		file: 'operations/threat-report-create-request.json',
		about: 'Threat Report → Create Request',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Request a threat report';
				const stored = fake.state.reportRequests.at(-1);
				checkEqual(run.json(node), [{ request_id: stored?.request_id }], node, 'output');
				checkEqual(
					api.map((request) => request.body),
					[
						{
							report_title: 'Credential leaks for acme.com',
							time_range_type: 'last_7d',
							question: 'Which acme.com accounts were leaked this week?',
							included_keywords: ['acme', 'credentials'],
						},
					],
					node,
					'request bodies',
				);
			},
		}),
	},
	{
		file: 'operations/threat-report-get-request-status.json',
		about: 'Threat Report → Create Request, then Get Request Status in a loop through a Wait node',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get the request status';
				const { stored, report } = checkReportRequestLoop(run, fake);
				checkEqual(run.runs('Wait 2 seconds').length, 1, 'Wait 2 seconds', 'runs');
				checkEqual(
					run.json('Report ready'),
					[{ status: 'completed', report }],
					'Report ready',
					'output',
				);
				checkEqual(
					api.map((request) => `${request.method} ${request.path}`),
					[
						'POST /firework/v4/threat_flow/reports/requests',
						`GET /firework/v4/threat_flow/reports/requests/${stored.request_id}`,
						`GET /firework/v4/threat_flow/reports/requests/${stored.request_id}`,
					],
					node,
					'requests',
				);
			},
		}),
	},
	...INVENTORY_CASES,
	// Before the identifier clean-up playbook, which deletes identifiers the feed cases read.
	...EVENT_CASES,
	...RESPONSE_CASES,
	...PLAYBOOK_CASES,
	// ---- behaviours ----
	{
		file: 'leaked-credentials-for-a-domain.json',
		about: 'Return All: a page of 100, then 4 pages of 10,000, one empty and one short; passwords masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Leaked credentials for acme.com';
				const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
				checkEqual(expected.length, 22_000, node, 'credentials of acme.com in the dataset');
				const items = run.json(node);
				checkEqual(items.length, expected.length, node, 'items');
				checkEqual(
					items.map((item) => item.id),
					expected.map((record) => record.id),
					node,
					'ids, in order',
				);
				const wrongMask = items.findIndex(
					(item, index) => item.hash !== masked(expected[index].hash),
				);
				check(wrongMask === -1, node, `item ${wrongMask} has its password masked`);
				const searches = api.filter((request) => request.path === SEARCH_PATH);
				// A first page of 100 (the global-search quota counts what is asked), then a new walk of
				// pages of 10,000: 10,000, 0 (empty), 5,000 (short) and 7,000, by the fake's quirks.
				checkEqual(searches.length, 5, node, 'pages requested');
				const bodies = searches.map((request) => request.body as Record<string, unknown>);
				checkEqual(
					bodies.map((body) => body.size),
					[100, 10_000, 10_000, 10_000, 10_000],
					node,
					'page sizes',
				);
				check(
					bodies[0].from === undefined &&
						bodies[1].from === undefined &&
						new Set(bodies.slice(2).map((body) => body.from)).size === 3,
					node,
					'each page asks for a new cursor',
				);
			},
		}),
	},
	{
		file: 'behaviours/error-output.json',
		about: 'a failed item goes to the error output, the others continue',
		steps: one({
			check(run, { fake }) {
				const expected = fake.dataset.assignmentsFor(7020);
				checkEqual(
					expected.length,
					2,
					'Matching policies',
					'the dataset has 2 assignments for identifier 7020',
				);
				checkEqual(
					run.json('Matching policies', 0),
					expected,
					'Matching policies',
					'success output',
				);
				checkEqual(
					run
						.items('Matching policies', 1)
						.map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
					[{ json: { error: 'Identifier 7999 was not found in Flare' }, pairedItem: { item: 1 } }],
					'Matching policies',
					'error output',
				);
				checkEqual(run.items('Policies found').length, 2, 'Policies found', 'items');
				checkEqual(
					run.json('Lookup failed'),
					[{ error: 'Identifier 7999 was not found in Flare' }],
					'Lookup failed',
					'items',
				);
			},
		}),
	},
	{
		file: 'behaviours/error-stops-the-workflow.json',
		about: 'an error stops the run; the suite names the node and n8n’s message',
		byCommand: true,
		steps: one({
			status: 'error',
			check(run, { exitCode }) {
				checkEqual(
					failedNode(run.run),
					{
						node: 'Delete identifier 7999',
						message:
							'Identifier 7999 was not found in Flare — Check the ID, and that it belongs to the tenant selected in the credential. Flare says: "identifier 7999 not found".',
					},
					'Delete identifier 7999',
					'reported failure',
				);
				check(exitCode !== 0, 'Delete identifier 7999', 'n8n execute exits with an error code');
			},
		}),
	},
	// ---- playbooks ----
	{
		file: 'behaviours/trigger-fetch-test-event.json',
		about: 'Flare Trigger in manual mode: the 5 newest matches, twice the same (no state moved)',
		manualFrom: 'New leaked credential for acme.com',
		steps: [1, 2].map(() => ({
			check(run, { fake, api }) {
				const node = 'New leaked credential for acme.com';
				const newest = fake.dataset
					.searchAll({ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc' })
					.slice(0, 5);
				checkEqual(searchItems(run, node), newest.map(simplifiedCredential), node, 'output');
				checkEqual(
					api.map((request) => `${request.method} ${request.path}`),
					[`POST ${SEARCH_PATH}`],
					node,
					'requests: one global search page',
				);
				checkEqual(
					api[0].body,
					{ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 5 },
					node,
					'search body: newest first, no watermark filter',
				);
			},
		})),
	},
	{
		file: 'playbooks/investigate-a-credential.json',
		about: 'search by e-mail → ASTP URLs per credential → merged report',
		steps: one({
			check(run, { fake, api }) {
				const email = 'elena.green@acme.com';
				const credentials = fake.dataset.searchAll({ query: { type: 'email', email } });
				checkEqual(
					credentials.length,
					8,
					'Leaked credentials of the e-mail',
					'credentials of the e-mail in the dataset',
				);
				checkEqual(
					run.items('Leaked credentials of the e-mail').length,
					8,
					'Leaked credentials of the e-mail',
					'items',
				);
				const urlRequests = api.filter(
					(request) => request.path === '/astp/urls/by_credential_hash',
				);
				checkEqual(
					urlRequests.length,
					8,
					'Where each was used (ASTP URLs)',
					'one URL request per credential',
				);
				const expected = credentials.map((record) => {
					const urls = fake.dataset.urlsFor(record.credential_hash!).map((url) => url.url);
					return {
						identity: email,
						password: masked(record.hash),
						source: record.source?.name ?? record.source_id,
						imported_at: record.imported_at,
						credential_hash: record.credential_hash,
						used_on: urls,
						used_on_count: urls.length,
					};
				});
				check(
					expected.some((line) => line.used_on_count === 0),
					'Report',
					'the dataset has a credential never seen used',
				);
				const byHash = (lines: Array<Record<string, unknown>>) =>
					[...lines].sort((a, b) =>
						String(a.credential_hash).localeCompare(String(b.credential_hash)),
					);
				checkEqual(byHash(run.json('Report')), byHash(expected), 'Report', 'report lines');
			},
		}),
	},
	{
		file: 'playbooks/identifier-clean-up.json',
		about: 'matching policies by identifier → delete the identifiers with the retired policy',
		steps: one({
			check(run, { fake, api }) {
				const reviewed = [7001, 7002, 7003, 7004, 7005, 7006, 7007, 7008];
				const retired = reviewed.filter((id) =>
					fake.dataset
						.assignmentsFor(id)
						.some((assignment) => assignment.matching_policy.name === 'Supplier exposure'),
				);
				checkEqual(
					retired,
					[7001, 7004, 7006],
					'Assigned the retired policy',
					'identifiers with the retired policy in the dataset',
				);
				checkEqual(
					run.json('Delete the identifier'),
					retired.map((id) => ({ deleted: true, identifierId: id })),
					'Delete the identifier',
					'output',
				);
				checkEqual(
					api.filter((request) => request.method === 'DELETE').map((request) => request.path),
					retired.map((id) => `/firework/v4/identifiers/${id}`),
					'Delete the identifier',
					'DELETE requests',
				);
				checkEqual(
					reviewed.filter((id) => fake.state.deletedIdentifiers.has(id)),
					retired,
					'Delete the identifier',
					'identifiers deleted in the fake',
				);
			},
		}),
	},
	{
		file: 'playbooks/threat-report-with-wait.json',
		about: 'request a threat report, wait, fetch it when Flare has written it',
		steps: one({
			check(run, { fake }) {
				const { report } = checkReportRequestLoop(run, fake);
				checkEqual(
					run.json('Report'),
					[
						{
							status: 'completed',
							title: report.title,
							summary: report.summary,
							related_events: report.related_activity_uids,
						},
					],
					'Report',
					'output',
				);
			},
		}),
	},
	// ---- AI Agent (keep last) ----
	{
		file: 'behaviours/ai-agent-tool.json',
		about:
			'AI Agent with two Flare tools: the model calls the credential search and the tenant feed search, gets masked results, answers',
		steps: one({
			check(run, { fake, api, model }) {
				const tool = 'Search leaked credentials by domain or identity in Flare';
				const feedTool = 'Search the tenant event feed in Flare';
				const expected = fake.dataset
					.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } })
					.slice(0, 5)
					.map((record) => simplifiedCredential(record as never));
				const feedBody = {
					query: { type: 'domain', fqdn: 'example.com' },
					filters: { severity: 'high' },
					order: 'desc',
				} as const;
				// The feed items as the tool outputs them: planted leaked values masked.
				const expectedEvents = maskedView(fake.feed.feedAll(101, feedBody).slice(0, 5), fake.plantedValues());
				check(expectedEvents.length > 0, feedTool, 'the feed has events for the model');
				checkEqual(
					api
						.filter((request) => request.path === SEARCH_PATH)
						.map((request) => `${request.method} ${request.path}`),
					[`POST ${SEARCH_PATH}`],
					tool,
					'requests to Flare',
				);
				checkEqual(
					api.filter((request) => request.path === SEARCH_PATH).map((request) => request.body),
					[{ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 5 }],
					tool,
					'search request body (the domain filled in by the model through $fromAI)',
				);
				const feedRequests = api.filter((request) => request.path !== SEARCH_PATH);
				checkEqual(
					feedRequests.map((request) => {
						const body = { ...(request.body as Record<string, unknown>) };
						delete body.from;
						return `${request.method} ${request.path} ${JSON.stringify(body)}`;
					}),
					feedRequests.map(
						() =>
							`POST /firework/v4/events/tenant/_search ${JSON.stringify({ ...feedBody, size: 5 })}`,
					),
					feedTool,
					'feed search requests (domain and severity filled in by the model through $fromAI)',
				);
				check(feedRequests.length > 0, feedTool, 'the feed was searched');
				// Each tool variant ran once and gave the agent its items: the 5 simplified, masked
				// credentials, and the 5 feed items, their leaked values masked.
				const toolOutput = (name: string) => {
					const toolRuns = run.run.data.resultData.runData[name] ?? [];
					checkEqual(toolRuns.length, 1, name, 'runs of the tool');
					const toolData = toolRuns[0].data as
						| { ai_tool?: Array<Array<{ json: Record<string, unknown> }>> }
						| undefined;
					return (toolData?.ai_tool?.[0] ?? []).map((item) => item.json);
				};
				checkEqual(withoutQuota(toolOutput(tool)), expected, tool, 'tool output');
				checkEqual(toolOutput(feedTool), expectedEvents, feedTool, 'tool output');

				// What n8n sent to the model: two chat requests, both tools offered in both.
				const agent = 'AI Agent';
				checkEqual(
					model.map((request) => `${request.method} ${request.path}`),
					['POST /v1/chat/completions', 'POST /v1/chat/completions'],
					agent,
					'requests to the model',
				);
				const [first, second] = model.map((request) => request.body!);
				checkEqual(
					first.messages.map((message) => [message.role, messageText(message)]),
					[
						[
							'user',
							'Find leaked credentials for acme.com, and the events of our feed about example.com of high severity or above',
						],
					],
					agent,
					'messages of the first model request',
				);
				for (const [index, chat] of [first, second].entries()) {
					checkEqual(
						(chat.tools ?? [])
							.map((offered) => ({
								name: offered.function.name,
								description: offered.function.description,
								properties: (offered.function.parameters as { properties?: unknown }).properties,
								required: (offered.function.parameters as { required?: unknown }).required,
							}))
							.sort((a, b) => a.name.localeCompare(b.name)),
						[
							{
								// n8n names the tool after the node and describes it as "<action> in Flare".
								name: 'Search_leaked_credentials_by_domain_or_identity_in_Flare',
								description: 'Search leaked credentials by domain or identity in Flare',
								properties: {
									domain: {
										type: 'string',
										description:
											'Domain name whose leaked credentials to find, without scheme or path, e.g. example.com',
									},
								},
								required: ['domain'],
							},
							{
								name: 'Search_the_tenant_event_feed_in_Flare',
								description: 'Search the tenant event feed in Flare',
								properties: {
									domain: {
										type: 'string',
										description:
											'Domain the events must mention, without scheme or path, e.g. example.com',
									},
									minimum_severity: {
										type: 'string',
										description:
											'Lowest severity of the events to return: info, low, medium, high or critical',
									},
								},
								required: ['domain', 'minimum_severity'],
							},
						],
						agent,
						`tools offered in model request ${index + 1}`,
					);
				}
				checkEqual(
					model[0].answered,
					{ toolCalls: FAKE_MODEL_SCRIPT.toolCalls },
					agent,
					'the fake model called both tools',
				);
				// The tool results the model got back, by call: the masked credentials, never a full
				// password, and the feed items.
				const calls = second.messages.flatMap((message) => message.tool_calls ?? []);
				const toolOf = new Map(calls.map((call) => [call.id, call.function.name]));
				const results = second.messages.filter((message) => message.role === 'tool');
				const [credentialsCall, feedCall] = FAKE_MODEL_SCRIPT.toolCalls.map((call) => call.name);
				checkEqual(
					results.map((message) => toolOf.get(message.tool_call_id ?? '')).sort(),
					[credentialsCall, feedCall].sort(),
					agent,
					'tool results in the second model request, one per call',
				);
				const resultOf = (name: string) =>
					JSON.parse(
						messageText(results.find((message) => toolOf.get(message.tool_call_id ?? '') === name)!),
					) as Array<Record<string, unknown>>;
				checkEqual(
					withoutQuota(resultOf(credentialsCall)),
					expected,
					agent,
					'credential search result sent to the model (passwords masked)',
				);
				checkEqual(resultOf(feedCall), expectedEvents, agent, 'feed search result sent to the model');
				const sent = JSON.stringify(model);
				const full = fake.dataset
					.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } })
					.slice(0, 5)
					.map((record) => record.hash);
				const leaked = full.filter((hash) => sent.includes(hash));
				checkEqual(leaked, [], agent, 'full passwords found in what the model received');

				checkEqual(
					run.json(agent),
					[{ output: FAKE_MODEL_SCRIPT.finalAnswer }],
					agent,
					"the agent's output (the model's final answer)",
				);
				checkEqual(
					run.runs('OpenAI Chat Model').length,
					2,
					'OpenAI Chat Model',
					'model calls recorded by n8n',
				);
			},
		}),
	},
	// Last but one: it adds events to every tenant's feed.
	...TENANT_CASES,
	// Last: they create, change and archive the organization's tenants and members.
	...MSSP_CASES,
];

/** What the fake chat model answers in the AI Agent case (behaviours/ai-agent-tool.json). */
export const FAKE_MODEL_SCRIPT: FakeModelOptions = {
	toolCalls: [
		{
			name: 'Search_leaked_credentials_by_domain_or_identity_in_Flare',
			arguments: { domain: 'acme.com' },
		},
		{
			name: 'Search_the_tenant_event_feed_in_Flare',
			arguments: { domain: 'example.com', minimum_severity: 'high' },
		},
	],
	finalAnswer:
		'Flare knows leaked credentials for acme.com (passwords masked) and high-severity events about example.com.',
};

/** Items without `globalSearchesRemaining`, which depends on what ran before. */
function withoutQuota(items: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
	return items.map((item) => {
		const copy = { ...item };
		delete copy.globalSearchesRemaining;
		return copy;
	});
}
