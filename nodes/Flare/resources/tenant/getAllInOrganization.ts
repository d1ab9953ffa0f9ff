import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { describeShape, unexpectedAnswer } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { isObject, nextCursor, type FlareOperation } from '../../shared/operation';
import { callFlare } from '../../shared/runner';

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

/** GET /tokens/test: who the token is for, `organization_id` included (tokens/endpoints/test.mdx). */
const whoAmI: FlareOperation = {
	action: "read the API key's organization",
	method: 'GET',
	path: '/tokens/test',
	tier: 'basic',
	properties: [],
	output: (_item, records) => records,
};

/** The organization of the item's API key, as Flare's token test reports it. */
async function organizationOf(item: FlareItem): Promise<number> {
	let organization: unknown;
	let status = 200;
	let shape = 'nothing';
	await callFlare(item, whoAmI, {
		onPage(_records, response) {
			status = response.statusCode;
			const body = response.body;
			organization = isObject(body) ? body.organization_id : undefined;
			shape = isObject(body)
				? "an object without a numeric 'organization_id'"
				: describeShape(body);
			return false;
		},
	});
	if (typeof organization !== 'number' || !Number.isInteger(organization) || organization < 1) {
		throw unexpectedAnswer(
			status,
			`Flare's token test answered with ${shape}, not the key's organization`,
		);
	}
	return organization;
}

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
