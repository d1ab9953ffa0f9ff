import type { INodeProperties } from 'n8n-workflow';

import {
	memberLocator,
	notice,
	targetTenantLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY } from '../tenant/organization';

const fields: INodeProperties[] = [
	notice('tenantUserRemoveNotice', "For an organization administrator's API key."),
	targetTenantLocator('Tenant to remove the user from: pick it among the tenants of the organization, or enter its ID'),
	memberLocator('User to remove: pick them among the members of the organization, or enter their user ID'),
];

export const removeDescription = updateDisplayOptions(
	{ show: { resource: ['tenantUser'], operation: ['remove'] } },
	fields,
);

/**
 * Removes a user's access to a tenant (`DELETE /{segment}/v2/tenants/{tenant_id}/users/{user_id}`;
 * Flare documents an empty answer): one item `{removed, tenantId, userId}`.
 */
export const removeOperation: FlareOperation = {
	action: 'remove the user from the tenant',
	method: 'DELETE',
	path: '/{segment}/v2/tenants/{tenant_id}/users/{user_id}',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { tenant_id: 'targetTenantId', user_id: 'userId' },
	target: (item) =>
		`User ${locatorLabel(item, 'userId')} of tenant ${locatorLabel(item, 'targetTenantId')}`,
	prepare(item, request) {
		request.pathParameters.tenant_id = locatorInteger(item, 'targetTenantId');
		request.pathParameters.user_id = locatorInteger(item, 'userId');
	},
	output: (item) => [
		{
			removed: true,
			tenantId: locatorInteger(item, 'targetTenantId'),
			userId: locatorInteger(item, 'userId'),
		},
	],
};
