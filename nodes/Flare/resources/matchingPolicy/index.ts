import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { assignDescription, assignOperation } from './assign';
import { getByIdentifierDescription, getByIdentifierOperation } from './getByIdentifier';

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
				name: 'Get by Identifier',
				value: 'getByIdentifier',
				action: 'Get the matching policies of an identifier',
				description: 'List the matching policies assigned to an identifier (beta)',
			},
		],
		default: 'getByIdentifier',
	},
	...assignDescription,
	...getByIdentifierDescription,
];

export const matchingPolicyOperations: Record<string, FlareOperation> = {
	assign: assignOperation,
	getByIdentifier: getByIdentifierOperation,
};
