import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { assignDescription, assignOperation } from './assign';
import { createDescription, createOperation } from './create';
import { deleteDescription, deleteOperation } from './delete';
import { getDescription, getOperation } from './get';
import { getAllDescription, getAllOperation } from './getAll';
import { getAssignmentsDescription, getAssignmentsOperation } from './getAssignments';
import { getByIdentifierDescription, getByIdentifierOperation } from './getByIdentifier';
import { unassignDescription, unassignOperation } from './unassign';
import { updateDescription, updateOperation } from './update';

export const matchingPolicyDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with matching policies',
		displayOptions: { show: { resource: ['matchingPolicy'] } },
		options: [
			{
				name: 'Assign',
				value: 'assign',
				action: 'Change data by assigning a matching policy to identifiers',
				description:
					'Assign a matching policy to one or more identifiers (beta); changes data in Flare',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Change data by creating a matching policy',
				description:
					'Create a policy: keywords to include or exclude, a Lucene query, or ASTP cookie and domain rules (beta); changes data in Flare',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Change data by deleting a matching policy',
				description: 'Delete a matching policy (beta); changes data in Flare',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a matching policy',
				description: 'Get a matching policy: its type and value (beta)',
			},
			{
				name: 'Get Assignments',
				value: 'getAssignments',
				action: 'Get the identifiers a matching policy is assigned to',
				description: 'List the identifiers a matching policy is assigned to (beta)',
			},
			{
				name: 'Get by Identifier',
				value: 'getByIdentifier',
				action: 'Get the matching policies of an identifier',
				description: 'List the matching policies assigned to an identifier (beta)',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many matching policies',
				description: 'List the matching policies of the tenant (beta)',
			},
			{
				name: 'Unassign',
				value: 'unassign',
				action: 'Change data by unassigning a matching policy from identifiers',
				description:
					'Remove a matching policy from one or more identifiers (beta); changes data in Flare',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Change data by updating a matching policy',
				description:
					'Change the name or the value of a matching policy; the rest is kept (read from Flare first, one update of a policy at a time in this n8n process, none over a change made elsewhere meanwhile) (beta); changes data in Flare',
			},
		],
		default: 'getByIdentifier',
	},
	...assignDescription,
	...createDescription,
	...deleteDescription,
	...getDescription,
	...getAssignmentsDescription,
	...getByIdentifierDescription,
	...getAllDescription,
	...unassignDescription,
	...updateDescription,
];

export const matchingPolicyOperations: Record<string, FlareOperation> = {
	assign: assignOperation,
	create: createOperation,
	delete: deleteOperation,
	get: getOperation,
	getAll: getAllOperation,
	getAssignments: getAssignmentsOperation,
	getByIdentifier: getByIdentifierOperation,
	unassign: unassignOperation,
	update: updateOperation,
};
