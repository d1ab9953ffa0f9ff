import type { INodeProperties } from 'n8n-workflow';

import {
	identifierLocator,
	leakedValueOptions,
	updateDisplayOptions,
} from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	identifierLocator('Identifier to get: pick it by name, or enter its numeric ID'),
	leakedValueOptions,
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['get'] } },
	fields,
);

export const getOperation: FlareOperation = {
	action: 'get the identifier',
	method: 'GET',
	path: '/{segment}/v4/identifiers/{identifier_id}',
	tier: 'basic',
	properties: fields,
	apiFields: { identifier_id: 'identifierId' },
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
	},
	output: (_item, records) => records,
};
