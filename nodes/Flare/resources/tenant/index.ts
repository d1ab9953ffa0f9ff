import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { archiveDescription, archiveOperation } from './archive';
import { createDescription, createOperation } from './create';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import {
	getAllInOrganizationDescription,
	getAllInOrganizationOperation,
} from './getAllInOrganization';
import { updateDescription, updateOperation } from './update';

export const tenantDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with tenants',
		displayOptions: { show: { resource: ['tenant'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				action: 'Change data by archiving a tenant',
				description:
					"Archive a tenant of the organization, e.g. when a client leaves (an organization administrator's API key); changes data in Flare",
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Change data by creating a tenant',
				description:
					"Create a tenant in the organization, e.g. for a new client (an organization administrator's API key); changes data in Flare",
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a tenant',
				description:
					"Get a tenant of the organization by its ID (an organization administrator's API key)",
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many tenants',
				description: 'List the tenants your API key can work in, with their IDs',
			},
			{
				name: 'Get Many in Organization',
				value: 'getAllInOrganization',
				action: 'Get many tenants of the organization',
				description:
					"List every tenant of your organization, with their IDs (an organization administrator's API key)",
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by updating a tenant',
				description:
					"Change a tenant's name, description, industry, size or global-search limit; the fields left out keep their current values (read from Flare first) (an organization administrator's API key); changes data in Flare",
			},
		],
		default: 'getAll',
	},
	...archiveDescription,
	...createDescription,
	...getDescription,
	...getAllDescription,
	...getAllInOrganizationDescription,
	...updateDescription,
];

export const tenantOperations: Record<string, FlareOperation> = {
	archive: archiveOperation,
	create: createOperation,
	get: getOperation,
	getAll: getAllOperation,
	getAllInOrganization: getAllInOrganizationOperation,
	update: updateOperation,
};
