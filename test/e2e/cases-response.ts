/**
 * End-to-end cases of the operations that response and onboarding playbooks use (issue 26):
 * identifier groups and their feed, the search of all of Flare, tenant metadata, stealer logs,
 * leaked cookies, one identifier's credentials, account checks, matching policies, and the playbook
 * that invalidates the sessions a stealer log stole. Checked against the fake's oracles at the time
 * of the check: cases before them may have changed its state.
 */
import { createHash } from 'crypto';

import type { FeedItem, IdentityRecord, LeakedCookie, StealerLogCookie, TenantCredential } from '../contract';
import type { FakeFlare, LoggedRequest } from '../fake-flare';
import { masked, maskedView, simplifiedIdentities } from '../integration/support';
import type { E2eCase, Step } from './cases';
import { NotedPerFake } from './noted';
import { check, checkEqual } from './report';

const TENANT = 101;
const GROUPS = '/firework/v2/assets/groups/';
const POLICIES = '/firework/v4/matching-policies';
const METADATA = '/firework/v4/events/tenant/metadata';
const EXPAND = '/firework/v4/events/_expand';
const TENANT_FEED = '/firework/v4/events/tenant/_search';

const one = (step: Step): Step[] => [step];
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const withoutFrom = (body: unknown) => ({ ...(body as Record<string, unknown>), from: undefined });
const lines = (requests: LoggedRequest[]) => requests.map((request) => `${request.method} ${request.path}`);

/** The pages of one walk: the same body but for `from`, absent first, new on every other page. */
function checkWalk(requests: LoggedRequest[], path: string, body: object, node: string) {
	checkEqual(lines(requests), requests.map(() => `POST ${path}`), node, 'requests');
	checkEqual(requests.map((request) => withoutFrom(request.body)), requests.map(() => withoutFrom(body)), node, 'request bodies (without the cursor)');
	const cursors = requests.map((request) => (request.body as { from?: unknown }).from);
	check(
		cursors[0] === undefined && new Set(cursors.slice(1)).size === requests.length - 1 && cursors.slice(1).every((cursor) => typeof cursor === 'string'),
		node,
		'the first page has no cursor, every next page a new one',
	);
}

/** The simplified credential of a feed, password masked. */
const simplifiedTenantCredential = (record: TenantCredential) => ({
	id: record.id,
	identity_name: record.identity_name,
	domain: record.domain,
	hash: masked(record.hash),
	imported_at: record.imported_at,
	source_id: record.source_id,
	source_name: record.source.name,
	credential_hash: record.credential_hash,
	remediated_at: record.remediated_at ?? null,
	ignored_at: record.ignored_at ?? null,
});

/** What the playbook saw before it ran: the 5 newest stealer logs. */
const notedStealerLogs = new NotedPerFake<FeedItem[]>();

