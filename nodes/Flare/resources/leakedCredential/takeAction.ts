import type { INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { credentialHash, optionValue } from '../../shared/validation';

const ACTIONS = ['remediate', 'unremediate', 'ignore', 'unignore'] as const;

/** Most credentials Flare takes in one request. */
const MAX_TARGETS = 100;

const fields: INodeProperties[] = [
	{
		displayName: 'Credential Hash',
		name: 'credentialHash',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 43804850e72d054f3648660557330630',
		description:
			'The credential_hash of a leaked credential, one per input item (e.g. from Get Tenant Feed or Search). Up to 100 items go to Flare in one request.',
	},
	{
		displayName: 'Action',
		name: 'actionType',
		type: 'options',
		default: 'remediate',
		description: 'What to mark the credential as, for the tenant',
		options: [
			{
				name: 'Ignore',
				value: 'ignore',
				description:
					'Mark as ignored (a false positive, or not a concern). Flare ignores every credential pair of the same e-mail address or username.',
			},
			{
				name: 'Remediate',
				value: 'remediate',
				description:
					'Mark as remediated (e.g. the password was reset). Flare also remediates future credentials with the same username and password.',
			},
			{ name: 'Unignore', value: 'unignore', description: 'Clear the ignored mark' },
			{ name: 'Unremediate', value: 'unremediate', description: 'Clear the remediated mark' },
		],
	},
];

export const takeActionDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCredential'], operation: ['takeAction'] } },
	fields,
);

const actionOf = (item: FlareItem) => optionValue(item, 'actionType', ACTIONS, 'remediate');

export const takeActionOperation: FlareOperation = {
	action: 'take an action on leaked credentials',
	method: 'POST',
	path: '/{segment}/v4/credentials/actions',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	batch: {
		size: MAX_TARGETS,
		target: (item) => ({ credential_hash: credentialHash(item, 'credentialHash') }),
		shared: (item) => ({ action: { type: actionOf(item) } }),
	},
	properties: fields,
	apiFields: {
		targets: 'credentialHash',
		credential_hash: 'credentialHash',
		action: 'actionType',
		type: 'actionType',
	},
	// Each item's own credential, in its errors; a request carries up to 100 of them.
	target: (item) =>
		`Credential '${String(item.parameter('credentialHash', '')).trim().toLowerCase()}'`,
	output: (item, [target]) => [
		{ credential_hash: target.credential_hash, action: actionOf(item), done: true },
	],
};
