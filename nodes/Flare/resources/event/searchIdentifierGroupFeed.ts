import type { INodeProperties } from 'n8n-workflow';

import { identifierGroupLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { feedApiFields, feedBody, feedNarrow, feedPaging, feedSearchFields } from './feed';

const fields: INodeProperties[] = [
	identifierGroupLocator(
		'Identifier group whose events to search: pick it by name, or enter its numeric ID',
	),
	...feedSearchFields,
];

export const searchIdentifierGroupFeedDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['searchIdentifierGroupFeed'] } },
	fields,
);

/** The events that matched the identifiers of one group: the identifier feed's body and paging. */
export const searchIdentifierGroupFeedOperation: FlareOperation = {
	action: 'search the event feed of the identifier group',
	method: 'POST',
	path: '/{segment}/v4/events/identifier_groups/{identifier_group_id}/_search',
	tier: 'basic',
	paging: feedPaging,
	narrow: feedNarrow,
	properties: fields,
	apiFields: { ...feedApiFields, identifier_group_id: 'groupId' },
	target: (item) => `Identifier group ${locatorLabel(item, 'groupId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_group_id = locatorInteger(item, 'groupId');
		request.body = feedBody(item);
	},
	output: (_item, records) => records,
};
