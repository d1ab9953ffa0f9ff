import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/pagination';
import { positiveInteger } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('getByIdentifierBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	{
		displayName: 'Identifier ID',
		name: 'identifierId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7001',
		description: 'Numeric ID of the identifier whose matching policies to list',
	},
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
	fields: { identifier_id: 'Identifier ID' },
	target: (item) => `Identifier ${String(item.parameter('identifierId', ''))}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = positiveInteger(item, 'identifierId', 'Identifier ID');
	},
	output: (_item, records) => records,
};
