import type { INodeProperties } from 'n8n-workflow';

import { identifierGroupLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import {
	boundedText,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
} from '../../shared/validation';
import { groupOfAnswer } from './get';

const fields: INodeProperties[] = [
	identifierGroupLocator('Identifier group to rename: pick it by name, or enter its numeric ID'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme subsidiaries',
		description: 'New name of the group, as shown in Flare',
	},
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['update'] } },
	fields,
);

/**
 * Renames an identifier group (`PUT …/v2/assets/groups/{assets_group_id}`, v2 OpenAPI
 * `UpdateGroupData {name}`, its only field): the group as Flare answers it.
 */
export const updateOperation: FlareOperation = {
	action: 'rename the identifier group',
	method: 'PUT',
	path: '/{segment}/v2/assets/groups/{assets_group_id}',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: { assets_group_id: 'groupId', name: 'name' },
	target: (item) => `Identifier group ${locatorLabel(item, 'groupId')}`,
	prepare(item, request) {
		request.pathParameters.assets_group_id = locatorInteger(item, 'groupId');
		request.body = { name: boundedText(item, 'name', MAX_NAME_LENGTH) };
	},
	output: (_item, _records, response) => groupOfAnswer(response),
};
