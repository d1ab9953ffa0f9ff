import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getAllDescription, getAllOperation } from './getAll';

export const astpUrlDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with ASTP URLs',
		displayOptions: { show: { resource: ['astpUrl'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many sites where a leaked credential was used',
				description: 'List the URLs where a leaked credential was seen used (ASTP)',
			},
		],
		default: 'getAll',
	},
	...getAllDescription,
];

export const astpUrlOperations: Record<string, FlareOperation> = { getAll: getAllOperation };
