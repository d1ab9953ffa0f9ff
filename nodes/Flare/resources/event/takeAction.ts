import type { INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { optionValue, requiredText } from '../../shared/validation';

const ACTIONS = ['remediate', 'unremediate', 'ignore', 'unignore'] as const;

/** Most events Flare takes in one request. */
const MAX_TARGETS = 10;

const fields: INodeProperties[] = [
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. leak/leak_site/1010073',
		description:
			'UID of the event, one per input item (e.g. the metadata.uid of a feed search). Up to 10 items go to Flare in one request.',
	},
	{
		displayName: 'Action',
		name: 'actionType',
		type: 'options',
		default: 'remediate',
		description:
			'What to mark the event as, for the tenant. On a leaked credential event, Flare marks the credential pair in the credentials browser too.',
		options: [
			{
				name: 'Ignore',
				value: 'ignore',
				description:
					'Mark as ignored. On a leaked credential event, Flare ignores every credential pair of the same e-mail address or username.',
			},
			{
				name: 'Remediate',
				value: 'remediate',
				description:
					'Mark as remediated. On a leaked credential event, Flare also remediates future credentials with the same username and password.',
			},
			{ name: 'Unignore', value: 'unignore', description: 'Clear the ignored mark' },
			{ name: 'Unremediate', value: 'unremediate', description: 'Clear the remediated mark' },
		],
	},
];

export const takeActionDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['takeAction'] } },
	fields,
);

const actionOf = (item: FlareItem) => optionValue(item, 'actionType', ACTIONS, 'remediate');

export const takeActionOperation: FlareOperation = {
	action: 'take an action on events',
	method: 'POST',
	path: '/{segment}/v4/events/actions',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	batch: {
		size: MAX_TARGETS,
		target: (item) => ({ uid: requiredText(item, 'uid') }),
		shared: (item) => ({ action: { type: actionOf(item) } }),
	},
	properties: fields,
	apiFields: { targets: 'uid', uid: 'uid', action: 'actionType', type: 'actionType' },
	// Each item's own event, in its errors; a request carries up to 10 of them.
	target: (item) => `Event '${String(item.parameter('uid', '')).trim()}'`,
	output: (item, [target]) => [{ uid: target.uid, action: actionOf(item), done: true }],
};
