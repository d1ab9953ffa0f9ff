import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/pagination';
import { requiredText } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'sourceNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature on your Flare account.',
	),
	{
		displayName: 'Source ID',
		name: 'sourceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. collection-1',
		description: 'ID of the leak source, as in the source_id field of a leaked credential',
	},
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['source'], operation: ['get'] } },
	fields,
);

export const getOperation: FlareOperation = {
	action: 'get a source',
	entitlement: 'ASTP',
	method: 'GET',
	path: '/astp/sources/{source_id}',
	tier: 'basic',
	fields: { source_id: 'Source ID' },
	target: (item) => `Source '${String(item.parameter('sourceId', ''))}'`,
	prepare(item, request) {
		request.pathParameters.source_id = requiredText(item, 'sourceId', 'Source ID');
	},
	output: (_item, records) => records,
};
