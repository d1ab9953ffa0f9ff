import type { INodeProperties } from 'n8n-workflow';

import { identifierLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('getByIdentifierBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	identifierLocator(
		'Identifier whose matching policies to list: pick it by name, or enter its numeric ID',
	),
];

export const getByIdentifierDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['getByIdentifier'] } },
	fields,
);

export const getByIdentifierOperation: FlareOperation = {
	action: 'get the matching policies of an identifier',
	method: 'GET',
	path: '/{segment}/v4/matching-policies/by_identifier_id/{identifier_id}',
	tier: 'basic',
	properties: fields,
	apiFields: { identifier_id: 'identifierId' },
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
	},
	output: (_item, records) => records,
};
