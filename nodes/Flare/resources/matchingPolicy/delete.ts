import type { INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('deletePolicyBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator('Matching policy to delete: pick it by name, or enter its UUID'),
];

export const deleteDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['delete'] } },
	fields,
);

export const deleteOperation: FlareOperation = {
	action: 'delete the matching policy',
	method: 'DELETE',
	path: '/{segment}/v4/matching-policies/{policy_uuid}',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: { policy_uuid: 'policyUuid' },
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')}`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
	},
	output: (item) => [{ deleted: true, policyUuid: locatorUuid(item, 'policyUuid') }],
};
