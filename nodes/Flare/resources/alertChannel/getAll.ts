import { updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listQuery } from '../../shared/lists';
import { nextCursor, type FlareOperation } from '../../shared/operation';

const fields = listFields({
	records: 'channels',
	search: 'e.g. n8n',
	order: { default: 'asc', description: 'Order of the channels' },
});

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['alertChannel'], operation: ['getAll'] } },
	fields,
);

/**
 * The alert channels of the tenant (`GET /{segment}/v4/alerts/channels`, pages of at most 10): one
 * item each, `{id, name, type, state: {status, message}, alert_count}`; `state.status` is `error`
 * when Flare could not deliver to it.
 */
export const getAllOperation: FlareOperation = {
	action: 'list alert channels',
	method: 'GET',
	path: '/{segment}/v4/alerts/channels',
	tier: 'basic',
	paging: { maxPageSize: 10, next: nextCursor, key: (record) => record.id },
	narrow: 'e.g. set Search under Filters',
	properties: fields,
	apiFields: { size: 'limit', q: 'filters.search', order_type: 'options.order' },
	prepare(item, request) {
		request.qs = listQuery(item, 'order_type', 'asc');
	},
	output: (_item, records) => records,
};
