import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getAllDescription, getAllOperation } from './getAll';

export const alertChannelDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with alert channels',
		displayOptions: { show: { resource: ['alertChannel'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many alert channels',
				description:
					"List the alert channels of the tenant (Alert Central), with each one's delivery status",
			},
		],
		default: 'getAll',
	},
	...getAllDescription,
];

export const alertChannelOperations: Record<string, FlareOperation> = {
	getAll: getAllOperation,
};
