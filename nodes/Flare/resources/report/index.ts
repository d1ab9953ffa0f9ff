import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { downloadDescription, downloadOperation } from './download';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';

export const reportDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with reports',
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				action: 'Download a report as a file',
				description:
					"Download a report as a PDF, DOCX, CSV or ZIP file, e.g. to send the monthly client report (reports); the file is Flare's, not masked",
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a report',
				description: 'Get a report by its ID: its title, author, status and dates (reports)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many reports',
				description: 'List the reports of the tenant, newest first (reports)',
			},
		],
		default: 'getAll',
	},
	...downloadDescription,
	...getDescription,
	...getAllDescription,
];

export const reportOperations: Record<string, FlareOperation> = {
	download: downloadOperation,
	get: getOperation,
	getAll: getAllOperation,
};
