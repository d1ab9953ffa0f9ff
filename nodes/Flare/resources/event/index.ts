import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getDescription, getOperation } from './get';
import { getFullEventDescription, getFullEventOperation } from './getFullEvent';
import {
	searchIdentifierFeedDescription,
	searchIdentifierFeedOperation,
} from './searchIdentifierFeed';
import { searchTenantFeedDescription, searchTenantFeedOperation } from './searchTenantFeed';
import { takeActionDescription, takeActionOperation } from './takeAction';

export const eventDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with events',
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a blog post or other event by UID',
				description: 'Get one event, such as a blog post, by its UID (beta)',
			},
			{
				name: 'Get Full Event',
				value: 'getFullEvent',
				action: 'Get the full event by UID',
				description:
					'Get everything Flare knows of an event: its content, source, risk and history',
			},
			{
				name: 'Search Identifier Feed',
				value: 'searchIdentifierFeed',
				action: 'Search the event feed of an identifier',
				description: 'Search the events that matched one identifier, with the same filters',
			},
			{
				name: 'Search Tenant Feed',
				value: 'searchTenantFeed',
				action: 'Search the tenant event feed',
				description:
					"Search the events that matched the tenant's identifiers, by query, severity, type or date",
			},
			{
				name: 'Take Action',
				value: 'takeAction',
				action: 'Change data by remediating or ignoring an event',
				description: 'Mark events remediated or ignored, or clear those marks; changes data in Flare',
			},
		],
		default: 'get',
	},
	...getDescription,
	...getFullEventDescription,
	...searchIdentifierFeedDescription,
	...searchTenantFeedDescription,
	...takeActionDescription,
];

export const eventOperations: Record<string, FlareOperation> = {
	get: getOperation,
	getFullEvent: getFullEventOperation,
	searchIdentifierFeed: searchIdentifierFeedOperation,
	searchTenantFeed: searchTenantFeedOperation,
	takeAction: takeActionOperation,
};
