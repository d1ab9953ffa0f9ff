import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { requiredText } from '../../shared/validation';
import {
	policyApiFields,
	policyOfAnswer,
	policyType,
	policyValue,
	policyValueFields,
} from './policy';

const fields: INodeProperties[] = [
	notice('createPolicyBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Terms to ignore',
		description: 'Name of the matching policy, as shown in Flare',
	},
	...policyValueFields,
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['create'] } },
	fields,
);

/** A new matching policy; assign it to identifiers with Assign (its output has the `uuid`). */
export const createOperation: FlareOperation = {
	action: 'create the matching policy',
	method: 'POST',
	path: '/{segment}/v4/matching-policies',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: { ...policyApiFields(), type: 'policyType' },
	prepare(item, request) {
		const type = policyType(item);
		request.body = { name: requiredText(item, 'name'), type, value: policyValue(item, type) };
	},
	output: (_item, _records, response) => policyOfAnswer(response),
};
