import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	notice,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareOperation } from '../../shared/operation';
import { quotaFields } from '../../shared/quota';
import {
	feedApiFields,
	feedBody,
	feedPaging,
	feedSeverityFields,
	globalFilterFields,
	globalQueryFields,
} from './feed';

const fields: INodeProperties[] = [
	notice(
		'searchGlobalQuotaNotice',
		"Searches of all of Flare count toward your organization's monthly global search quota: Flare counts one search per 100 results, and the same search repeated or adjusted within 10 minutes is not counted again. Flare returns at most 10 events a page and allows 1 search request per second: a Limit asks for just that many events, in the fewest pages; Return All reads pages of 10, about 100 events every 10 seconds.",
	),
	...globalQueryFields,
	...feedSeverityFields,
	...returnAllOrLimit,
	globalFilterFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How the events are returned',
		options: [
			leakedValueOutput,
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'desc',
				description: 'Order of the events, by date',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
			},
		],
	},
];

export const searchGlobalDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['searchGlobal'] } },
	fields,
);

/**
 * Every event Flare collected, beyond the tenant's identifiers: the feeds' body with a required
 * query, in pages of at most 10, at the Search rate and against the global-search quota
 * (docs/api-contract.md, "Global-search quota"). Items carry no `identifiers`.
 */
export const searchGlobalOperation: FlareOperation = {
	action: 'search all of Flare',
	method: 'POST',
	path: '/{segment}/v4/events/global/_search',
	tier: 'search',
	// Each page asks for 10 events of the quota: a run of empty pages stops at the default 50.
	paging: { ...feedPaging, maxPagesWithoutNew: undefined },
	narrow:
		'e.g. set Created From/To under Filters, choose Event Type Names or IDs, or a higher Severity',
	properties: fields,
	apiFields: feedApiFields,
	prepare(item, request) {
		const body = feedBody(item);
		if (!body.query) {
			throw parameterError(
				item,
				'searchBy',
				'needs a query: Flare searches all of its events only for what they mention',
				'Choose what to search by, e.g. Keyword or Query String.',
			);
		}
		request.body = body;
	},
	output(_item, records, response) {
		const quota = quotaFields(response);
		return records.map((record) => ({ ...record, ...quota }));
	},
};
