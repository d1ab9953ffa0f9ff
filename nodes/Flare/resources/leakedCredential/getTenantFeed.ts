import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	returnAllOrLimit,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { optionValue } from '../../shared/validation';

const fields: INodeProperties[] = [
	...returnAllOrLimit,
	simplify,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Order and output settings of the feed',
		options: [
			leakedValueOutput,
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'desc',
				description: 'Order of the credentials by import time',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
			},
		],
	},
];

export const getTenantFeedDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCredential'], operation: ['getTenantFeed'] } },
	fields,
);

/** The most useful fields of a tenant credential, flattened (10): who, what, where from, and its state. */
export function simplifyTenantCredential(record: IDataObject): IDataObject {
	return {
		id: record.id,
		identity_name: record.identity_name,
		domain: record.domain ?? null,
		hash: record.hash,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: ((record.source as IDataObject | undefined)?.name ?? null) as string | null,
		credential_hash: record.credential_hash ?? null,
		remediated_at: record.remediated_at ?? null,
		ignored_at: record.ignored_at ?? null,
	};
}

/** The credentials that match the identifiers of the credential's tenant, with their states. */
export const getTenantFeedOperation: FlareOperation = {
	action: "get the tenant's leaked credentials",
	method: 'GET',
	path: '/{segment}/v2/me/feed/credentials',
	tier: 'basic',
	// Flare documents a default `size` of 20 and no maximum: pages of 100 are a bet, with pages of 20
	// when Flare refuses them (docs/api-contract.md, "Paging").
	paging: {
		maxPageSize: 100,
		documentedPageSize: 20,
		next: nextCursor,
		key: (record) => record.id,
	},
	properties: fields,
	apiFields: { size: 'limit', order_type: 'options.order' },
	prepare(item, request) {
		request.qs = { order_type: optionValue(item, 'options.order', ['desc', 'asc'], 'desc') };
	},
	output: (item, records) =>
		item.parameter<boolean>('simplify', true) ? records.map(simplifyTenantCredential) : records,
};
