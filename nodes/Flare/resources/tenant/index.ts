import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getAllDescription, getAllOperation } from './getAll';

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
		],
		default: 'getAll',
	},
	...getAllDescription,
];

export const tenantOperations: Record<string, FlareOperation> = { getAll: getAllOperation };
