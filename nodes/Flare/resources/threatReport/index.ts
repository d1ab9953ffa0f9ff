import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createRequestDescription, createRequestOperation } from './createRequest';
import { getRequestStatusDescription, getRequestStatusOperation } from './getRequestStatus';

export const threatReportDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with threat reports',
		displayOptions: { show: { resource: ['threatReport'] } },
		options: [
			{
				name: 'Create Request',
				value: 'createRequest',
				action: 'Change data by requesting a threat intelligence report',
				description:
					'Ask Flare to generate a threat intelligence report (threat intelligence); changes data in Flare',
			},
			{
				name: 'Get Request Status',
				value: 'getRequestStatus',
				action: 'Get the status of a threat report request',
				description:
					'Check whether a requested report is ready, and get the report once completed (threat intelligence)',
			},
		],
		default: 'createRequest',
	},
	...createRequestDescription,
	...getRequestStatusDescription,
];

export const threatReportOperations: Record<string, FlareOperation> = {
	createRequest: createRequestOperation,
	getRequestStatus: getRequestStatusOperation,
};
