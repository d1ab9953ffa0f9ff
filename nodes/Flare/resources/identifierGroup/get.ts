import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifierGroupLocator, updateDisplayOptions } from '../../shared/descriptions';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import { isObject, type FlareOperation, type FlareResponse } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	identifierGroupLocator('Identifier group to get: pick it by name, or enter its numeric ID'),
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['get'] } },
	fields,
);

/**
 * The group of an answer: Flare wraps it in `assets_group` (v2 OpenAPI `IdentifierGroup`). Anything
 * else is not read as "no group": it fails, saying what came.
 */
export function groupOfAnswer({ body, statusCode }: FlareResponse): IDataObject[] {
	const group = isObject(body) ? body.assets_group : undefined;
	if (!isObject(group)) {
		const what = !isObject(body)
			? describeShape(body)
			: body.assets_group === undefined
				? "an object without 'assets_group'"
				: `an object whose 'assets_group' is ${describeShape(body.assets_group)}`;
		throw unexpectedAnswer(statusCode, `Flare answered with ${what}, not an identifier group`);
	}
	return [group];
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
	output: (_item, _records, response) => groupOfAnswer(response),
};
