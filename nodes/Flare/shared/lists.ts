/**
 * The form and query of a list of Flare's v4 API (Alert Central's channels and rules, Threat Flow's
 * reports, platform reports): Return All or Limit; Filters (a Search Flare receives as `q`, and the
 * list's own); Options (Leaked Value Output, the Order, and the list's own). A new list operation is
 * its endpoint and its own fields only (alertChannel/getAll.ts is the smallest).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOutput, returnAllOrLimit } from './descriptions';
import type { FlareItem } from './item';
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
