import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	feedFilterFields,
	feedFilters,
	feedPaging,
	feedQuery,
	feedQueryFields,
	feedSeverityFields,
} from '../Flare/resources/event/feed';
import { getFullEventOperation } from '../Flare/resources/event/getFullEvent';
import { searchIdentifierFeedOperation } from '../Flare/resources/event/searchIdentifierFeed';
import { searchTenantFeedOperation } from '../Flare/resources/event/searchTenantFeed';
import {
	identifierLocator,
	leakedValueOutput,
	updateDisplayOptions,
} from '../Flare/shared/descriptions';
import type { FlareItem } from '../Flare/shared/item';
import type { FlareOperation } from '../Flare/shared/operation';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import { locatorInteger, optionValue } from '../Flare/shared/validation';
import { backfillOption } from './backfill';
import { MAX_RECORDS_PER_POLL, type Watch } from './poll';
import { digest } from './state';

/** Events one poll holds at most when it fetches each full event (one request each, 4 a second). */
export const MAX_FULL_EVENTS_PER_POLL = 100;

/** Trigger kind "New Event": the tenant's event feed, or an identifier's (docs/api-contract.md, "Flare Trigger"). */
export const newEventFields: INodeProperties[] = updateDisplayOptions(
	{ show: { event: ['newEvent'] } },
	[
		{
			displayName: 'Feed',
			name: 'feed',
			type: 'options',
			noDataExpression: true,
			default: 'tenant',
			description: 'Which events to watch',
			options: [
				{
					name: 'Identifier',
					value: 'identifier',
					description: 'The events that matched one identifier',
				},
				{
					name: 'Tenant',
					value: 'tenant',
					description: "The events that matched any of the tenant's identifiers",
				},
			],
		},
		{
			...identifierLocator(
				'Identifier whose events to watch: pick it by name, or enter its numeric ID',
			),
			displayOptions: { show: { feed: ['identifier'] } },
		},
		...feedQueryFields,
		...feedSeverityFields,
		feedFilterFields({ materialized: false }),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				backfillOption('events', 'that entered the feed'),
				{
					displayName: 'Fetch Full Event',
					name: 'fetchFullEvent',
					type: 'boolean',
					default: false,
					description: `Whether to add everything Flare knows of each event (Get Full Event) to its item, as fullEvent, its leaked values masked as Leaked Value Output says. It takes one more request per event, so a poll then takes at most ${MAX_FULL_EVENTS_PER_POLL} events and leaves the rest for the next poll.`,
				},
				leakedValueOutput,
			],
		},
	],
);

/** What identifies an event: a digest of its `metadata.uid`, so that keys stay short (state.ts). */
export function eventKey(record: IDataObject): string {
	const uid = (record.metadata as IDataObject | undefined)?.uid;
	if (typeof uid === 'string' && uid !== '') return `e:${digest(uid)}`;
	return `d:${digest(JSON.stringify(record))}`;
}

/** The full event of `uid`, unwrapped as Get Full Event outputs it; undefined when Flare has none (404). */
async function fullEventOf(item: FlareItem, uid: string): Promise<IDataObject | undefined> {
	const operation: FlareOperation = {
		...getFullEventOperation,
		target: () => `Event '${uid}'`,
		prepare: (_item, request) => {
			request.qs = { uid };
		},
	};
	let fullEvent: IDataObject | undefined;
	try {
		await callFlare(item, operation, {
			onPage(_records, response) {
				[fullEvent] = getFullEventOperation.output(item, [], response);
				return false;
			},
		});
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') return undefined;
		throw asNodeError(item, operation, error);
	}
	return fullEvent;
}

/**
 * Each feed item with its full event, one request per event; an event whose full event Flare does not
 * have (404) keeps its feed item, marked (docs/api-contract.md, "Flare Trigger").
 */
async function withFullEvents(item: FlareItem, records: IDataObject[]): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	for (const record of records) {
		const uid = (record.metadata as IDataObject | undefined)?.uid;
		const fullEvent =
			typeof uid === 'string' && uid !== '' ? await fullEventOf(item, uid) : undefined;
		items.push(
			fullEvent
				? { ...record, fullEvent }
				: { ...record, fullEvent: null, fullEventNotFound: true },
		);
	}
	return items;
}

/** The events that enter the chosen feed, by `metadata.matched_at` (`filters.materialized_at`). */
export function newEventWatch(item: FlareItem): Watch {
	const feed = optionValue(item, 'feed', ['tenant', 'identifier'], 'tenant');
	const identifierId = feed === 'identifier' ? locatorInteger(item, 'identifierId') : undefined;
	const query = feedQuery(item);
	const filters = feedFilters(item);
	const fetchFullEvent = item.parameter<unknown>('options.fetchFullEvent', false) === true;
	const search = (order: string, materialized?: IDataObject): IDataObject => ({
		...(query ? { query } : {}),
		...(filters || materialized
			? { filters: { ...filters, ...(materialized ? { materialized_at: materialized } : {}) } }
			: {}),
		order,
	});
	return {
		operation:
			identifierId === undefined ? searchTenantFeedOperation : searchIdentifierFeedOperation,
		pathParameters: identifierId === undefined ? {} : { identifier_id: identifierId },
		asked: { identifierId, query, filters },
		body: (gte) => search('asc', { gte }),
		newest: search('desc'),
		keyOf: eventKey,
		arrivedAt: (record) => (record.metadata as IDataObject | undefined)?.matched_at,
		pageSize: feedPaging.maxPageSize,
		maxRecords: fetchFullEvent ? MAX_FULL_EVENTS_PER_POLL : MAX_RECORDS_PER_POLL,
		outputRequestsPerRecord: fetchFullEvent ? 1 : 0,
		output: async (records) => (fetchFullEvent ? await withFullEvents(item, records) : records),
	};
}
