import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { optionValue, optionValues } from '../../shared/validation';
import { groupIdField, groupOf, IDENTIFIER_TYPES, identifierTypeOptions, isGiven } from './data';

const AUTHORIZATION_STATUSES = ['authorized', 'pending', 'rejected'] as const;
const ORDER_BY = ['id', 'name', 'type'] as const;

const fields: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the identifiers that match all of these',
		options: [
			{
				displayName: 'Authorization Status',
				name: 'authorizationStatus',
				type: 'options',
				default: 'authorized',
				description: "Where Flare's authorization of a domain identifier stands",
				options: [
					{ name: 'Authorized', value: 'authorized' },
					{ name: 'Pending', value: 'pending' },
					{ name: 'Rejected', value: 'rejected' },
				],
			},
			{
				displayName: 'Disabled',
				name: 'isDisabled',
				type: 'boolean',
				default: false,
				description:
					'Whether to list only disabled identifiers (on) or only enabled ones (off); leave out to list both',
			},
			{
				...groupIdField,
				description: 'Only the identifiers of this group: pick it by name, or enter its numeric ID',
			},
			{
				displayName: 'Types',
				name: 'types',
				type: 'multiOptions',
				default: [],
				description: 'Only identifiers of these kinds',
				options: identifierTypeOptions,
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
				displayName: 'Order By',
				name: 'orderBy',
				type: 'options',
				default: 'id',
				description: 'What the identifiers are sorted by',
				options: [
					{ name: 'ID', value: 'id' },
					{ name: 'Name', value: 'name' },
					{ name: 'Type', value: 'type' },
				],
			},
		],
	},
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['getAll'] } },
	fields,
);

function disabledFilter(item: FlareItem): boolean {
	const value = item.parameter<unknown>('filters.isDisabled');
	if (typeof value !== 'boolean') {
		throw parameterError(item, 'filters.isDisabled', 'must be true or false');
	}
	return value;
}

/** The list's query: order and filters (paging is added by the runner). */
function listQuery(item: FlareItem): IDataObject {
	const types = optionValues(item, 'filters.types', IDENTIFIER_TYPES);
	return {
		order_by: optionValue(item, 'options.orderBy', ORDER_BY, 'id'),
		...(isGiven(item, 'filters.isDisabled') ? { is_disabled: disabledFilter(item) } : {}),
		...groupOf(item, 'filters.groupId'),
		...(types.length ? { types } : {}),
		...(isGiven(item, 'filters.authorizationStatus')
			? {
					authorization_status: optionValue(
						item,
						'filters.authorizationStatus',
						AUTHORIZATION_STATUSES,
						'authorized',
					),
				}
			: {}),
	};
}

export const getAllOperation: FlareOperation = {
	action: 'list identifiers',
	method: 'GET',
	path: '/{segment}/v4/identifiers/',
	tier: 'basic',
	paging: { maxPageSize: 100, next: nextCursor, key: (record) => record.id },
	narrow: 'e.g. set Types under Filters',
	properties: fields,
	apiFields: {
		size: 'limit',
		order_by: 'options.orderBy',
		is_disabled: 'filters.isDisabled',
		group_id: 'filters.groupId',
		types: 'filters.types',
		authorization_status: 'filters.authorizationStatus',
	},
	prepare(item, request) {
		request.qs = listQuery(item);
	},
	output: (_item, records) => records,
};
