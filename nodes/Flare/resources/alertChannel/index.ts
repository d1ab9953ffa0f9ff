import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createDescription, createOperation } from './create';
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
				name: 'Create',
				value: 'create',
				action: 'Change data by creating an alert channel',
				description:
					"Create where Flare sends alerts: e-mail, Slack, Teams, Discord, Jira, ServiceNow, Sentinel, Splunk or a webhook; Flare's public API cannot update or delete it; changes data in Flare",
			},
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
	...createDescription,
	...getAllDescription,
];

export const alertChannelOperations: Record<string, FlareOperation> = {
	create: createOperation,
	getAll: getAllOperation,
};
