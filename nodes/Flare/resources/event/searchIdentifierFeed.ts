import type { INodeProperties } from 'n8n-workflow';

import { identifierLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { feedApiFields, feedBody, feedNarrow, feedPaging, feedSearchFields } from './feed';

const fields: INodeProperties[] = [
	identifierLocator('Identifier whose events to search: pick it by name, or enter its numeric ID'),
	...feedSearchFields,
];

export const searchIdentifierFeedDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['searchIdentifierFeed'] } },
	fields,
);

export const searchIdentifierFeedOperation: FlareOperation = {
	action: 'search the event feed of the identifier',
	method: 'POST',
	path: '/{segment}/v4/events/identifiers/{identifier_id}/_search',
	tier: 'basic',
	paging: feedPaging,
	narrow: feedNarrow,
	properties: fields,
	apiFields: { ...feedApiFields, identifier_id: 'identifierId' },
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
		request.body = feedBody(item);
	},
	output: (_item, records) => records,
};
