/**
 * The Flare Trigger's New Event kind (docs/trigger.md): its form, and the watch poll.ts walks
 * (`newEventWatch`): the tenant's, an identifier's or an identifier group's event feed; `eventKey`
 * says what is a new entry (an event Flare files again is one), `passes` the severity, tags and
 * triage filters; Fetch Full Event reads each new event's full record within the poll's time.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	feedFilterFields,
	feedFilters,
	feedPaging,
	feedQuery,
	feedQueryFields,
	feedSeverityFields,
	SEVERITIES,
} from '../Flare/resources/event/feed';
import { getFullEventOperation } from '../Flare/resources/event/getFullEvent';
import { searchIdentifierFeedOperation } from '../Flare/resources/event/searchIdentifierFeed';
import { searchIdentifierGroupFeedOperation } from '../Flare/resources/event/searchIdentifierGroupFeed';
import { searchTenantFeedOperation } from '../Flare/resources/event/searchTenantFeed';
import { jsonWithin } from '../Flare/shared/body';
import {
	identifierGroupLocator,
	identifierLocator,
	leakedValueOutput,
	updateDisplayOptions,
} from '../Flare/shared/descriptions';
import { parameterError } from '../Flare/shared/errors';
import type { FlareItem } from '../Flare/shared/item';
import type { FlareOperation } from '../Flare/shared/operation';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import { locatorInteger, optionValue } from '../Flare/shared/validation';
import { backfillOption } from './backfill';
import { MAX_RECORDS_PER_POLL, OutputLater, type Watch } from './watch';
import { digest, instantOf } from './state';

/** Events one poll holds at most when it fetches each full event (one request each, 4 a second). */
export const MAX_FULL_EVENTS_PER_POLL = 100;

/** How the trigger's filters on what the tenant changes are decided (docs/trigger.md, "New Event"). */
const AT_FIRST_READ =
	'as the trigger first reads the event (the next poll after it entered the feed); a later change never emits it';

/** Severity, as the trigger decides it. */
const severityFields: INodeProperties[] = feedSeverityFields.map((field) =>
	field.name === 'severityFilter'
		? {
				...field,
				description: `Which severities to emit, as the tenant sees them (overrides included) ${AT_FIRST_READ}`,
			}
		: field,
);

/**
 * The Filters of the trigger: the feed's, less the materialization dates (the trigger sets those),
 * those on what the tenant changes said as the trigger decides them, and two to leave out what
 * someone already acted on.
 */
const filterFields: INodeProperties = (() => {
	const feed = feedFilterFields({ materialized: false });
	const described: Record<string, string> = {
		ignored: `Whether to emit only the events marked ignored ${AT_FIRST_READ}`,
		remediated: `Whether to emit only the events marked remediated ${AT_FIRST_READ}`,
		tags: `Only events with at least one of these tags ${AT_FIRST_READ}. Separate tags with commas, or use an array from an expression.`,
	};
	const options = (feed.options as INodeProperties[]).map((option) =>
		described[option.name] ? { ...option, description: described[option.name] } : option,
	);
	options.push(
		{
			displayName: 'Leave Out Ignored Events',
			name: 'leaveOutIgnored',
			type: 'boolean',
			default: false,
			description: `Whether to leave out the events marked ignored ${AT_FIRST_READ}. Without it, the trigger emits them too, whoever ignored them.`,
		},
		{
			displayName: 'Leave Out Remediated Events',
			name: 'leaveOutRemediated',
			type: 'boolean',
			default: false,
			description: `Whether to leave out the events marked remediated ${AT_FIRST_READ}. Without it, the trigger emits them too, e.g. those another workflow remediated before this one read them.`,
		},
	);
	options.sort((a, b) => a.displayName.localeCompare(b.displayName));
	return { ...feed, options };
})();

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
		...severityFields,
		filterFields,
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

/**
 * What identifies an event's entry into the feed: a digest of its `metadata.uid` and of when it
 * entered (`matched_at`), so that keys stay short (state.ts) and an event Flare files again later is
 * a new entry (docs/trigger.md, "New Event"). Without a uid, a digest of what Flare says of the event
 * itself, not of what the tenant changes.
 */
export function eventKey(record: IDataObject): string {
	const metadata = record.metadata as IDataObject | undefined;
	const uid = metadata?.uid;
	if (typeof uid === 'string' && uid !== '') {
		const entered = instantOf(metadata?.matched_at);
		return `e:${digest(Number.isNaN(entered) ? uid : `${uid}\n${entered}`)}`;
	}
	return `d:${digest(jsonWithin({ ...record, tenant_metadata: undefined, highlights: undefined }))}`;
}

/** The key of versions before 0.1.0's re-filing rule: a digest of the uid alone. */
function legacyEventKeys(record: IDataObject): string[] {
	const uid = (record.metadata as IDataObject | undefined)?.uid;
	return typeof uid === 'string' && uid !== '' ? [`e:${digest(uid)}`] : [];
}

/**
 * The searches that together list every event of a feed: Flare's feed leaves out the events marked
 * ignored or remediated unless asked (`is_ignored`, `is_remediated`: false by default, OpenAPI v4
 * `FeedFilters`; docs/api-contract.md, "Flare Trigger"), and asked, lists only those.
 */
