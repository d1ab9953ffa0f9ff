import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/pagination';
import { fillPath } from '../../shared/transport';
import { positiveInteger } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('deleteIdentifierNotice', 'Flare removes the identifier and its related data in the background; this can take up to an hour.'),
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

export const deleteDescription = updateDisplayOptions({ show: { resource: ['identifier'], operation: ['delete'] } }, fields);

export const deleteOperation: FlareOperation = {
	action: 'delete the identifier',
	tier: 'basic',
	write: true,
	fields: { identifier_id: 'Identifier ID' },
	target() {
		return `Identifier ${String(this.getNodeParameter('identifierId', ''))}`;
	},
	prepare(request) {
		fillPath(request, { identifier_id: positiveInteger(this, 'identifierId', 'Identifier ID') });
	},
	output() {
		return [{ deleted: true, identifierId: positiveInteger(this, 'identifierId', 'Identifier ID') }];
	},
};
