import {
	NodeConnectionTypes,
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import {
	queryFields,
	searchOperation,
	searchQuery,
} from '../Flare/resources/leakedCredential/search';
import { leakedValueOutput, notice, requestOptions, simplify } from '../Flare/shared/descriptions';
import { parameterError } from '../Flare/shared/errors';
import { FlareItem } from '../Flare/shared/item';
import type { FlareOperation } from '../Flare/shared/operation';
import { asNodeError, callFlare } from '../Flare/shared/runner';
import {
	NewCredentials,
	queryFingerprint,
	readState,
	writeState,
	type TriggerState,
} from './state';

/** Page size of a poll's walk: the largest Flare allows, since every page costs a global search. */
export const POLL_PAGE_SIZE = 10_000;
/** How many of the newest matches a manual "fetch test event" returns. */
export const SAMPLE_SIZE = 5;
/** Poll time budget when n8n does not say (n8n's own default). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/** Share of the budget spent fetching pages; the rest is left for shaping and emitting the items. */
const BUDGET_SHARE = 0.8;

const HOUR_MS = 3_600_000;
const BACKFILL_MS: Record<string, number> = {
	none: 0,
	last24Hours: 24 * HOUR_MS,
	last7Days: 7 * 24 * HOUR_MS,
	last30Days: 30 * 24 * HOUR_MS,
};

type SearchWalk = { items: IDataObject[]; state: TriggerState };

/** The global search with the trigger's form, sending `body` (the query, its filters and order). */
function searchFor(properties: INodeProperties[], body: IDataObject): FlareOperation {
	return { ...searchOperation, properties, prepare: (_item, request) => (request.body = body) };
}

/** Manual "fetch test event": the newest few matches, newest first. Reads and writes no state. */
async function newestMatches(
	context: IPollFunctions,
	item: FlareItem,
	properties: INodeProperties[],
	query: IDataObject,
): Promise<INodeExecutionData[][]> {
	const items: IDataObject[] = [];
	await callFlare(item, searchFor(properties, { query, order: 'desc' }), {
		pageSize: SAMPLE_SIZE,
		onPage(records, response) {
			items.push(...searchOperation.output(item, records, response));
			return items.length < SAMPLE_SIZE;
		},
	});
	if (items.length === 0) {
		throw new NodeOperationError(context.getNode(), 'No leaked credential matches this query yet', {
			description:
				'Once active, the trigger starts the workflow when Flare imports a matching credential. To see sample data now, try a broader query, e.g. a domain.',
		});
	}
	return [context.helpers.returnJsonArray(items.slice(0, SAMPLE_SIZE))];
}

/** Where a first activation starts: now, or the start of the chosen backfill window. */
function startingPoint(item: FlareItem, now: number): { watermark: string; backfill: boolean } {
	const choice = item.parameter<string>('options.backfill', 'none');
	const window = BACKFILL_MS[choice];
	if (window === undefined)
		throw parameterError(item, 'options.backfill', `has an unknown value: "${choice}"`);
	return { watermark: new Date(now - window).toISOString(), backfill: window > 0 };
}

/**
 * One walk of the global search, ascending from `gte` (or resumed at `from`), keeping only credentials
 * not emitted before. Before each further page, it checks that the page still fits in the time left;
 * if not, it stops and records where to resume.
 */
async function walkNewCredentials(
	item: FlareItem,
	properties: INodeProperties[],
	query: IDataObject,
	state: TriggerState,
	walk: { gte: string; from?: string; deadline: number },
): Promise<SearchWalk> {
	const credentials = new NewCredentials(state);
	const items: IDataObject[] = [];
	let pageEnd = Date.now();
	let slowestPage = 0;
	const body = { query, filters: { imported_at: { gte: walk.gte } }, order: 'asc' };
	const end = await callFlare(item, searchFor(properties, body), {
		pageSize: POLL_PAGE_SIZE,
		from: walk.from,
		onPage(records, response) {
			const now = Date.now();
			slowestPage = Math.max(slowestPage, now - pageEnd);
			pageEnd = now;
			items.push(...searchOperation.output(item, credentials.take(records), response));
			return now + slowestPage < walk.deadline;
		},
	});
	const next = credentials.next();
	if (end.next !== undefined) {
		next.resume = { gte: walk.gte, from: String(end.next), query: queryFingerprint(query) };
	}
	return { items, state: next };
}

/** A stored cursor that Flare no longer accepts: the walk restarts from the watermark. */
function isStaleCursor(error: unknown): boolean {
	return error instanceof NodeApiError && ['400', '422'].includes(error.httpCode ?? '');
}

/** An active poll: emits each matching credential once, and moves the state only when it succeeds. */
async function newCredentials(
	context: IPollFunctions,
	item: FlareItem,
	properties: INodeProperties[],
	query: IDataObject,
	startedAt: number,
): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	let state = readState(staticData);
	if (!state) {
		const start = startingPoint(item, startedAt);
		state = { watermark: start.watermark, idsAtWatermark: [] };
		if (!start.backfill) {
			writeState(staticData, state);
			return null;
		}
	}
	const budget =
		typeof context.getPollBudgetMs === 'function'
			? context.getPollBudgetMs()
			: DEFAULT_POLL_BUDGET_MS;
	const deadline = startedAt + budget * BUDGET_SHARE;
	const { resume } = state;
	let result: SearchWalk;
	if (resume && resume.query === queryFingerprint(query)) {
		try {
			result = await walkNewCredentials(item, properties, query, state, {
				gte: resume.gte,
				from: resume.from,
				deadline,
			});
		} catch (error) {
			if (!isStaleCursor(error)) throw asNodeError(item, searchOperation, error);
			result = await walkNewCredentials(item, properties, query, state, {
				gte: state.watermark,
				deadline,
			});
		}
	} else {
		result = await walkNewCredentials(item, properties, query, state, {
			gte: state.watermark,
			deadline,
		});
	}
	writeState(staticData, result.state);
	return result.items.length > 0 ? [context.helpers.returnJsonArray(result.items)] : null;
}

