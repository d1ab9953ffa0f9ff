import { updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listOperation, type ListForm } from '../../shared/lists';

const form: ListForm = {
	records: 'channels',
	search: 'e.g. n8n',
	order: { default: 'asc', description: 'Order of the channels' },
};
const fields = listFields(form);

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['alertChannel'], operation: ['getAll'] } },
	fields,
);

/**
 * The alert channels of the tenant (`GET /{segment}/v4/alerts/channels`, pages of at most 10): one
 * item each, `{id, name, type, state: {status, message}, alert_count}`; `state.status` is `error`
 * when Flare could not deliver to it.
 */
export const getAllOperation = listOperation(form, fields, {
	action: 'list alert channels',
	path: '/{segment}/v4/alerts/channels',
	paging: { maxPageSize: 10 },
	orderParameter: 'order_type',
	narrow: 'e.g. set Search under Filters',
});
