import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { createDescription, createOperation } from './create';
import { deleteDescription, deleteOperation } from './delete';
import { getAllDescription, getAllOperation } from './getAll';
import { updateDescription, updateOperation } from './update';

export const alertRuleDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with alert rules',
		displayOptions: { show: { resource: ['alertRule'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Change data by creating an alert rule',
				description:
					"Send an identifier's or a group's new events to an alert channel, e.g. the Flare Alert Trigger's; the rule is read back, and the item fails if Flare stored another channel or frequency; changes data in Flare",
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Change data by deleting an alert rule',
				description: 'Delete an alert rule of an identifier or a group; changes data in Flare',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many alert rules',
				description:
					'List the alert rules of the tenant: whose events each sends, to which channel, how often',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by updating an alert rule',
				description:
					'Change an alert rule of an identifier or a group; the fields left out keep their current values (read from Flare first, one update of a rule at a time in this n8n process); the rule is read back, and the item fails if Flare shows something else; changes data in Flare',
			},
		],
		default: 'getAll',
	},
	...createDescription,
	...deleteDescription,
	...getAllDescription,
	...updateDescription,
];

export const alertRuleOperations: Record<string, FlareOperation> = {
	create: createOperation,
	delete: deleteOperation,
	getAll: getAllOperation,
	update: updateOperation,
};