export const EVENT_PARTITIONS: IDataObject[] = [
	{},
	{ is_ignored: true },
	{ is_remediated: true },
	{ is_ignored: true, is_remediated: true },
];

/** What the trigger asks of the tenant's own state of an event, decided at the event's first read. */
interface TenantStateFilter {
	severity?: string | string[];
	tags?: string[];
	ignored?: 'only' | 'leaveOut';
	remediated?: 'only' | 'leaveOut';
}

/** One of Only and Leave Out for ignored (or remediated) events, or neither. */
function actedOn(item: FlareItem, only: unknown, state: 'ignored' | 'remediated') {
	const leaveOut = `filters.leaveOut${state === 'ignored' ? 'Ignored' : 'Remediated'}`;
	const leave = item.parameter<unknown>(leaveOut, false) === true;
	if (only === true && leave) {
		throw parameterError(
			item,
			leaveOut,
			`cannot be set with '${item.displayName(`filters.${state}`)}'`,
			`Choose one of the two: events marked ${state} only, or none of them.`,
		);
	}
	return only === true ? 'only' : leave ? 'leaveOut' : undefined;
}

/**
 * Whether an event passes the filters on the tenant's own state as the page shows it (`partition`:
 * what the page's search asked, in case Flare's item does not say it).
 */
function passes(filter: TenantStateFilter, record: IDataObject, partition?: IDataObject): boolean {
	const metadata = (record.metadata ?? {}) as IDataObject;
	const tenant = (record.tenant_metadata ?? {}) as IDataObject;
	const override = (tenant.severity as IDataObject | null | undefined)?.override;
	const severity = String(override ?? metadata.severity);
	if (typeof filter.severity === 'string') {
		const at = SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number]);
		if (at < SEVERITIES.indexOf(filter.severity as (typeof SEVERITIES)[number])) return false;
	} else if (filter.severity && !filter.severity.includes(severity)) return false;
	const tags = Array.isArray(tenant.tags) ? tenant.tags.map(String) : [];
	if (filter.tags && !filter.tags.some((tag) => tags.includes(tag))) return false;
	const marked = (state: 'ignored' | 'remediated') =>
		(tenant[`${state}_at`] ?? null) !== null || partition?.[`is_${state}`] === true;
	for (const state of ['ignored', 'remediated'] as const) {
		if (filter[state] === 'only' && !marked(state)) return false;
		if (filter[state] === 'leaveOut' && marked(state)) return false;
	}
	return true;
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
	// What Flare filters for good (types, creation dates) is sent; what the tenant changes later
	// (severity override, tags, remediated, ignored) is decided by the trigger at the first read.
	const { severity, tags, is_ignored, is_remediated, ...sent } = feedFilters(item) ?? {};
	const kept: TenantStateFilter = {
		...(severity !== undefined ? { severity: severity as string | string[] } : {}),
		...(tags !== undefined ? { tags: tags as string[] } : {}),
	};
	const ignored = actedOn(item, is_ignored, 'ignored');
	const remediated = actedOn(item, is_remediated, 'remediated');
	if (ignored) kept.ignored = ignored;
	if (remediated) kept.remediated = remediated;
	const filters = Object.keys(sent).length > 0 ? sent : undefined;
	const fetchFullEvent = item.parameter<unknown>('options.fetchFullEvent', false) === true;
	const search = (order: string, materialized?: IDataObject, partition?: IDataObject): IDataObject => {
		const all = { ...filters, ...partition, ...(materialized ? { materialized_at: materialized } : {}) };
		return { ...(query ? { query } : {}), ...(Object.keys(all).length ? { filters: all } : {}), order };
	};
	// A test fetch asks Flare for what it can: events marked ignored (or remediated) only, and (below) the severity and tags.
	const newestPartition = {
		...(ignored === 'only' ? { is_ignored: true } : {}),
		...(remediated === 'only' ? { is_remediated: true } : {}),
	};
	// It shows a sample: Flare is also asked for the severity and tags as the tenant sees them now,
	// so that a rare match is not behind pages of others; each is then judged as a poll would.
	const sample = {
		...newestPartition,
		...(severity !== undefined ? { severity } : {}),
		...(tags !== undefined ? { tags } : {}),
	};
	const filtered = Object.keys(kept).length > 0;
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
		asked: { identifierId, groupId, query, filters, kept: filtered ? kept : undefined },
		partitions: EVENT_PARTITIONS,
		body: (gte, part = 0) => search('asc', { gte }, EVENT_PARTITIONS[part]),
		accepts: filtered ? (record, partition) => passes(kept, record, partition) : undefined,
		newest: search('desc', undefined, sample),
		newestPartition,
		keyOf: eventKey,
		legacyKeysOf: legacyEventKeys,
		arrivedAt: (record) => (record.metadata as IDataObject | undefined)?.matched_at,
		pageSize: feedPaging.maxPageSize,
		maxRecords: fetchFullEvent ? MAX_FULL_EVENTS_PER_POLL : MAX_RECORDS_PER_POLL,
		outputRequestsPerRecord: fetchFullEvent ? 1 : 0,
		output: async (record) => (fetchFullEvent ? await withFullEvent(item, record) : record),
	};
}