export const RESPONSE_CASES: E2eCase[] = [
	// ---- identifier groups ----
	{
		file: 'operations/identifier-group-get-many.json',
		about: 'Identifier Group → Get Many: every group from one request',
		steps: one({
			check(run, { fake, api }) {
				const node = 'List the identifier groups';
				checkEqual(lines(api), [`GET ${GROUPS}`], node, 'requests');
				checkEqual(run.json(node), fake.dataset.identifierGroups(TENANT), node, 'output');
			},
		}),
	},
	{
		file: 'operations/identifier-group-get.json',
		about: 'Identifier Group → Get: group 101 from the list',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get group 101';
				checkEqual(lines(api), [`GET ${GROUPS}101`], node, 'requests');
				checkEqual(run.json(node), [fake.dataset.identifierGroup(101, TENANT)], node, 'output');
			},
		}),
	},
	{
		file: 'operations/identifier-group-create.json',
		about: 'Identifier Group → Create: the group Acme Europe',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Create the group Acme Europe';
				checkEqual(api.map((request) => [request.method, request.path, request.body]), [['POST', GROUPS, { name: 'Acme Europe' }]], node, 'requests');
				const [created] = run.json(node);
				checkEqual(run.json(node), [fake.dataset.identifierGroup(Number(created?.id), TENANT)], node, 'output: the group stored in the fake');
				checkEqual(created?.name, 'Acme Europe', node, 'its name');
			},
		}),
	},
	{
		file: 'operations/identifier-group-delete.json',
		about: 'Identifier Group → Delete: a group created first, by its ID',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Delete the group';
				const id = Number(run.json('Create a temporary group')[0]?.id);
				checkEqual(lines(api), [`POST ${GROUPS}`, `DELETE ${GROUPS}${id}`], node, 'requests');
				checkEqual(run.json(node), [{ deleted: true, groupId: id }], node, 'output');
				check(fake.dataset.identifierGroup(id, TENANT) === undefined, node, `group ${id} is gone from the fake`);
			},
		}),
	},
	{
		file: 'operations/event-search-identifier-group-feed.json',
		about: 'Event → Search Identifier Group Feed: group 101, severity at least medium, Return All',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Search the events of group 101';
				const body = { filters: { severity: 'medium' }, order: 'desc' } as const;
				const expected = maskedView(fake.feed.groupFeedAll(TENANT, body, 101), fake.plantedValues());
				check(expected.length > 10, node, 'the group has more than one page of such events');
				checkEqual(run.json(node), expected, node, 'output (the feed items)');
				checkWalk(api, '/firework/v4/events/identifier_groups/101/_search', { ...body, size: 10 }, node);
			},
		}),
	},
	// ---- events ----
	{
		file: 'operations/event-search-global.json',
		about: 'Event → Search All of Flare: domain example.com, Limit 25 (pages of 9, the Search tier, the quota)',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Search all of Flare for example.com';
				const body = { query: { type: 'domain', fqdn: 'example.com' }, order: 'desc' };
				const expected = maskedView(fake.feed.globalSearchAll(TENANT, body), fake.plantedValues());
				check(expected.length >= 25, node, 'Flare holds 25 such events or more');
				const items = run.json(node);
				checkEqual(
					items.map((item) => ({ ...item, globalSearchesRemaining: undefined, globalSearchBatchReached: undefined })),
					expected.slice(0, 25).map((item) => ({ ...item, globalSearchesRemaining: undefined, globalSearchBatchReached: undefined })),
					node,
					'output (the events, without the quota fields)',
				);
				check(items.every((item) => typeof item.globalSearchesRemaining === 'number'), node, 'each item says how many searches remain');
				checkWalk(api, '/firework/v4/events/global/_search', { ...body, size: 9 }, node);
				checkEqual(api.map((request) => request.tier), api.map(() => 'search'), node, 'every page on the Search tier');
			},
		}),
	},
	{
		file: 'operations/event-update-tenant-metadata.json',
		about: 'Event → Update Tenant Metadata: tags, severity and notes of 2 events, one request each',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Tag, rate and annotate';
				const uids = ['leaked_credential/combolists/1010075', 'bot/genesis_market/1010074'];
				const body = { tags: ['triaged', 'soc'], severity: 'high', notes: 'Reviewed by the SOC' };
				checkEqual(
					api.map((request) => [request.method, request.path, request.query, request.body]),
					uids.map((uid) => ['PATCH', METADATA, { uid }, body]),
					node,
					'requests',
				);
				checkEqual(
					run.items(node).map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
					uids.map((uid, index) => ({ json: { uid, notes: body.notes, tags: body.tags, severity: 'high' }, pairedItem: { item: index } })),
					node,
					'output, paired with the events',
				);
				check(
					uids.every((uid) => {
						const state = fake.events.state(TENANT, uid);
						return state?.override === 'high' && state.tags.join() === 'triaged,soc';
					}),
					node,
					'the fake stored them',
				);
			},
		}),
	},
	{
		file: 'operations/event-expand-stealer-log.json',
		about: 'Event → Expand Stealer Log: every cookie of a stealer log, pages of 20, values masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'List the cookies of the stealer log';
				const uid = 'stealer_log/russian_market/1010065';
				const cookies = fake.feed.expandAll(uid, 'cookies') as StealerLogCookie[];
				check(cookies.length > 20, node, 'the stealer log has more than one page of cookies');
				checkEqual(run.json(node), cookies.map((cookie) => ({ ...cookie, value: masked(cookie.value), event_uid: uid })), node, 'output');
				checkEqual(
					api.map((request) => [request.method, request.path, { ...request.query, from: undefined }]),
					api.map(() => ['GET', EXPAND, { field: 'cookies', uid, size: '20', from: undefined }]),
					node,
					'requests',
				);
				check(api.length > 2, node, 'it walked through the empty and short pages');
			},
		}),
	},
	// ---- credentials, cookies, accounts ----
	{
		file: 'operations/leaked-credential-get-identifier-feed.json',
		about: 'Leaked Credential → Get Identifier Feed: identifier 7001, Limit 25, simplified and masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Credentials of example.com (7001)';
				checkEqual(
					api.map((request) => [request.method, request.path, request.query]),
					[['GET', '/firework/v3/identifiers/7001/feed/credentials', { size: '25' }]],
					node,
					'requests',
				);
				checkEqual(run.json(node), fake.feed.identifierCredentialsAll(TENANT, 7001).slice(0, 25).map(simplifiedTenantCredential), node, 'output');
			},
		}),
	},
	{
		file: 'operations/leaked-cookie-search.json',
		about: 'Leaked Cookie → Search: session cookies of sso.example.com, values masked',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Leaked cookies of sso.example.com';
				const body = { domain: 'sso.example.com', names: ['session', 'PHPSESSID'], order: 'asc' };
				checkEqual(api.map((request) => [request.method, request.path, request.body]), [['POST', '/astp/v2/cookies/_search', { ...body, size: 2000 }]], node, 'requests');
				const expected: LeakedCookie[] = fake.feed.cookiesFor(body as never);
				check(expected.length > 0, node, 'the domain has such cookies');
				checkEqual(run.json(node), expected.map((cookie) => ({ ...cookie, value: masked(cookie.value) })), node, 'output');
			},
		}),
	},
	{
		file: 'operations/identity-check-accounts.json',
		about: 'Identity → Check Accounts: 3 accounts in one request, one item each',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Check the accounts';
				const accounts = ['elena.green@example.com', 'elena.green@acme.com', 'new.hire@example.com'];
				checkEqual(api.map((request) => [request.method, request.path, request.body]), [['POST', '/astp/identities/by_accounts', { accounts }]], node, 'requests');
				const identities: IdentityRecord[] = accounts.map((account) => fake.accountIdentity(account));
				checkEqual(
					run.json(node),
					identities.map((identity, index) => ({
						account: accounts[index],
						leaked: identity.passwords.length > 0,
						passwords: simplifiedIdentities([identity]),
						morePasswords: false,
					})),
					node,
					'output',
				);
				checkEqual(run.json(node).map((item) => item.leaked), [true, true, false], node, 'who leaked');
			},
		}),
	},
	// ---- matching policies ----
	{
		file: 'operations/matching-policy-create.json',
		about: 'Onboarding: Identifier → Create (in group 101), Matching Policy → Create, Assign',
		steps: one({
			check(run, { fake, api }) {
				const identifier = run.json('Watch shop.globex.io')[0];
				const policy = run.json('Create the policy Shop noise')[0];
				const id = Number(identifier?.id);
				const uuid = String(policy?.uuid);
				checkEqual(
					api.map((request) => [request.method, request.path, request.body]),
					[
						['POST', '/firework/v4/identifiers/', { data: { type: 'domain', fqdn: 'shop.globex.io' }, categories: ['leaked_credential', 'stealer_log'], emerging_categories: [], severities: ['info', 'low', 'medium', 'high', 'critical'], group_id: 101 }],
						['POST', POLICIES, { name: 'Shop noise', type: 'EXCLUDED_KEYWORDS', value: { keywords: ['coupon', 'giveaway'] } }],
						['POST', `${POLICIES}/${uuid}/assignments`, { identifier_ids: [id], clean_past_events: false }],
					],
					'Assign it to the identifier',
					'requests',
				);
				checkEqual(run.json('Create the policy Shop noise'), [fake.dataset.policy(uuid)], 'Create the policy Shop noise', 'output: the policy stored');
				checkEqual(
					run.json('Assign it to the identifier'),
					[{ assigned: true, policyUuid: uuid, identifierIds: [id], cleanPastEvents: false }],
					'Assign it to the identifier',
					'output',
				);
				checkEqual(fake.dataset.policyAssignments(uuid, TENANT).map((entry) => entry.identifier_id), [id], 'Assign it to the identifier', 'the fake assigned it');
			},
		}),
	},
	{
		file: 'operations/matching-policy-get.json',
		about: 'Matching Policy → Get: Exclude noise',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get the policy Exclude noise';
				const uuid = '9f28d2f4-8a81-4c58-a5a1-d29b1bc28e07';
				checkEqual(lines(api), [`GET ${POLICIES}/${uuid}`], node, 'requests');
				checkEqual(run.json(node), [fake.dataset.policy(uuid)], node, 'output');
			},
		}),
	},
	{
		file: 'operations/matching-policy-get-many.json',
		about: 'Matching Policy → Get Many: Return All',
		steps: one({
			check(run, { fake, api }) {
				const node = 'List the matching policies';
				checkEqual(run.json(node), fake.dataset.policies(), node, 'output');
				checkEqual(api.map((request) => [request.path, request.query.order, request.query.size]), api.map(() => [POLICIES, 'asc', '25']), node, 'requests');
			},
		}),
	},
	{
		file: 'operations/matching-policy-update.json',
		about: 'Matching Policy → Update: read, read again just before the write, then the policy sent back whole with the changes',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Update its keywords';
				const uuid = String(run.json('Create a policy')[0]?.uuid);
				checkEqual(
					api.map((request) => [request.method, request.path, request.body]).slice(1),
					[
						['GET', `${POLICIES}/${uuid}`, undefined],
						['GET', `${POLICIES}/${uuid}`, undefined],
						['PUT', `${POLICIES}/${uuid}`, { name: 'Terms to ignore (QA)', value: { keywords: ['test', 'demo', 'sandbox'] } }],
					],
					node,
					'requests',
				);
				checkEqual(run.json(node), [fake.dataset.policy(uuid)], node, 'output: the policy stored');
			},
		}),
	},
	{
		file: 'operations/matching-policy-delete.json',
		about: 'Matching Policy → Delete: a policy created first, by its UUID',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Delete the policy';
				const uuid = String(run.json('Create a temporary policy')[0]?.uuid);
				checkEqual(lines(api), [`POST ${POLICIES}`, `DELETE ${POLICIES}/${uuid}`], node, 'requests');
				checkEqual(run.json(node), [{ deleted: true, policyUuid: uuid }], node, 'output');
				check(fake.dataset.policy(uuid) === undefined, node, 'the policy is gone from the fake');
			},
		}),
	},
	{
		file: 'operations/matching-policy-get-assignments.json',
		about: 'Matching Policy → Get Assignments: Supplier exposure',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Identifiers of Supplier exposure';
				const uuid = '94c0a067-bb19-4bf4-ae8b-df24110af291';
				checkEqual(api.map((request) => [request.path, request.query]), [[`${POLICIES}/${uuid}/assignments`, { order: 'asc', size: '25' }]], node, 'requests');
				const expected = fake.dataset.policyAssignments(uuid, TENANT);
				check(expected.length > 0, node, 'the policy is assigned');
				checkEqual(run.json(node), expected, node, 'output');
			},
		}),
	},
	{
		file: 'operations/matching-policy-unassign.json',
		about: 'Matching Policy → Unassign: Payment cards from identifier 7013',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Unassign Payment cards from 7013';
				const uuid = 'a3c70615-3ac7-435a-ab12-44c5ebb6b1aa';
				checkEqual(api.map((request) => [request.method, request.path, request.body]), [['DELETE', `${POLICIES}/${uuid}/assignments`, { identifier_ids: [7013] }]], node, 'requests');
				checkEqual(run.json(node), [{ unassigned: true, policyUuid: uuid, identifierIds: [7013] }], node, 'output');
				check(!fake.dataset.policyAssignments(uuid, TENANT).some((entry) => entry.identifier_id === 7013), node, '7013 no longer has the policy');
			},
		}),
	},
	// ---- the playbook ----
	{
		file: 'playbooks/invalidate-stealer-log-sessions.json',
		about: 'New stealer log (manual mode: the 5 newest) → its cookies (SHA-256) → our apps → revoke (stand-in) → tagged handled in Flare',
		manualFrom: 'New stealer log',
		steps: one({
			before(fake: FakeFlare) {
				notedStealerLogs.set(fake, fake.feed.feedAll(TENANT, { filters: { type: ['stealer_log'] }, order: 'desc' }).slice(0, 5));
			},
			check(run, { fake, api }) {
				const stealerLogs = notedStealerLogs.get(fake);
				const trigger = 'New stealer log';
				checkEqual(stealerLogs.length, 5, trigger, 'the feed has 5 stealer logs or more');
				checkEqual(run.json(trigger), maskedView(stealerLogs, fake.plantedValues()), trigger, 'output: the 5 newest stealer logs, masked');
				const feedPages = api.filter((request) => request.path === TENANT_FEED);
				checkEqual(
					feedPages.map((request) => withoutFrom(request.body)),
					feedPages.map(() => withoutFrom({ filters: { type: ['stealer_log'] }, order: 'desc', size: 10 })),
					trigger,
					'feed requests: stealer logs, newest first, pages of 10 (the watch\'s)',
				);

				const uids = stealerLogs.map((event) => event.metadata.uid);
				const cookies = uids.flatMap((uid) => (fake.feed.expandAll(uid, 'cookies') as StealerLogCookie[]).map((cookie) => ({ ...cookie, value: sha256(cookie.value), event_uid: uid })));
				checkEqual(run.json('Stolen cookies'), cookies, 'Stolen cookies', 'output: every cookie of the 5 stealer logs, values as SHA-256');
				const ours = cookies.filter((cookie) => /^(.*\.)?example\.com$/i.test(cookie.host_key));
				check(ours.length > 0 && ours.length < cookies.length, 'Our apps only', 'some cookies are of our apps, some not');
				checkEqual(run.json('Our apps only'), ours, 'Our apps only', 'output: the cookies of example.com and its subdomains');
				checkEqual(
					run.json('Session to revoke'),
					ours.map((cookie) => ({ app_host: cookie.host_key, cookie_name: cookie.name, session_token_sha256: cookie.value, stealer_log: cookie.event_uid })),
					'Session to revoke',
					'one session to revoke per cookie',
				);

				const handled = uids.filter((uid) => ours.some((cookie) => cookie.event_uid === uid));
				const tagsOf = (uid: string) => stealerLogs.find((event) => event.metadata.uid === uid)?.tenant_metadata?.tags ?? [];
				const expected = handled.map((uid) => ({
					uid,
					tags: [...new Set([...tagsOf(uid), 'handled'])],
					revoked: ours.filter((cookie) => cookie.event_uid === uid).length,
				}));
				checkEqual(run.json('One item per stealer log'), expected, 'One item per stealer log', 'one item per stealer log with sessions of our apps');
				const node = 'Tag handled in Flare';
				checkEqual(
					api.filter((request) => request.path === METADATA).map((request) => [request.method, request.query, request.body]),
					expected.map((entry) => ['PATCH', { uid: entry.uid }, { tags: entry.tags, notes: `n8n revoked ${entry.revoked} stolen sessions of our apps` }]),
					node,
					'requests: one per stealer log',
				);
				check(
					handled.every((uid) => fake.events.state(TENANT, uid)?.tags.includes('handled')),
					node,
					'every handled stealer log is tagged handled in the fake',
				);
				checkEqual(
					api.filter((request) => request.path === EXPAND).every((request) => request.query.field === 'cookies' && request.query.size === '20'),
					true,
					'Stolen cookies',
					'expand requests: cookies, pages of 20',
				);
			},
		}),
	},
];
