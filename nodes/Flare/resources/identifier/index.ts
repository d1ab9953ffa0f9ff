import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { deleteDescription, deleteOperation } from './delete';

export const identifierDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with identifiers',
		displayOptions: { show: { resource: ['identifier'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a monitored identifier',
				description: 'Delete an identifier and its related data; removal can take up to an hour',
			},
		],
		default: 'delete',
	},
	...deleteDescription,
];

export const identifierOperations: Record<string, FlareOperation> = { delete: deleteOperation };
