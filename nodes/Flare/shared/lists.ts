/**
 * The form and query of a list of Flare's v4 API (Alert Central's channels and rules, Threat Flow's
 * reports, platform reports): Return All or Limit; Filters (a Search Flare receives as `q`, and the
 * list's own); Options (Leaked Value Output, the Order, and the list's own). A new list operation is
 * its endpoint and its own fields only (alertChannel/getAll.ts is the smallest).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOutput, returnAllOrLimit } from './descriptions';
import type { FlareItem } from './item';
import { nextCursor, type FlareOperation, type Paging } from './operation';
import { boundedText, isGiven, MAX_NAME_LENGTH, optionValue } from './validation';

type Order = 'asc' | 'desc';

export interface ListForm {
	/** What is listed, in the plural: `channels`, `rules`, `reports`. */
	records: string;
	/** A Search filter, sent as `q`: its placeholder (`e.g. n8n`). */
	search?: string;
	/** The list's own filters, after Search. */
	filters?: INodeProperties[];
	/** What the Filters collection says, when not "Only the <records> that match all of these". */
	filtersDescription?: string;
	order: {
		default: Order;
		description: string;
		/** How the form names the two orders (`Newest First`), when not Ascending and Descending. */
		names?: Record<Order, string>;
	};
	/** The list's own options, after Order. */
	options?: INodeProperties[];
}

/** The fields of a v4 list's form. */
export function listFields(form: ListForm): INodeProperties[] {
	const names = form.order.names ?? { asc: 'Ascending', desc: 'Descending' };
	const orderDefault = form.order.default;
	const orders: Order[] =
		form.order.names && form.order.default === 'desc' ? ['desc', 'asc'] : ['asc', 'desc'];
	const search: INodeProperties[] = form.search
		? [
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					placeholder: form.search,
					description: `Text Flare searches the ${form.records} for (its q, which Flare's docs do not describe), e.g. part of a name`,
				},
			]
		: [];
	return [
		...returnAllOrLimit,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			description: form.filtersDescription ?? `Only the ${form.records} that match all of these`,
			options: [...search, ...(form.filters ?? [])],
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
					default: orderDefault,
					description: form.order.description,
					options: orders.map((order) => ({ name: names[order], value: order })),
				},
				...(form.options ?? []),
			],
		},
	];
}

/**
 * The query of a v4 list: its order, under the name Flare gives it (`order_type`, or `order` for
 * Threat Flow's reports), and its Search as `q` when given.
 */
export function listQuery(
	item: FlareItem,
	orderParameter: string,
	defaultOrder: Order,
): IDataObject {
	return {
		[orderParameter]: optionValue(item, 'options.order', ['asc', 'desc'], defaultOrder),
		...(isGiven(item, 'filters.search')
			? { q: boundedText(item, 'filters.search', MAX_NAME_LENGTH) }
			: {}),
	};
}

/** The endpoint of a v4 list: what the operation sends, besides its form's fields. */
export interface ListEndpoint {
	/** How the node names it in messages (`list alert rules`). */
	action: string;
	path: string;
	/** The feature of Flare's it needs, for the message of a 403. */
	entitlement?: FlareOperation['entitlement'];
	paging: Pick<Paging, 'maxPageSize' | 'documentedPageSize'>;
	/** Flare's name of the order's query parameter (`order_type`; `order` for Threat Flow's reports). */
	orderParameter: string;
	/** The advice a walk that goes on too long gives (`e.g. set Search under Filters`). */
	narrow?: string;
	/** The list's own query parameters, around the Search and the Order (`base`). */
	query?: (item: FlareItem, base: IDataObject) => IDataObject;
	/** The form's fields the list's own query parameters come from (for its error messages). */
	apiFields?: Record<string, string>;
}

/** A v4 list's operation: its page walk by Flare's `next` cursor, one item per record. */
export function listOperation(
	form: ListForm,
	properties: INodeProperties[],
	endpoint: ListEndpoint,
): FlareOperation {
	const { orderParameter, query } = endpoint;
	return {
		action: endpoint.action,
		...(endpoint.entitlement ? { entitlement: endpoint.entitlement } : {}),
		method: 'GET',
		path: endpoint.path,
		tier: 'basic',
		paging: { ...endpoint.paging, next: nextCursor, key: (record) => record.id },
		...(endpoint.narrow ? { narrow: endpoint.narrow } : {}),
		properties,
		apiFields: {
			size: 'limit',
			...(form.search ? { q: 'filters.search' } : {}),
			[orderParameter]: 'options.order',
			...endpoint.apiFields,
		},
		prepare(item, request) {
			const base = listQuery(item, orderParameter, form.order.default);
			request.qs = query ? query(item, base) : base;
		},
		output: (_item, records) => records,
	};
}
