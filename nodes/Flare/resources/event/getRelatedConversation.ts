import type { INodeProperties } from 'n8n-workflow';

import { leakedValueOutput, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { recordOfAnswer, type FlareOperation } from '../../shared/operation';
import { booleanValue, optionValue, requiredText } from '../../shared/validation';

/** Most messages one request asks for (a decision: Flare documents 10 by default and no maximum). */
const MAX_MESSAGES = 100;

const fields: INodeProperties[] = [
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. chat_message/telegram/1010077',
		description:
			'UID of a chat event, e.g. the metadata.uid of a feed search: the messages around it are returned',
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		default: 'next',
		description: 'Which messages of the conversation to return, from the event',
		options: [
			{ name: 'Next', value: 'next', description: 'The messages after the event' },
			{ name: 'Previous', value: 'previous', description: 'The messages before the event' },
		],
	},
	{
		displayName: 'Messages',
		name: 'messages',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_MESSAGES },
		default: 10,
		description: `How many messages to return, at most ${MAX_MESSAGES}`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Translation and output settings',
		options: [
			leakedValueOutput,
			{
				displayName: 'Translate',
				name: 'shouldTranslate',
				type: 'boolean',
				default: false,
				description:
					'Whether Flare also gives each message, and the conversation name, in English (message_en, conversation_name_en)',
			},
		],
	},
];

export const getRelatedConversationDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['getRelatedConversation'] } },
	fields,
);

/** Messages asked for: a whole number from 1 to {@link MAX_MESSAGES}. */
function messagesOf(item: FlareItem): number {
	const value = item.parameter<unknown>('messages', 10);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MESSAGES) {
		throw parameterError(
			item,
			'messages',
			`must be a whole number from 1 to ${MAX_MESSAGES}, not ${JSON.stringify(value) ?? String(value)}`,
		);
	}
	return value;
}

/**
 * The messages around a chat event (`POST /{segment}/v4/threat_flow/unit_summary/related_conversation`,
 * v4 OpenAPI `RelatedConversationRequest {uid, direction, size, search_after, should_translate}`):
 * one item, the conversation as Flare answers it (`conversation_name`, `conversation_messages`,
 * `next`, `previous`), its messages masked as free text. The node does not take Flare's cursors
 * (`search_after`): Flare alone can tell a valid one, so a wrong one would be sent unchecked; up to
 * 100 messages on each side of the event are read in one request.
 */
export const getRelatedConversationOperation: FlareOperation = {
	action: 'get the conversation of the event',
	method: 'POST',
	path: '/{segment}/v4/threat_flow/unit_summary/related_conversation',
	tier: 'basic',
	properties: fields,
	apiFields: {
		uid: 'uid',
		direction: 'direction',
		size: 'messages',
		should_translate: 'options.shouldTranslate',
	},
	target: (item) => `Event '${String(item.parameter('uid', ''))}'`,
	prepare(item, request) {
		request.body = {
			uid: requiredText(item, 'uid'),
			direction: optionValue(item, 'direction', ['next', 'previous'], 'next'),
			size: messagesOf(item),
			should_translate: booleanValue(item, 'options.shouldTranslate'),
		};
	},
	output: (_item, _records, response) =>
		recordOfAnswer(response, ['conversation_messages', 'conversation_name'], 'a conversation'),
};
