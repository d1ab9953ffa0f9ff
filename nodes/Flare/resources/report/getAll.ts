import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listOperation, type ListForm } from '../../shared/lists';
import { booleanValue, optionValue } from '../../shared/validation';

/** What Flare sorts reports by (v4 OpenAPI `SortType` of `GET /v4/reports`). */
const ORDER_BY = ['author', 'created_at', 'id', 'status', 'title', 'updated_at'] as const;

/** The notice of every Report operation. */
export const REPORTS_NEEDS =
	"Needs Flare's reports feature. These are the tenant's platform reports (Reports in Flare), not Threat Flow's threat reports.";

const form: ListForm = {
	records: 'reports',
	filtersDescription: 'Which reports to list',
	filters: [
		{
			displayName: 'Include Archived',
			name: 'includeArchived',
			type: 'boolean',
			default: false,
			description: 'Whether to list archived reports too',
		},
	],
	order: { default: 'desc', description: 'Direction of the order' },
	options: [
		{
			displayName: 'Order By',
			name: 'orderBy',
			type: 'options',
			default: 'created_at',
			description: 'What the reports are ordered by',
			options: [
				{ name: 'Author', value: 'author' },
				{ name: 'Created At', value: 'created_at' },
				{ name: 'ID', value: 'id' },
				{ name: 'Status', value: 'status' },
				{ name: 'Title', value: 'title' },
				{ name: 'Updated At', value: 'updated_at' },
			],
		},
	],
};
const fields: INodeProperties[] = [
	notice('reportGetAllNotice', REPORTS_NEEDS),
	...listFields(form),
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getAll'] } },
	fields,
);

/**
 * The tenant's platform reports (`GET /{segment}/v4/reports`, v4 OpenAPI: `size` at most 100,
 * `order_by`, `order_type`, `include_archived`; pages `{items, next}`): one item per report
 * (`PublicReport`: id, title, author, status, report_type, created_at, is_archived, …).
 */
export const getAllOperation = listOperation(form, fields, {
	action: 'list reports',
	entitlement: 'reports',
	path: '/{segment}/v4/reports',
	paging: { maxPageSize: 100 },
	orderParameter: 'order_type',
	apiFields: { order_by: 'options.orderBy', include_archived: 'filters.includeArchived' },
	query: (item, base) => ({
		order_by: optionValue(item, 'options.orderBy', ORDER_BY, 'created_at'),
		...base,
		include_archived: booleanValue(item, 'filters.includeArchived'),
	}),
});
