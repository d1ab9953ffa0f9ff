/**
 * End-to-end cases of one credential serving every tenant (docs/usage.md, "One credential, every
 * tenant"): Tenant → Get Many in Organization, and the playbook that, for each tenant of the
 * organization, makes one ticket of its new critical events and tags them in Flare. The fake's log
 * says whose tenant each request's token was for: each tenant's requests must carry that tenant's
 * token only (a token of another tenant finds none of its events: the tags would fail, 404).
 */
import type { FakeFlare, LoggedRequest, OtherOrganizationTenant } from '../fake-flare';
import type { E2eCase } from './cases';
import { check, checkEqual } from './report';

/** The suite's tenants (SUITE_DATASET); the credential's is the first, the key's default. */
export const SUITE_TENANTS = [101, 202, 303];
/**
 * The organization's other tenants (SUITE_DATASET), which no token works in: one archived, one
 * disabled (the playbook leaves them out), and one that Flare refuses (its search fails, alone).
 */
export const OTHER_TENANTS: OtherOrganizationTenant[] = [
	{ id: 404, name: 'Initech', is_archived: true },
	{ id: 505, name: 'Hooli', is_disabled: true },
	{ id: 606, name: 'Umbrella' },
];
const REFUSED_TENANT = 606;
const ORGANIZATION = 4242;
const TENANT_FEED = '/firework/v4/events/tenant/_search';
const METADATA = '/firework/v4/events/tenant/metadata';
const DAY = 24 * 60 * 60_000;

/** The organization's tenants as Flare lists them (the fake's `Tenant` records), its others after its own. */
const organizationTenants = (fake: FakeFlare) =>
	[...fake.feed.tenants(), ...OTHER_TENANTS].map((tenant) => ({
		id: tenant.id,
		name: tenant.name,
		type: 'regular',
		description: `Monitoring of ${tenant.name}`,
		organization_id: ORGANIZATION,
		industry: 'global',
		is_disabled: 'is_disabled' in tenant && tenant.is_disabled === true,
		is_archived: 'is_archived' in tenant && tenant.is_archived === true,
		prevent_global_search: false,
	}));

/** Each request's tenant once, in order (a walk of several pages is one tenant's). */
const tenantRuns = (requests: LoggedRequest[]) =>
	requests.map((request) => request.tenant).filter((tenant, k, all) => k === 0 || tenant !== all[k - 1]);

/** New events of this execution, per tenant: critical ones (ticketed) and one that is not. */
const NEW_EVENTS: Array<{ tenantId: number; count: number; severity: 'critical' | 'high' }> = [
	{ tenantId: 101, count: 1, severity: 'critical' },
	{ tenantId: 101, count: 1, severity: 'high' },
	{ tenantId: 202, count: 2, severity: 'critical' },
	{ tenantId: 303, count: 1, severity: 'critical' },
];