/** The trigger's form; messages name its fields by these display names. */
const properties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newLeakedCredential',
		description: 'What starts the workflow',
		options: [
			{
				name: 'New Leaked Credential',
				value: 'newLeakedCredential',
				description: 'Flare imported a leaked credential that matches the query',
			},
		],
	},
	notice(
		'triggerQuotaNotice',
		"Every poll runs at least one global search, which counts toward your organization's global search quota: polling every minute uses about 43,000 searches a month. Each credential is emitted once, as one item.",
	),
	...queryFields,
	simplify,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Backfill',
				name: 'backfill',
				type: 'options',
				default: 'none',
				description:
					'On first activation, also emit the matching credentials imported in this past window. Later polls emit only what is new.',
				options: [
					{ name: 'None', value: 'none', description: 'Start from the time of activation' },
					{ name: 'Last 24 Hours', value: 'last24Hours' },
					{ name: 'Last 7 Days', value: 'last7Days' },
					{ name: 'Last 30 Days', value: 'last30Days' },
				],
			},
			leakedValueOutput,
		],
	},
	requestOptions,
];

export class FlareTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Flare Trigger',
		name: 'flareTrigger',
		icon: { light: 'file:../../icons/flare.svg', dark: 'file:../../icons/flare.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"New leaked credential by " + $parameter["queryType"]}}',
		description: 'Starts the workflow when Flare imports a leaked credential that matches a query',
		defaults: { name: 'Flare Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'flareApi', required: true }],
		properties,
	};

	/**
	 * Active polls walk the global search in ascending import order from the stored watermark and emit
	 * every matching credential once; a manual "fetch test event" returns the newest few and changes
	 * nothing. A failed poll throws and leaves the stored state as it was.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const startedAt = Date.now();
		const item = FlareItem.ofNode(this, properties);
		const query = searchQuery(item);
		if (this.getMode() === 'manual') return await newestMatches(this, item, properties, query);
		return await newCredentials(this, item, properties, query, startedAt);
	}
}
