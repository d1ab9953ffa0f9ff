import { updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listQuery } from '../../shared/lists';
import { nextCursor, type FlareOperation } from '../../shared/operation';

const fields = listFields({
	records: 'rules',
	search: 'e.g. critical',
	order: { default: 'asc', description: 'Order of the rules' },
});

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['alertRule'], operation: ['getAll'] } },
	fields,
);

/**
 * Every alert rule of the tenant (`GET /{segment}/v4/alerts/`, pages of at most 10): one item each,
 * with its `feed_definition` (the tenant, an identifier or a group) and its `alert_channel`.
 */
export const getAllOperation: FlareOperation = {
	action: 'list alert rules',
	method: 'GET',
	path: '/{segment}/v4/alerts/',
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
