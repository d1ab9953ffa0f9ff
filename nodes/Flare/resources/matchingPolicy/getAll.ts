import type { INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { optionValue } from '../../shared/validation';

/** Order of a list (by creation), shared by Get Many and Get Assignments. */
export const listOrderOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Order of the list',
	options: [
		{
			displayName: 'Order',
			name: 'order',
			type: 'options',
			default: 'asc',
			description: 'Order of the list, by creation',
			options: [
				{ name: 'Newest First', value: 'desc' },
				{ name: 'Oldest First', value: 'asc' },
			],
		},
	],
};

const fields: INodeProperties[] = [
	notice('getManyPoliciesBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	...returnAllOrLimit,
	listOrderOptions,
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['getAll'] } },
	fields,
);

export const getAllOperation: FlareOperation = {
	action: 'list matching policies',
	method: 'GET',
	path: '/{segment}/v4/matching-policies',
	tier: 'basic',
	paging: { maxPageSize: 25, next: nextCursor, key: (record) => record.uuid },
	properties: fields,
	apiFields: { size: 'limit', order: 'options.order' },
	prepare(item, request) {
		request.qs = { order: optionValue(item, 'options.order', ['asc', 'desc'], 'asc') };
	},
	output: (_item, records) => records,
};
