import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOptions, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { requiredText } from '../../shared/validation';

const fields: INodeProperties[] = [
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. leak/leak_site/1010073',
		description:
			'UID of the event, of the form type/source/ID (e.g. the metadata.uid of a feed search)',
	},
	leakedValueOptions,
];

export const getFullEventDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['getFullEvent'] } },
	fields,
);

/**
 * The activity of an answer: Flare wraps it in `activity` for some event types and not for others
 * (docs/feed-endpoints.md §4); the output item is the activity itself either way.
 */
function activityOf(body: unknown): IDataObject[] {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
	const { activity } = body as IDataObject;
	return [
		activity && typeof activity === 'object' && !Array.isArray(activity)
			? (activity as IDataObject)
			: (body as IDataObject),
	];
}

export const getFullEventOperation: FlareOperation = {
	action: 'get the full event',
	method: 'GET',
	path: '/{segment}/v2/activities/',
	tier: 'basic',
	properties: fields,
	apiFields: { uid: 'uid' },
	target: (item) => `Event '${String(item.parameter('uid', ''))}'`,
	prepare(item, request) {
		request.qs = { uid: requiredText(item, 'uid') };
	},
	output: (_item, _records, response) => activityOf(response.body),
};
