import type { INodeProperties } from 'n8n-workflow';

import { runFlareOperation } from '../../shared/pagination';
import { deleteDescription, deleteOperation } from './delete';

export const identifierDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['identifier'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an identifier',
				description: 'Delete an identifier and its related data; removal can take up to an hour',
				routing: {
					request: { method: 'DELETE', url: '=/{{$credentials.productSegment}}/v4/identifiers/{identifier_id}' },
					send: { paginate: true },
					operations: { pagination: runFlareOperation(deleteOperation) },
				},
			},
		],
		default: 'delete',
	},
	...deleteDescription,
];
