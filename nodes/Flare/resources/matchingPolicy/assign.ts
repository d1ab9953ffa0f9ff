import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/pagination';
import { positiveIntegerList, uuid } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('assignBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	{
		displayName: 'Policy UUID',
		name: 'policyUuid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10',
		description: 'UUID of the matching policy to assign',
	},
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
	fields: {
		policy_uuid: 'Policy UUID',
		identifier_ids: 'Identifier IDs',
		clean_past_events: 'Clean Past Events',
	},
	target: (item) =>
		`Matching policy ${String(item.parameter('policyUuid', ''))} or one of the identifiers`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = uuid(item, 'policyUuid', 'Policy UUID');
		request.body = {
			identifier_ids: positiveIntegerList(item, 'identifierIds', 'Identifier IDs'),
			clean_past_events: item.parameter<boolean>('cleanPastEvents', false) === true,
		};
	},
	output(item) {
		return [
			{
				assigned: true,
				policyUuid: uuid(item, 'policyUuid', 'Policy UUID'),
				identifierIds: positiveIntegerList(item, 'identifierIds', 'Identifier IDs'),
				cleanPastEvents: item.parameter<boolean>('cleanPastEvents', false) === true,
			},
		];
	},
};
