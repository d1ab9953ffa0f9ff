import type { INodeProperties } from 'n8n-workflow';

import {
	memberLocator,
	notice,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY, organizationOf } from '../tenant/organization';
import { MEMBERS_NEEDS } from './getAll';

const fields: INodeProperties[] = [
	notice(
		'memberGetTenantsNotice',
		`${MEMBERS_NEEDS} Lists the tenants the member can work in, e.g. to remove a leaver from each with Tenant User → Remove.`,
	),
	memberLocator('Member whose tenants to list: pick them by name, or enter their user ID'),
	...returnAllOrLimit,
];

export const getTenantsDescription = updateDisplayOptions(
	{ show: { resource: ['organizationMember'], operation: ['getTenants'] } },
	fields,
);

/**
 * The tenants of a member (`GET …/organizations/{organization_id}/members/{user_id}/tenants`, v2
 * OpenAPI: `size` 20 by default, `from`; pages `{items, next}`): one item per tenant. Pages of 100
 * are a bet, with pages of 20 when Flare refuses them.
 */
export const getTenantsOperation: FlareOperation = {
	action: "list the member's tenants",
	method: 'GET',
	path: '/{segment}/v2/organizations/{organization_id}/members/{user_id}/tenants',
	tier: 'basic',
	paging: {
		maxPageSize: 100,
		documentedPageSize: 20,
		next: nextCursor,
		key: (record) => record.id,
	},
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { user_id: 'userId', size: 'limit' },
	target: (item) => `Member ${locatorLabel(item, 'userId')}`,
	async prepare(item, request) {
		request.pathParameters.user_id = locatorInteger(item, 'userId');
		request.pathParameters.organization_id = await organizationOf(item);
	},
	output: (_item, records) => records,
};
