import type { INodeProperties } from 'n8n-workflow';

import { notice, sourceLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorText } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'sourceNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature on your Flare account.',
	),
	sourceLocator(
		'Leak source to describe: pick it by name, or enter its ID as in the source_id field of a leaked credential',
	),
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
	properties: fields,
	apiFields: { source_id: 'sourceId' },
	target: (item) => `Source '${locatorLabel(item, 'sourceId')}'`,
	prepare(item, request) {
		request.pathParameters.source_id = locatorText(item, 'sourceId');
	},
	output: (_item, records) => records,
};
