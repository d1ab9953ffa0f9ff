import {
	NodeConnectionTypes,
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
import { FlareItem } from '../Flare/shared/item';
import { callFlare } from '../Flare/shared/runner';
import { newCredentials } from './poll';

/** How many of the newest matches a manual "fetch test event" returns. */
export const SAMPLE_SIZE = 5;

/** Manual "fetch test event": the newest few matches, newest first. Reads and writes no state. */
async function newestMatches(
	context: IPollFunctions,
	item: FlareItem,
	properties: INodeProperties[],
	query: IDataObject,
): Promise<INodeExecutionData[][]> {
	const items: IDataObject[] = [];
	const newest = {
		...searchOperation,
		properties,
		prepare: (_: FlareItem, request: { body?: IDataObject }) =>
			(request.body = { query, order: 'desc' }),
	};
	await callFlare(item, newest, {
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
