import type { INodeProperties } from 'n8n-workflow';

import { identifierGroupLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	identifierGroupLocator('Identifier group to delete: pick it by name, or enter its numeric ID'),
];

export const deleteDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['delete'] } },
	fields,
);

export const deleteOperation: FlareOperation = {
	action: 'delete the identifier group',
	method: 'DELETE',
	path: '/{segment}/v2/assets/groups/{assets_group_id}',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: { assets_group_id: 'groupId' },
	target: (item) => `Identifier group ${locatorLabel(item, 'groupId')}`,
	prepare(item, request) {
		request.pathParameters.assets_group_id = locatorInteger(item, 'groupId');
	},
	output: (item) => [{ deleted: true, groupId: locatorInteger(item, 'groupId') }],
};
