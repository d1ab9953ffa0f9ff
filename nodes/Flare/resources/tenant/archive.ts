import type { INodeProperties } from 'n8n-workflow';

import { notice, targetTenantLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY } from './organization';

const fields: INodeProperties[] = [
	notice(
		'tenantArchiveNotice',
		"For an organization administrator's API key. Flare's docs do not say whether an archived tenant can be restored through the API.",
	),
	targetTenantLocator('Tenant to archive: pick it among the tenants of the organization, or enter its ID'),
];

export const archiveDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['archive'] } },
	fields,
);

/**
 * Archives a tenant of the organization (`POST /{segment}/v2/tenants/{tenant_id}/archive`; Flare
 * documents an empty answer): one item `{archived, tenantId}`.
 */
export const archiveOperation: FlareOperation = {
	action: 'archive the tenant',
	method: 'POST',
	path: '/{segment}/v2/tenants/{tenant_id}/archive',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { tenant_id: 'targetTenantId' },
	target: (item) => `Tenant ${locatorLabel(item, 'targetTenantId')}`,
	prepare(item, request) {
		request.pathParameters.tenant_id = locatorInteger(item, 'targetTenantId');
	},
	output: (item) => [{ archived: true, tenantId: locatorInteger(item, 'targetTenantId') }],
};
