import { updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { feedApiFields, feedBody, feedNarrow, feedPaging, feedSearchFields } from './feed';

const fields = feedSearchFields;

export const searchTenantFeedDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['searchTenantFeed'] } },
	fields,
);

export const searchTenantFeedOperation: FlareOperation = {
	action: 'search the tenant event feed',
	method: 'POST',
	path: '/{segment}/v4/events/tenant/_search',
	tier: 'basic',
	paging: feedPaging,
	narrow: feedNarrow,
	properties: fields,
	apiFields: feedApiFields,
	prepare(item, request) {
		request.body = feedBody(item);
	},
	output: (_item, records) => records,
};
