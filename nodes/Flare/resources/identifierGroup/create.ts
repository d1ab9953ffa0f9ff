import type { INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { requiredText } from '../../shared/validation';
import { groupOfAnswer } from './get';

const fields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme subsidiaries',
		description: 'Name of the new group, as shown in Flare',
	},
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['create'] } },
	fields,
);

export const createOperation: FlareOperation = {
	action: 'create the identifier group',
	method: 'POST',
	path: '/{segment}/v2/assets/groups/',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: { name: 'name' },
	prepare(item, request) {
		request.body = { name: requiredText(item, 'name') };
	},
	output: (_item, _records, response) => groupOfAnswer(response),
};
