import type { INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';

const fields: INodeProperties[] = [
	notice(
		'sourceGetAllNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature on your Flare account. Lists every leak source, the oldest first.',
	),
	...returnAllOrLimit,
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['source'], operation: ['getAll'] } },
	fields,
);

/**
 * Every leak source (`GET /astp/v2/sources`, astp/endpoints/get-sources.mdx: "paginated and in
 * ascending order from least recently added to most recently added", `size` at most 10,000, `from`):
 * one item per source, as Flare lists it (`id`, `name`, `description`, `breached_at`, …).
 */
export const getAllOperation: FlareOperation = {
	action: 'list sources',
	entitlement: 'ASTP',
	method: 'GET',
	path: '/astp/v2/sources',
	tier: 'basic',
	paging: { maxPageSize: 10_000, next: nextCursor, key: (record) => record.id },
	properties: fields,
	apiFields: { size: 'limit' },
	output: (_item, records) => records,
};
