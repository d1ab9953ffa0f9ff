import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createRequestDescription, createRequestOperation } from './createRequest';
import { deleteDescription, deleteOperation } from './delete';
import { downloadDescription, downloadOperation } from './download';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import { getRequestStatusDescription, getRequestStatusOperation } from './getRequestStatus';
import { publishDescription, publishOperation } from './publish';

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
					'Ask Flare to generate a threat intelligence report (Threat Flow); changes data in Flare',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Change data by deleting a threat report',
				description:
					'Delete a threat report, e.g. a requested one once filed (Threat Flow); changes data in Flare',
			},
			{
				name: 'Download',
				value: 'download',
				action: 'Download a threat report as a file',
				description:
					"Download a report as a PDF or DOCX file, e.g. to file or share it (Threat Flow); the file is Flare's, not masked",
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a threat report',
				description:
					'Get a report by its ID: its title, summary, content and related events (Threat Flow)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many threat reports',
				description:
					'List the Threat Flow reports of the tenant, newest first, e.g. to file the new ones each week (Threat Flow)',
			},
			{
				name: 'Get Request Status',
				value: 'getRequestStatus',
				action: 'Get the status of a threat report request',
				description:
					'Check whether a requested report is ready, and get the report once completed (Threat Flow)',
			},
			{
				name: 'Publish',
				value: 'publish',
				action: 'Change data by publishing a threat report',
				description:
					'Publish a reviewed report to the tenant, optionally under a new title (Threat Flow); changes data in Flare',
			},
		],
		default: 'createRequest',
	},
	...createRequestDescription,
	...deleteDescription,
	...downloadDescription,
	...getDescription,
	...getAllDescription,
	...getRequestStatusDescription,
	...publishDescription,
];

export const threatReportOperations: Record<string, FlareOperation> = {
	createRequest: createRequestOperation,
	delete: deleteOperation,
	download: downloadOperation,
	get: getOperation,
	getAll: getAllOperation,
	getRequestStatus: getRequestStatusOperation,
	publish: publishOperation,
};
