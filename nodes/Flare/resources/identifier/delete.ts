import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/pagination';
import { positiveInteger } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'deleteIdentifierNotice',
		'Flare removes the identifier and its related data in the background; this can take up to an hour.',
	),
	{
		displayName: 'Identifier ID',
		name: 'identifierId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7001',
		description: 'Numeric ID of the identifier to delete',
	},
];

export const deleteDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['delete'] } },
	fields,
);

export const deleteOperation: FlareOperation = {
	action: 'delete the identifier',
	method: 'DELETE',
	path: '/{segment}/v4/identifiers/{identifier_id}',
	tier: 'basic',
	write: true,
	fields: { identifier_id: 'Identifier ID' },
	target: (item) => `Identifier ${String(item.parameter('identifierId', ''))}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = positiveInteger(item, 'identifierId', 'Identifier ID');
	},
	output: (item) => [
		{ deleted: true, identifierId: positiveInteger(item, 'identifierId', 'Identifier ID') },
	],
};
