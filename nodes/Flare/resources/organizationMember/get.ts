import type { INodeProperties } from 'n8n-workflow';

import { memberLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import { recordUnder, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY, organizationOf } from '../tenant/organization';
import { MEMBERS_NEEDS } from './getAll';

const fields: INodeProperties[] = [
	notice('memberGetNotice', MEMBERS_NEEDS),
	memberLocator('Member to get: pick them by name, or enter their user ID'),
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['organizationMember'], operation: ['get'] } },
	fields,
);

/**
 * A member of the API key's organization (`GET …/v2/organizations/{organization_id}/members/{user_id}`,
 * answer `{member: {user, tenant_count}}`): the member.
 */
export const getOperation: FlareOperation = {
	action: 'get the member',
	method: 'GET',
	path: '/{segment}/v2/organizations/{organization_id}/members/{user_id}',
	tier: 'basic',
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { user_id: 'userId' },
	target: (item) => `Member ${locatorLabel(item, 'userId')}`,
	async prepare(item, request) {
		request.pathParameters.user_id = locatorInteger(item, 'userId');
		request.pathParameters.organization_id = await organizationOf(item);
	},
	output: (_item, _records, response) => recordUnder(response, 'member', 'a member'),
};
