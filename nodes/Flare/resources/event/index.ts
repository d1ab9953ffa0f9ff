import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getDescription, getOperation } from './get';

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with events',
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a blog post or other event by UID',
				description: 'Get one event, such as a blog post, by its UID (beta)',
			},
		],
		default: 'get',
	},
	...getDescription,
];

export const eventOperations: Record<string, FlareOperation> = { get: getOperation };
