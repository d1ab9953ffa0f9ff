import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createRequestDescription, createRequestOperation } from './createRequest';
import { downloadDescription, downloadOperation } from './download';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
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
				name: 'Download',
				value: 'download',
				action: 'Download a threat report as a file',
				description:
					"Download a report as a PDF or DOCX file, e.g. to file or share it (threat intelligence); the file is Flare's, not masked",
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a threat report',
				description:
					'Get a report by its ID: its title, summary, content and related events (threat intelligence)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many threat reports',
				description:
					'List the Threat Flow reports of the tenant, newest first, e.g. to file the new ones each week (threat intelligence)',
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
	...downloadDescription,
	...getDescription,
	...getAllDescription,
	...getRequestStatusDescription,
];

export const threatReportOperations: Record<string, FlareOperation> = {
	createRequest: createRequestOperation,
	download: downloadOperation,
	get: getOperation,
	getAll: getAllOperation,
	getRequestStatus: getRequestStatusOperation,
};
