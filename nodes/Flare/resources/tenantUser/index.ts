import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { addDescription, addOperation } from './add';
import { getAllDescription, getAllOperation } from './getAll';
import { removeDescription, removeOperation } from './remove';

export const tenantUserDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the users of a tenant',
		displayOptions: { show: { resource: ['tenantUser'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				action: 'Change data by adding a user to a tenant',
				description:
					"Give a member of the organization access to a tenant, with a role, e.g. a new client's analysts (an organization administrator's API key); changes data in Flare",
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many users of a tenant',
				description:
					"List who has access to a tenant, with their role (an organization administrator's API key)",
			},
			{
				name: 'Remove',
				value: 'remove',
				action: "Change data by removing a user from a tenant",
				description:
					"Remove a user's access to a tenant, e.g. when an analyst leaves a client's team (an organization administrator's API key); changes data in Flare",
			},
		],
		default: 'getAll',
	},
	...addDescription,
	...getAllDescription,
	...removeDescription,
];

export const tenantUserOperations: Record<string, FlareOperation> = {
	add: addOperation,
	getAll: getAllOperation,
	remove: removeOperation,
};
