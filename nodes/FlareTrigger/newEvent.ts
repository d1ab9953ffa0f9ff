import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

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
import { searchIdentifierGroupFeedOperation } from '../Flare/resources/event/searchIdentifierGroupFeed';
import { searchTenantFeedOperation } from '../Flare/resources/event/searchTenantFeed';
import {
	identifierGroupLocator,
	identifierLocator,
	leakedValueOutput,
	updateDisplayOptions,
} from '../Flare/shared/descriptions';
import type { FlareItem } from '../Flare/shared/item';
import type { FlareOperation } from '../Flare/shared/operation';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import { locatorInteger, optionValue } from '../Flare/shared/validation';
import { backfillOption } from './backfill';
import { MAX_RECORDS_PER_POLL, OutputLater, type Watch } from './poll';
import { digest } from './state';

/** Events one poll holds at most when it fetches each full event (one request each, 4 a second). */
export const MAX_FULL_EVENTS_PER_POLL = 100;

/**
 * Trigger kind "New Event": the tenant's event feed, an identifier's or an identifier group's
 * (docs/api-contract.md, "Flare Trigger").
 */
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
					name: 'Identifier Group',
					value: 'identifierGroup',
					description:
						'The events that matched the identifiers of one group, e.g. one brand or subsidiary',
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
		{
			...identifierGroupLocator(
				'Identifier group whose events to watch: pick it by name, or enter its numeric ID',
			),
			displayOptions: { show: { feed: ['identifierGroup'] } },
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

/** Polls in a row in which Get Full Event may fail for a reason that may pass, before events go without. */
export const FULL_EVENT_TRIES = 3;

/**
 * A failure of Get Full Event that may pass (Flare unavailable, rate limits past their budget, no
 * answer in time or within the poll's, an unreadable or too large answer); any other (a 4xx) will not.
 */
function mayPass(error: unknown): boolean {
	const status = Number((error as NodeApiError).httpCode ?? Number.NaN);
	return !(status >= 400 && status < 500) || status === 408 || status === 429;
}

/**
 * The feed item with its full event (docs/api-contract.md, "Flare Trigger"): one request per event.
 * Flare has none (404): marked `fullEventNotFound`. Any other 4xx: emitted at once without it, with
 * `fullEventError`. A failure that may pass: {@link OutputLater}, the poll asks again at the next
 * polls (poll.ts `emit`); after {@link FULL_EVENT_TRIES} polls in a row the event goes out without
 * it, with `fullEventError`.
 */
async function withFullEvent(item: FlareItem, record: IDataObject): Promise<IDataObject | OutputLater> {
	const uid = (record.metadata as IDataObject | undefined)?.uid;
	if (typeof uid !== 'string' || uid === '') {
		return { ...record, fullEvent: null, fullEventNotFound: true };
	}
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
	} catch (thrown) {
		// The poll's deadline cancelled the request: Flare did not answer in the poll's time.
		const error = item.cancelSignal()?.aborted
			? new NodeOperationError(item.node(), "Flare did not send it within the poll's time limit")
			: asNodeError(item, operation, thrown);
		if (error instanceof NodeApiError && error.httpCode === '404') {
			return { ...record, fullEvent: null, fullEventNotFound: true };
		}
		const status = Number((error as NodeApiError).httpCode ?? Number.NaN);
		const marked = {
			...record,
			fullEvent: null,
			fullEventError: { message: error.message, status: Number.isNaN(status) ? null : status },
		};
		if (!mayPass(error)) return marked;
		return new OutputLater(error, `the full event of event '${uid}'`, FULL_EVENT_TRIES, marked);
	}
	return fullEvent
		? { ...record, fullEvent }
		: { ...record, fullEvent: null, fullEventNotFound: true };
}

/** The events that enter the chosen feed, by `metadata.matched_at` (`filters.materialized_at`). */
export function newEventWatch(item: FlareItem): Watch {
	const feed = optionValue(item, 'feed', ['tenant', 'identifier', 'identifierGroup'], 'tenant');
	const identifierId = feed === 'identifier' ? locatorInteger(item, 'identifierId') : undefined;
	const groupId = feed === 'identifierGroup' ? locatorInteger(item, 'groupId') : undefined;
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
			identifierId !== undefined
				? searchIdentifierFeedOperation
				: groupId !== undefined
					? searchIdentifierGroupFeedOperation
					: searchTenantFeedOperation,
		pathParameters:
			identifierId !== undefined
				? { identifier_id: identifierId }
				: groupId !== undefined
					? { identifier_group_id: groupId }
					: {},
		// An undefined key leaves the fingerprint of a saved trigger as it was (poll.ts).
		asked: { identifierId, groupId, query, filters },
		body: (gte) => search('asc', { gte }),
		newest: search('desc'),
		keyOf: eventKey,
		arrivedAt: (record) => (record.metadata as IDataObject | undefined)?.matched_at,
		pageSize: feedPaging.maxPageSize,
		maxRecords: fetchFullEvent ? MAX_FULL_EVENTS_PER_POLL : MAX_RECORDS_PER_POLL,
		outputRequestsPerRecord: fetchFullEvent ? 1 : 0,
		output: async (record) => (fetchFullEvent ? await withFullEvent(item, record) : record),
	};
}
