import type { INodeProperties } from 'n8n-workflow';

import { leakedValueOptions, notice, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { recordUnder, type FlareOperation } from '../../shared/operation';
import { requiredText } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'aiExplanationNotice',
		"The prompt and the response are masked as free text: a leaked password the prompt quotes (e.g. 'Password: …') is masked also where the response repeats it, but one that Flare's model states only in its own words cannot be recognised.",
	),
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. leak/leak_site/1010073',
		description:
			'UID of the event, of the form type/source/ID (e.g. the metadata.uid of a feed search or of the Flare Trigger)',
	},
	leakedValueOptions,
];

export const getAiExplanationDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['getAiExplanation'] } },
	fields,
);

/**
 * The event's UID, checked: Flare's path takes it as `{index}/{source}/{id}`, the ID keeping any
 * slashes of its own (docs/api-contract.md, "Response and onboarding endpoints").
 */
export function eventUid(item: FlareItem, name: string): string {
	const uid = requiredText(item, name);
	const parts = uid.split('/');
	if (
		parts.length < 3 ||
		parts.some((part) => part.trim() === '' || part === '.' || part === '..')
	) {
		throw parameterError(
			item,
			name,
			`is not an event UID: "${uid.slice(0, 100)}"`,
			'Enter the UID of the form type/source/ID, e.g. leak/leak_site/1010073 (the metadata.uid of a feed item).',
		);
	}
	return uid;
}

/**
 * Flare's AI explanation of an event (`GET /{segment}/v2/activities/{index}/{source}/{id}/ai_assistance`):
 * one item `{uid, prompt, response}`, whose prompt and response are free text, masked as any.
 */
export const getAiExplanationOperation: FlareOperation = {
	action: 'get the AI explanation of the event',
	method: 'GET',
	path: '/{segment}/v2/activities/{+uid}/ai_assistance',
	tier: 'basic',
	properties: fields,
	apiFields: { uid: 'uid', index: 'uid', source: 'uid', id: 'uid' },
	target: (item) => `Event '${String(item.parameter('uid', '')).trim()}'`,
	prepare(item, request) {
		request.pathParameters.uid = eventUid(item, 'uid');
	},
	output: (_item, _records, response) =>
		recordUnder(response, 'activity_ai_assistance', "an event's AI explanation"),
};
