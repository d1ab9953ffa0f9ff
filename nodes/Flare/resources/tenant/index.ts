import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getAllDescription, getAllOperation } from './getAll';
import {
	getAllInOrganizationDescription,
	getAllInOrganizationOperation,
} from './getAllInOrganization';

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
		],
		default: 'getAll',
	},
	...getAllDescription,
	...getAllInOrganizationDescription,
];

export const tenantOperations: Record<string, FlareOperation> = {
	getAll: getAllOperation,
	getAllInOrganization: getAllInOrganizationOperation,
};
