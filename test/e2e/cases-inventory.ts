/**
 * End-to-end cases of the leaked-credential, identifier and tenant operations (workflows/operations/),
 * checked against the fake's oracles at the time of the check: cases before them may have changed its
 * state (an identifier deleted, a credential remediated).
 */
import type { TenantCredential } from '../contract';
import { masked } from '../integration/support';
import type { E2eCase } from './cases';
import { check, checkEqual } from './report';

/** The tenant of the suite's credential (the fake's first). */
const TENANT = 101;
const ASTP_PATH = '/astp/v2/credentials/_search';
const FEED_PATH = '/firework/v2/me/feed/credentials';
const IDENTIFIERS_PATH = '/firework/v4/identifiers/';

/** The simplified ASTP search item: Search's, without the quota fields. */
function simplifiedCredential(record: Record<string, unknown>): Record<string, unknown> {
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

/** The simplified tenant-feed item, password masked. */
function simplifiedTenantCredential(record: TenantCredential): Record<string, unknown> {
	return {
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
	};
}

export const INVENTORY_CASES: E2eCase[] = [
	{
		file: 'operations/leaked-credential-search-astp.json',
		about: 'Leaked Credential → Search ASTP, Limit 5, masked, no quota',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Search leaked credentials (ASTP)';
					const query = { type: 'domain', fqdn: 'acme.com' };
					const expected = fake.dataset.searchAll({ query } as never).slice(0, 5);
					checkEqual(expected.length, 5, node, 'the dataset has 5 credentials of acme.com');
					checkEqual(run.json(node), expected.map(simplifiedCredential), node, 'output');
					checkEqual(
						api.map((request) => [request.method, request.path, request.body]),
						[['POST', ASTP_PATH, { query, order: 'desc', size: 5 }]],
						node,
						'requests',
					);
					check(
						api.every((request) => request.quotaCharged === undefined),
						node,
						'no global search quota charged',
					);
				},
			},
		],
	},
	{
		file: 'operations/leaked-credential-get-tenant-feed.json',
		about: "Leaked Credential → Get Tenant Feed, Limit 10: the tenant's credentials and states",
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Leaked credentials of the tenant';
					const expected = fake.feed.tenantCredentialsAll(TENANT).slice(0, 10);
					checkEqual(expected.length, 10, node, 'the tenant has 10 credentials in the fake');
					checkEqual(run.json(node), expected.map(simplifiedTenantCredential), node, 'output');
					checkEqual(
						api.map((request) => [request.method, request.path, request.query]),
						[['GET', FEED_PATH, { order_type: 'desc', size: '10' }]],
						node,
						'requests',
					);
				},
			},
		],
	},
	{
		file: 'operations/leaked-credential-take-action.json',
		about:
			'Leaked Credential → Take Action: the 3 newest credentials marked remediated in one request',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Mark them remediated';
					const hashes = run
						.json('Newest credentials of the tenant')
						.map((item) => String(item.credential_hash));
					checkEqual(
						hashes,
						fake.feed
							.tenantCredentialsAll(TENANT)
							.slice(0, 3)
							.map((record) => record.credential_hash),
						'Newest credentials of the tenant',
						'credential hashes',
					);
					checkEqual(
						run.items(node).map((item) => [item.json, item.pairedItem]),
						hashes.map((credential_hash, index) => [
							{ credential_hash, action: 'remediate', done: true },
							{ item: index },
						]),
						node,
						'output, paired with the input items',
					);
					const actions = api.filter((request) => request.path.endsWith('/credentials/actions'));
					checkEqual(
						actions.map((request) => request.body),
						[
							{
								action: { type: 'remediate' },
								targets: hashes.map((credential_hash) => ({ credential_hash })),
							},
						],
						node,
						'one request for the three credentials',
					);
					check(
						hashes.every((hash) => fake.feed.credentialState(TENANT, hash).remediated_at !== null),
						node,
						'the three credentials are remediated in the fake',
					);
				},
			},
		],
	},
	{
		file: 'operations/identifier-create.json',
		about: 'Identifier → Create: a domain identifier with categories, severities and a name',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Watch shop.acme.com';
					checkEqual(
						api.map((request) => [request.method, request.path, request.body]),
						[
							[
								'POST',
								IDENTIFIERS_PATH,
								{
									data: { type: 'domain', fqdn: 'shop.acme.com' },
									name: 'Acme shop',
									categories: ['leaked_credential', 'stealer_log'],
									emerging_categories: [],
									severities: ['medium', 'high', 'critical'],
								},
							],
						],
						node,
						'requests',
					);
					const [created] = run.json(node);
					const id = Number(created?.id);
					check(fake.dataset.identifierExists(id), node, `identifier ${id} exists in the fake`);
					checkEqual(run.json(node), [fake.dataset.identifier(id, TENANT)], node, 'output');
				},
			},
		],
	},
	{
		file: 'operations/identifier-get.json',
		about: 'Identifier → Get by ID',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Get identifier 7002';
					checkEqual(run.json(node), [fake.dataset.identifier(7002, TENANT)], node, 'output');
					checkEqual(
						api.map((request) => `${request.method} ${request.path}`),
						[`GET ${IDENTIFIERS_PATH}7002`],
						node,
						'requests',
					);
				},
			},
		],
	},
	{
		file: 'operations/identifier-get-many.json',
		about: 'Identifier → Get Many, Return All, domain identifiers only',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Domain identifiers';
					const expected = fake.dataset
						.identifiers(TENANT)
						.filter((record) => record.data.type === 'domain');
					check(expected.length >= 5, node, 'the fake has domain identifiers');
					checkEqual(run.json(node), expected, node, 'output');
					checkEqual(
						api.map((request) => [request.method, request.path, request.query]),
						[['GET', IDENTIFIERS_PATH, { order_by: 'id', types: 'domain', size: '100' }]],
						node,
						'requests',
					);
				},
			},
		],
	},
	{
		file: 'operations/identifier-update.json',
		about: 'Identifier → Update: read, then written back with a new name and severities',
		steps: [
			{
				check(run, { fake, api }) {
					const node = 'Rename identifier 7029';
					const after = fake.dataset.identifier(7029, TENANT);
					checkEqual(
						api.map((request) => `${request.method} ${request.path} ${request.status}`),
						[`GET ${IDENTIFIERS_PATH}7029 200`, `GET ${IDENTIFIERS_PATH}7029 200`, `PUT ${IDENTIFIERS_PATH}7029 200`],
						node,
						'requests: read, read again just before the write (unchanged), then write',
					);
					checkEqual(
						api[2]?.body,
						{
							data: { type: 'ip', ip: '203.0.113.29' },
							name: 'Head office IP',
							categories: ['paste', 'blog_post'],
							emerging_categories: [],
							severities: ['high', 'critical'],
							group_id: null,
							is_disabled: false,
						},
						node,
						'the identifier sent back with the two changes',
					);
					checkEqual(run.json(node), [after], node, 'output');
					checkEqual(after.name, 'Head office IP', node, 'name in the fake');
				},
			},
		],
	},
	{
		file: 'operations/tenant-get-many.json',
		about: 'Tenant → Get Many: one item per tenant',
		steps: [
			{
				check(run, { fake }) {
					const node = 'Tenants';
					checkEqual(run.json(node), fake.feed.tenants(), node, 'output');
					checkEqual(run.json(node).length, 3, node, 'tenants');
				},
			},
		],
	},
];