export const TENANT_CASES: E2eCase[] = [
	{
		file: 'operations/tenant-get-many-in-organization.json',
		about: "Tenant → Get Many in Organization: the key's organization from the token test, then every tenant of it",
		steps: [
			{
				check(run, { fake, requests }) {
					const node = 'Tenants of the organization';
					checkEqual(run.json(node), organizationTenants(fake), node, 'output');
					checkEqual(run.json(node).length, 6, node, 'tenants');
					checkEqual(
						requests.filter((request) => request.auth === 'bearer').map((request) => `${request.method} ${request.path}`),
						['GET /tokens/test', `GET /firework/v2/organizations/${ORGANIZATION}/tenants`],
						node,
						'requests',
					);
				},
			},
		],
	},
	{
		file: 'playbooks/critical-events-per-tenant.json',
		about:
			"One credential, three tenants: each tenant's new critical events of the last day into one ticket per tenant, tagged in Flare; each tenant's requests with its own token only; disabled and archived tenants left out; a tenant Flare refuses listed apart, the others served",
		managesTokens: true,
		steps: [
			{
				before(fake) {
					for (const { tenantId, count, severity } of NEW_EVENTS) fake.addEvents(count, { tenantId, severity });
				},
				check(run, { fake, requests, api }) {
					const since = new Date(fake.now() - DAY).toISOString();
					const newCritical = (tenantId: number) =>
						fake.feed.feedAll(tenantId, { filters: { severity: 'critical', materialized_at: { gte: since } }, order: 'desc' });
					const names = new Map(fake.feed.tenants().map((tenant) => [tenant.id, tenant.name]));
					const tickets = SUITE_TENANTS.map((tenantId) => {
						const events = newCritical(tenantId).map((event) => ({
							uid: event.metadata.uid,
							severity: event.metadata.severity,
							matched_at: event.metadata.matched_at,
							link: event.metadata.flare_url,
						}));
						return {
							tenantId,
							tenant: names.get(tenantId),
							title: `${events.length} new critical event(s) for ${names.get(tenantId)} in the last 24 hours`,
							count: events.length,
							events,
						};
					});
					const ticketNode = 'One ticket per tenant';
					checkEqual(tickets.map((ticket) => ticket.count), [1, 2, 1], ticketNode, 'new critical events per tenant in the fake');
					checkEqual(run.json(ticketNode), tickets, ticketNode, 'one ticket per tenant');

					// Disabled and archived tenants are left out before any request; the others are searched.
					const served = [...SUITE_TENANTS, REFUSED_TENANT];
					checkEqual(run.json('Tenants in service').map((tenant) => tenant.id), served, 'Tenants in service', 'the tenants searched');
					const searchNode = 'New critical events of the tenant';
					// The tenant Flare refuses: one error item, paired with it; the others went on.
					checkEqual(
						run.items(searchNode, 1).map((item) => [item.json, item.pairedItem]),
						[
							[
								{
									error: `Flare at ${new URL(fake.url).host} rejected the API key (HTTP 403). Check the API key and that it may access tenant ${REFUSED_TENANT}, or create a new key under Profile → API Keys.`,
								},
								{ item: served.indexOf(REFUSED_TENANT) },
							],
						],
						searchNode,
						'error output',
					);
					checkEqual(
						run.json('Tenants not searched'),
						[
							{
								tenantId: REFUSED_TENANT,
								tenant: 'Umbrella',
								error: `Flare at ${new URL(fake.url).host} rejected the API key (HTTP 403). Check the API key and that it may access tenant ${REFUSED_TENANT}, or create a new key under Profile → API Keys.`,
							},
						],
						'Tenants not searched',
						'one item per tenant not searched',
					);
					checkEqual(
						run.json(searchNode).map((event) => [(event.metadata as { uid: string }).uid, event.tenantId]),
						tickets.flatMap((ticket) => ticket.events.map((event) => [event.uid, ticket.tenantId])),
						searchNode,
						'the events, each naming its tenant',
					);
					// The searches: tenant by tenant, each with that tenant's token.
					const searches = api.filter((request) => request.path === TENANT_FEED);
					checkEqual(tenantRuns(searches), SUITE_TENANTS, searchNode, "the tenant of each search's token, in turn");
					check(searches.every((request) => request.status === 200), searchNode, 'every search answered 200');
					// The tags: each in the event's own tenant (another tenant's token would get 404).
					const tagNode = 'Mark ticketed in Flare';
					const tags = api.filter((request) => request.path === METADATA);
					const tenantOf = new Map(tickets.flatMap((ticket) => ticket.events.map((event) => [event.uid, ticket.tenantId])));
					checkEqual(
						tags.map((request) => [request.query.uid, request.tenant, request.status]),
						tickets.flatMap((ticket) => ticket.events.map((event) => [event.uid, tenantOf.get(event.uid), 200])),
						tagNode,
						"each event's tag request: its tenant's token, 200",
					);
					for (const ticket of tickets) {
						const tagged = fake.feed
							.feedAll(ticket.tenantId, { filters: { tags: ['ticketed'] } })
							.map((event) => event.metadata.uid);
						checkEqual(tagged, ticket.events.map((event) => event.uid), tagNode, `events tagged ticketed in tenant ${ticket.tenantId}`);
					}
					// One token exchange per tenant searched, each for that tenant (the refused one's refused;
					// none for the disabled and archived ones), and the credential's own, for the organization's
					// tenants, only when none is stored yet; no bearer request without a token.
					const exchanges = requests.filter((request) => request.path === '/tokens/generate');
					checkEqual(
						exchanges.filter((request) => request.body !== undefined).map((request) => [request.body, request.status]),
						served.map((tenant) => [{ tenant_id: tenant }, tenant === REFUSED_TENANT ? 403 : 200]),
						searchNode,
						'the token exchanges of the tenants',
					);
					check(exchanges.length <= served.length + 1, searchNode, `${exchanges.length} token exchanges`);
					check(
						api.every((request) => request.auth === 'bearer' && request.tokenValid === true && request.tenant !== undefined),
						searchNode,
						'every request carries a valid token of a tenant',
					);
				},
			},
		],
	},
];
