import type { INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid, positiveIntegerList } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('unassignBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator('Matching policy to unassign: pick it by name, or enter its UUID'),
	{
		displayName: 'Identifier IDs',
		name: 'identifierIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7001, 7002',
		description:
			'IDs of the identifiers to remove the policy from, separated by commas, or an array from an expression',
	},
];

export const unassignDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['unassign'] } },
	fields,
);

export const unassignOperation: FlareOperation = {
	action: 'unassign the matching policy',
	method: 'DELETE',
	path: '/{segment}/v4/matching-policies/{policy_uuid}/assignments',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: { policy_uuid: 'policyUuid', identifier_ids: 'identifierIds' },
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')} or one of the identifiers`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
		request.body = { identifier_ids: positiveIntegerList(item, 'identifierIds') };
	},
	output: (item) => [
		{
			unassigned: true,
			policyUuid: locatorUuid(item, 'policyUuid'),
			identifierIds: positiveIntegerList(item, 'identifierIds'),
		},
	],
};
