import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import { listFields, listOperation, type ListForm } from '../../shared/lists';
import { optionValues } from '../../shared/validation';

/** Flare's kinds of Threat Flow report (v4 OpenAPI `ReportType`). */
export const REPORT_TYPES = ['custom', 'standard'] as const;

const form: ListForm = {
	records: 'reports',
	filters: [
		{
			displayName: 'Report Types',
			name: 'reportTypes',
			type: 'multiOptions',
			default: [],
			description: 'Only reports of these kinds; none: every kind',
			options: [
				{
					name: 'Custom',
					value: 'custom',
					description: 'Reports requested by the tenant (Create Request)',
				},
				{ name: 'Standard', value: 'standard', description: 'Reports Flare publishes' },
			],
		},
	],
	order: {
		default: 'desc',
		description: 'Order of the reports by creation',
		names: { desc: 'Newest First', asc: 'Oldest First' },
	},
};
const fields: INodeProperties[] = [
	notice(
		'threatReportGetAllNotice',
		'Needs access to Threat Flow (a feature of your Flare account and a permission of your role). Lists the Threat Flow reports of the tenant: those Flare publishes (standard) and those requested with Create Request (custom).',
	),
	...listFields(form),
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['getAll'] } },
	fields,
);

/**
 * The tenant's Threat Flow reports (`GET /{segment}/v4/threat_flow/reports/`), one item each. Flare
 * documents pages of 10 by default and no maximum: the node asks for 100 and falls back to 10 if Flare
 * refuses (docs/api-contract.md, "Response and onboarding endpoints").
 */
export const getAllOperation = listOperation(form, fields, {
	action: 'list threat reports',
	entitlement: 'threat intelligence',
	path: '/{segment}/v4/threat_flow/reports/',
	paging: { maxPageSize: 100, documentedPageSize: 10 },
	orderParameter: 'order',
	narrow: 'e.g. set Report Types under Filters',
	apiFields: { report_types: 'filters.reportTypes' },
	query(item, base) {
		const types = optionValues(item, 'filters.reportTypes', REPORT_TYPES);
		return { ...base, ...(types.length ? { report_types: types } : {}) };
	},
});
