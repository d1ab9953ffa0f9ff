import type { INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid, positiveIntegerList } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('assignBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator('Matching policy to assign: pick it by name, or enter its UUID'),
	{
		displayName: 'Identifier IDs',
		name: 'identifierIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7001, 7002',
		description:
			'IDs of the identifiers to assign the policy to, separated by commas, or an array from an expression',
	},
	{
		displayName: 'Clean Past Events',
		name: 'cleanPastEvents',
		type: 'boolean',
		default: false,
		description: 'Whether to apply the policy to events already collected',
	},
];

export const assignDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['assign'] } },
	fields,
);

export const assignOperation: FlareOperation = {
	action: 'assign the matching policy',
	method: 'POST',
	path: '/{segment}/v4/matching-policies/{policy_uuid}/assignments',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: {
		policy_uuid: 'policyUuid',
		identifier_ids: 'identifierIds',
		clean_past_events: 'cleanPastEvents',
	},
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')} or one of the identifiers`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
		request.body = {
			identifier_ids: positiveIntegerList(item, 'identifierIds'),
			clean_past_events: item.parameter<boolean>('cleanPastEvents', false) === true,
		};
	},
	output(item) {
		return [
			{
				assigned: true,
				policyUuid: locatorUuid(item, 'policyUuid'),
				identifierIds: positiveIntegerList(item, 'identifierIds'),
				cleanPastEvents: item.parameter<boolean>('cleanPastEvents', false) === true,
			},
		];
	},
};
