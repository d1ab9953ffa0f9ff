import type { INodeProperties } from 'n8n-workflow';

import {
	notice,
	returnAllOrLimit,
	targetTenantLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { isObject, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY } from '../tenant/organization';

const fields: INodeProperties[] = [
	notice('tenantUserGetAllNotice', "For an organization administrator's API key."),
	targetTenantLocator(
		'Tenant whose users to list: pick it among the tenants of the organization, or enter its ID',
	),
	...returnAllOrLimit,
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['tenantUser'], operation: ['getAll'] } },
	fields,
);

/** `next` of a page of users: a number in Flare's schema (`TenantUsers.next`), or a text. */
function nextOf(body: unknown): string | number | undefined {
	const next = isObject(body) ? body.next : undefined;
	if (typeof next === 'number' && Number.isFinite(next)) return next;
	return typeof next === 'string' && next !== '' ? next : undefined;
}

/**
 * The users of a tenant (`GET /{segment}/v2/tenants/{tenant_id}/users`, v2 OpenAPI `TenantUsers
 * {items, next}`): one item per user (`id`, `name`, `surname`, `email`, `role`, `is_readonly`,
 * `is_disabled`). Flare documents no query parameter: pages of 100 are a bet, with pages of 20 when
 * Flare refuses them, as for the organization's tenants (docs/api-contract.md).
 */
export const getAllOperation: FlareOperation = {
	action: 'list the users of the tenant',
	method: 'GET',
	path: '/{segment}/v2/tenants/{tenant_id}/users',
	tier: 'basic',
	paging: { maxPageSize: 100, documentedPageSize: 20, next: nextOf, key: (record) => record.id },
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { tenant_id: 'targetTenantId', size: 'limit' },
	target: (item) => `Tenant ${locatorLabel(item, 'targetTenantId')}`,
	prepare(item, request) {
		request.pathParameters.tenant_id = locatorInteger(item, 'targetTenantId');
	},
	output: (_item, records) => records,
};
