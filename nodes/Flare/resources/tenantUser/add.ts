import type { INodeProperties } from 'n8n-workflow';

import {
	memberLocator,
	notice,
	targetTenantLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { booleanValue, locatorInteger, locatorLabel, optionValue } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY } from '../tenant/organization';

/** A user's roles in a tenant (v2 OpenAPI `UserTenantAccess.role`). */
const ROLES = ['admin', 'editor', 'viewer'] as const;

const fields: INodeProperties[] = [
	notice(
		'tenantUserAddNotice',
		"For an organization administrator's API key. The user must be a member of the organization (Organization Member → Get Many).",
	),
	targetTenantLocator('Tenant to add the user to: pick it among the tenants of the organization, or enter its ID'),
	memberLocator('Member of the organization to add: pick them by name, or enter their user ID'),
	{
		displayName: 'Role',
		name: 'role',
		type: 'options',
		default: 'viewer',
		description: "The user's role in the tenant",
		options: [
			{ name: 'Admin', value: 'admin' },
			{ name: 'Editor', value: 'editor' },
			{ name: 'Viewer', value: 'viewer' },
		],
	},
	{
		displayName: 'Read Only',
		name: 'readOnly',
		type: 'boolean',
		default: false,
		description: "Whether the user's access to the tenant is read-only",
	},
];

export const addDescription = updateDisplayOptions(
	{ show: { resource: ['tenantUser'], operation: ['add'] } },
	fields,
);

/**
 * Gives a member of the organization access to a tenant (`POST /{segment}/v2/tenants/{tenant_id}/users`,
 * v2 OpenAPI `UserTenantAccessRequest {users: [{user_id, role, is_readonly}]}`, one user a request;
 * Flare documents an empty answer): one item `{added, tenantId, userId, role, readOnly}`.
 */
export const addOperation: FlareOperation = {
	action: 'add the user to the tenant',
	method: 'POST',
	path: '/{segment}/v2/tenants/{tenant_id}/users',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: { tenant_id: 'targetTenantId', user_id: 'userId', role: 'role', is_readonly: 'readOnly' },
	target: (item) =>
		`Tenant ${locatorLabel(item, 'targetTenantId')} or member ${locatorLabel(item, 'userId')}`,
	prepare(item, request) {
		request.pathParameters.tenant_id = locatorInteger(item, 'targetTenantId');
		const readOnly = booleanValue(item, 'readOnly');
		request.body = {
			users: [
				{
					user_id: locatorInteger(item, 'userId'),
					role: optionValue(item, 'role', ROLES, 'viewer'),
					is_readonly: readOnly,
				},
			],
		};
	},
	output: (item) => [
		{
			added: true,
			tenantId: locatorInteger(item, 'targetTenantId'),
			userId: locatorInteger(item, 'userId'),
			role: optionValue(item, 'role', ROLES, 'viewer'),
			readOnly: item.parameter<boolean>('readOnly', false),
		},
	],
};
