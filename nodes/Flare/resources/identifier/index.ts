import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createDescription, createOperation } from './create';
import { deleteDescription, deleteOperation } from './delete';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import { updateDescription, updateOperation } from './update';

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
				name: 'Create',
				value: 'create',
				action: 'Change data by creating a monitored identifier',
				description:
					'Start monitoring a domain, keyword, identity, IP address, BIN or other identifier; changes data in Flare',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Change data by deleting a monitored identifier',
				description:
					'Delete an identifier and its related data; removal can take up to an hour; changes data in Flare',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a monitored identifier',
				description: 'Get an identifier: what it watches, its categories, severities and state',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many monitored identifiers',
				description: 'List the identifiers of the tenant, optionally filtered by type or state',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by updating a monitored identifier',
				description:
					'Change an identifier; the fields left out keep their current values (read from Flare first). Updates of one identifier run one at a time in this n8n process, and one changed elsewhere meanwhile is not overwritten (the item fails); this changes data in Flare.',
			},
		],
		default: 'delete',
	},
	...createDescription,
	...deleteDescription,
	...getDescription,
	...getAllDescription,
	...updateDescription,
];

export const identifierOperations: Record<string, FlareOperation> = {
	create: createOperation,
	delete: deleteOperation,
	get: getOperation,
	getAll: getAllOperation,
	update: updateOperation,
};
