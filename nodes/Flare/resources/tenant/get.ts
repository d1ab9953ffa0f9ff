import type { INodeProperties } from 'n8n-workflow';

import { notice, targetTenantLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY, tenantOfAnswer } from './organization';

const fields: INodeProperties[] = [
	notice('tenantGetNotice', "For an organization administrator's API key."),
	targetTenantLocator('Tenant to get: pick it among the tenants of the organization, or enter its ID'),
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['get'] } },
	fields,
);

/** A tenant of the organization (`GET /{segment}/v2/tenants/{tenant_id}`), as Flare answers it. */
export const getOperation: FlareOperation = {
	action: 'get the tenant',
	method: 'GET',
	path: '/{segment}/v2/tenants/{tenant_id}',
	tier: 'basic',
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { tenant_id: 'targetTenantId' },
	target: (item) => `Tenant ${locatorLabel(item, 'targetTenantId')}`,
	prepare(item, request) {
		request.pathParameters.tenant_id = locatorInteger(item, 'targetTenantId');
	},
	output: (_item, _records, response) => tenantOfAnswer(response),
};
