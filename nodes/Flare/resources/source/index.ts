import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getDescription, getOperation } from './get';

export const sourceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with sources',
		displayOptions: { show: { resource: ['source'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a leak source by ID',
				description: 'Get the description of a leak source (ASTP)',
			},
		],
		default: 'get',
	},
	...getDescription,
];

export const sourceOperations: Record<string, FlareOperation> = { get: getOperation };
