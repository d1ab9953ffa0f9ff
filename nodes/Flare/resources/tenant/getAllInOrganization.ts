import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { organizationOf } from './organization';

const fields: INodeProperties[] = [
	notice(
		'organizationTenantsNotice',
		"Every tenant of your Flare organization, for an organization administrator's API key. Each tenant's ID is what the Tenant field of the Flare node and trigger takes.",
	),
	...returnAllOrLimit,
];

export const getAllInOrganizationDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['getAllInOrganization'] } },
	fields,
);

/**
 * Every tenant of the API key's organization (an organization administrator's key): the
 * organization from `GET /tokens/test`, then its tenants, paged by `from`/`next`
 * (docs/api-contract.md, "Inventory and credential endpoints"). One item per tenant, as Flare lists
 * it (`id`, `name`, …).
 */
export const getAllInOrganizationOperation: FlareOperation = {
	action: 'list the tenants of the organization',
	method: 'GET',
	path: '/{segment}/v2/organizations/{organization_id}/tenants',
	tier: 'basic',
	// Flare documents neither `size` nor `from` here; its other organization lists take both, `size`
	// 20 by default and no maximum: pages of 100 are a bet, with pages of 20 when Flare refuses them.
	paging: {
		maxPageSize: 100,
		documentedPageSize: 20,
		next: nextCursor,
		key: (record) => record.id,
	},
	outputsTenants: true,
	forbidden:
		"Only the API key of an organization administrator may list every tenant of the organization. Use Tenant → Get Many for the tenants the key's user can work in, or the key of an organization administrator.",
	target: () => "The API key's organization",
	properties: fields,
	apiFields: { size: 'limit' },
	async prepare(item, request) {
		request.pathParameters.organization_id = await organizationOf(item);
	},
	output: (_item, records) => records as IDataObject[],
};
