import type { INodeProperties } from 'n8n-workflow';

import { leakedValueOptions, notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { requiredText } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice('eventBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. blog_post/darkforum/4242',
		description: 'UID of the event, of the form index/source/ID',
	},
	leakedValueOptions,
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['get'] } },
	fields,
);

export const getOperation: FlareOperation = {
	action: 'get the event',
	method: 'GET',
	path: '/{segment}/v4/events/',
	tier: 'basic',
	properties: fields,
	apiFields: { uid: 'uid' },
	target: (item) => `Event '${String(item.parameter('uid', ''))}'`,
	prepare(item, request) {
		request.qs = { uid: requiredText(item, 'uid') };
	},
	output: (_item, records) => records,
};
