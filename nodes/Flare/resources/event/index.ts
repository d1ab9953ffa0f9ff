import type { INodeProperties } from 'n8n-workflow';

import { runFlareOperation } from '../../shared/pagination';
import { getDescription, getOperation } from './get';

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an event',
				description: 'Get one event, such as a blog post, by its UID (beta)',
				routing: {
					request: { method: 'GET', url: '=/{{$credentials.productSegment}}/v4/events/' },
					send: { paginate: true },
					operations: { pagination: runFlareOperation(getOperation) },
				},
			},
		],
		default: 'get',
	},
	...getDescription,
];
