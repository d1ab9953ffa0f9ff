import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { expandStealerLogDescription, expandStealerLogOperation } from './expandStealerLog';
import { getDescription, getOperation } from './get';
import { getAiExplanationDescription, getAiExplanationOperation } from './getAiExplanation';
import { getFullEventDescription, getFullEventOperation } from './getFullEvent';
import {
	getRelatedConversationDescription,
	getRelatedConversationOperation,
} from './getRelatedConversation';
import { searchGlobalDescription, searchGlobalOperation } from './searchGlobal';
import {
	searchIdentifierFeedDescription,
	searchIdentifierFeedOperation,
} from './searchIdentifierFeed';
import {
	searchIdentifierGroupFeedDescription,
	searchIdentifierGroupFeedOperation,
} from './searchIdentifierGroupFeed';
import { searchTenantFeedDescription, searchTenantFeedOperation } from './searchTenantFeed';
import { takeActionDescription, takeActionOperation } from './takeAction';
import {
	updateTenantMetadataDescription,
	updateTenantMetadataOperation,
} from './updateTenantMetadata';

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
				name: 'Expand Stealer Log',
				value: 'expandStealerLog',
				action: 'List the cookies or credentials of a stealer log',
				description:
					'List the cookies or the saved logins that a stealer log holds, one item each (beta)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a blog post or other event by UID',
				description: 'Get one event, such as a blog post, by its UID (beta)',
			},
			{
				name: 'Get AI Explanation',
				value: 'getAiExplanation',
				action: 'Get the AI explanation of an event',
				description:
					"Get Flare's AI explanation of an event, e.g. for the ticket of an analyst; the text is masked as any free text",
			},
			{
				name: 'Get Full Event',
				value: 'getFullEvent',
				action: 'Get the full event by UID',
				description:
					'Get everything Flare knows of an event: its content, source, risk and history',
			},
			{
				name: 'Get Related Conversation',
				value: 'getRelatedConversation',
				action: 'Get the conversation around a chat event',
				description:
					'Get the chat messages before or after an event (e.g. a Telegram hit), optionally translated; the messages are masked as any free text',
			},
			{
				name: 'Search All of Flare',
				value: 'searchGlobal',
				action: 'Search all events',
				description:
					"Search every event Flare collected, beyond the tenant's identifiers (global search quota)",
			},
			{
				name: 'Search Identifier Feed',
				value: 'searchIdentifierFeed',
				action: 'Search the event feed of an identifier',
				description: 'Search the events that matched one identifier, with the same filters',
			},
			{
				name: 'Search Identifier Group Feed',
				value: 'searchIdentifierGroupFeed',
				action: 'Search the event feed of an identifier group',
				description:
					'Search the events that matched the identifiers of one group, e.g. one brand or subsidiary',
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
				description:
					'Mark events remediated or ignored, or clear those marks; changes data in Flare',
			},
			{
				name: 'Update Tenant Metadata',
				value: 'updateTenantMetadata',
				action: 'Change data by updating the tenant metadata of an event',
				description:
					"Set the tenant's tags, severity override or notes of an event, e.g. to tag it handled; changes data in Flare",
			},
		],
		default: 'get',
	},
	...expandStealerLogDescription,
	...getDescription,
	...getAiExplanationDescription,
	...getFullEventDescription,
	...getRelatedConversationDescription,
	...searchGlobalDescription,
	...searchIdentifierFeedDescription,
	...searchIdentifierGroupFeedDescription,
	...searchTenantFeedDescription,
	...takeActionDescription,
	...updateTenantMetadataDescription,
];

export const eventOperations: Record<string, FlareOperation> = {
	expandStealerLog: expandStealerLogOperation,
	get: getOperation,
	getAiExplanation: getAiExplanationOperation,
	getFullEvent: getFullEventOperation,
	getRelatedConversation: getRelatedConversationOperation,
	searchGlobal: searchGlobalOperation,
	searchIdentifierFeed: searchIdentifierFeedOperation,
	searchIdentifierGroupFeed: searchIdentifierGroupFeedOperation,
	searchTenantFeed: searchTenantFeedOperation,
	takeAction: takeActionOperation,
	updateTenantMetadata: updateTenantMetadataOperation,
};
