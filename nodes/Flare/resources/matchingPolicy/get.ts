import type { INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid } from '../../shared/validation';
import { policyOfAnswer } from './policy';

const fields: INodeProperties[] = [
	notice('getPolicyBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator('Matching policy to get: pick it by name, or enter its UUID'),
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['get'] } },
	fields,
);

export const getOperation: FlareOperation = {
	action: 'get the matching policy',
	method: 'GET',
	path: '/{segment}/v4/matching-policies/{policy_uuid}',
	tier: 'basic',
	properties: fields,
	apiFields: { policy_uuid: 'policyUuid' },
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')}`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
	},
	output: (_item, _records, response) => policyOfAnswer(response),
};
