import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import { getTenantsDescription, getTenantsOperation } from './getTenants';
import { disable, enable } from './state';
import { updateDescription, updateOperation } from './update';

export const organizationMemberDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the members of the organization',
		displayOptions: { show: { resource: ['organizationMember'] } },
		options: [
			{
				name: 'Disable',
				value: 'disable',
				action: 'Change data by disabling a member',
				description:
					"Disable a member's Flare account, e.g. a leaver from an identity-provider workflow (an organization administrator's API key); changes data in Flare",
			},
			{
				name: 'Enable',
				value: 'enable',
				action: 'Change data by enabling a member',
				description:
					"Enable a disabled member's Flare account again (an organization administrator's API key); changes data in Flare",
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a member',
				description:
					"Get a member of the organization by user ID, with the number of their tenants (an organization administrator's API key)",
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many members',
				description:
					"List the members of the organization, e.g. to find a leaver by e-mail (an organization administrator's API key)",
			},
			{
				name: 'Get Tenants',
				value: 'getTenants',
				action: "Get the tenants of a member",
				description:
					"List the tenants a member can work in (an organization administrator's API key)",
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by updating a member',
				description:
					"Change a member's name or e-mail address; the fields left out keep their current values (read from Flare first) (an organization administrator's API key); changes data in Flare",
			},
		],
		default: 'getAll',
	},
	...disable.description,
	...enable.description,
	...getDescription,
	...getAllDescription,
	...getTenantsDescription,
	...updateDescription,
];

export const organizationMemberOperations: Record<string, FlareOperation> = {
	disable: disable.operation,
	enable: enable.operation,
	get: getOperation,
	getAll: getAllOperation,
	getTenants: getTenantsOperation,
	update: updateOperation,
};
