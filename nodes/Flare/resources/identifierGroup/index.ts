import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createDescription, createOperation } from './create';
import { deleteDescription, deleteOperation } from './delete';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import { updateDescription, updateOperation } from './update';

export const identifierGroupDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with identifier groups',
		displayOptions: { show: { resource: ['identifierGroup'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Change data by creating an identifier group',
				description:
					'Create a group to gather identifiers, e.g. those of one brand or subsidiary; changes data in Flare',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Change data by deleting an identifier group',
				description: 'Delete an identifier group; changes data in Flare',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an identifier group',
				description: 'Get an identifier group by its ID',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many identifier groups',
				description: 'List the identifier groups of the tenant',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by renaming an identifier group',
				description:
					'Rename an identifier group, e.g. to keep it in step with a list of subsidiaries; changes data in Flare',
			},
		],
		default: 'getAll',
	},
	...createDescription,
	...deleteDescription,
	...getDescription,
	...getAllDescription,
	...updateDescription,
];

export const identifierGroupOperations: Record<string, FlareOperation> = {
	create: createOperation,
	delete: deleteOperation,
	get: getOperation,
	getAll: getAllOperation,
	update: updateOperation,
};
