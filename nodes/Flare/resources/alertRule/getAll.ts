import { updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listOperation, type ListForm } from '../../shared/lists';

const form: ListForm = {
	records: 'rules',
	search: 'e.g. critical',
	order: { default: 'asc', description: 'Order of the rules' },
};
const fields = listFields(form);

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['alertRule'], operation: ['getAll'] } },
	fields,
);

/**
 * Every alert rule of the tenant (`GET /{segment}/v4/alerts/`, pages of at most 10): one item each,
 * with its `feed_definition` (the tenant, an identifier or a group) and its `alert_channel`.
 */
export const getAllOperation = listOperation(form, fields, {
	action: 'list alert rules',
	path: '/{segment}/v4/alerts/',
	paging: { maxPageSize: 10 },
	orderParameter: 'order_type',
	narrow: 'e.g. set Search under Filters',
});
