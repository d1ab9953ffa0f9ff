import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { boundedText, MAX_NAME_LENGTH, optionValue } from '../../shared/validation';
import { isGiven } from '../identifier/data';

const fields: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the channels that match all of these',
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. n8n',
				description:
					"Text Flare searches the channels for (its q, which Flare's docs do not describe), e.g. part of a name",
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Order and output settings of the list',
		options: [
			leakedValueOutput,
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'asc',
				description: 'Order of the channels',
				options: [
					{ name: 'Ascending', value: 'asc' },
					{ name: 'Descending', value: 'desc' },
				],
			},
		],
	},
];

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
		request.qs = {
			order_type: optionValue(item, 'options.order', ['asc', 'desc'], 'asc'),
			...(isGiven(item, 'filters.search')
				? { q: boundedText(item, 'filters.search', MAX_NAME_LENGTH) }
				: {}),
		};
	},
	output: (_item, records) => records,
};
