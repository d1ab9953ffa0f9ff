import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifierGroupLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	identifierGroupLocator('Identifier group to get: pick it by name, or enter its numeric ID'),
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['get'] } },
	fields,
);

/**
 * The group of an answer: Flare wraps it in `assets_group` (v2 OpenAPI `IdentifierGroup`); an answer
 * without it gives no item.
 */
export function groupOfAnswer(records: IDataObject[]): IDataObject[] {
	return records.flatMap((record) => {
		const group = record.assets_group;
		return group && typeof group === 'object' && !Array.isArray(group) ? [group as IDataObject] : [];
	});
}

export const getOperation: FlareOperation = {
	action: 'get the identifier group',
	method: 'GET',
	path: '/{segment}/v2/assets/groups/{assets_group_id}',
	tier: 'basic',
	properties: fields,
	apiFields: { assets_group_id: 'groupId' },
	target: (item) => `Identifier group ${locatorLabel(item, 'groupId')}`,
	prepare(item, request) {
		request.pathParameters.assets_group_id = locatorInteger(item, 'groupId');
	},
	output: (_item, records) => groupOfAnswer(records),
};
