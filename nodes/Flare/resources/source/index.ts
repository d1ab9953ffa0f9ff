import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';

export const sourceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with sources',
		displayOptions: { show: { resource: ['source'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a leak source by ID',
				description: 'Get the description of a leak source (ASTP)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many leak sources',
				description:
					'List the leak sources Flare knows, the oldest first, e.g. to keep a reference table of breaches (ASTP)',
			},
		],
		default: 'get',
	},
	...getDescription,
	...getAllDescription,
];

export const sourceOperations: Record<string, FlareOperation> = {
	get: getOperation,
	getAll: getAllOperation,
};
