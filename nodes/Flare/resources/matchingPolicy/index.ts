import type { INodeProperties } from 'n8n-workflow';

import { runFlareOperation } from '../../shared/pagination';
import { assignDescription, assignOperation } from './assign';
import { getByIdentifierDescription, getByIdentifierOperation } from './getByIdentifier';

export const matchingPolicyDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['matchingPolicy'] } },
		options: [
			{
				name: 'Assign',
				value: 'assign',
				action: 'Assign a matching policy to identifiers',
				description: 'Assign a matching policy to one or more identifiers (beta)',
				routing: {
					request: { method: 'POST', url: '=/{{$credentials.productSegment}}/v4/matching-policies/{policy_uuid}/assignments' },
					send: { paginate: true },
					operations: { pagination: runFlareOperation(assignOperation) },
				},
			},
			{
				name: 'Get by Identifier',
				value: 'getByIdentifier',
				action: 'Get the matching policies of an identifier',
				description: 'List the matching policies assigned to an identifier (beta)',
				routing: {
					request: { method: 'GET', url: '=/{{$credentials.productSegment}}/v4/matching-policies/by_identifier_id/{identifier_id}' },
					send: { paginate: true },
					operations: { pagination: runFlareOperation(getByIdentifierOperation) },
				},
			},
		],
		default: 'getByIdentifier',
	},
	...assignDescription,
	...getByIdentifierDescription,
];
