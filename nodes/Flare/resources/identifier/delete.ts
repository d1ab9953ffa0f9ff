import type { INodeProperties } from 'n8n-workflow';

import { identifierLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'deleteIdentifierNotice',
		'Flare removes the identifier and its related data in the background; this can take up to an hour.',
	),
	identifierLocator('Identifier to delete: pick it by name, or enter its numeric ID'),
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
	answerIgnored: true,
	properties: fields,
	apiFields: { identifier_id: 'identifierId' },
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
	},
	output: (item) => [{ deleted: true, identifierId: locatorInteger(item, 'identifierId') }],
};
