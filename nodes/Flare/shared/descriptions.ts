import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Adds `displayOptions` to properties, merging with each property's own conditions (so that, for
 * example, Limit keeps its `returnAll: [false]`).
 */
export function updateDisplayOptions(
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...displayOptions.show, ...property.displayOptions?.show },
			...(displayOptions.hide || property.displayOptions?.hide
				? { hide: { ...displayOptions.hide, ...property.displayOptions?.hide } }
				: {}),
		},
	}));
}

/** Return All and Limit, for operations that page. Limit is enforced across pages by the paginator. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { returnAll: [false] } },
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
];

export const simplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

export const leakedValueOutput: INodeProperties = {
	displayName: 'Leaked Value Output',
	name: 'leakedValueOutput',
	type: 'options',
	default: 'masked',
	description:
		'How leaked passwords and hashes appear in the output. Execution data is stored by n8n and visible to everyone who can open the workflow, so Masked is the safe choice.',
	options: [
		{ name: 'Full', value: 'full', description: 'The leaked value as Flare returns it' },
		{
			name: 'Masked',
			value: 'masked',
			description: 'Only the first and last characters, e.g. S*********!',
		},
		{ name: 'Omit', value: 'omit', description: 'Leave the leaked value out' },
		{
			name: 'SHA-256',
			value: 'sha256',
			description: 'The SHA-256 hex digest of the leaked value, to compare without revealing it',
		},
	],
};

/** A form notice; the name must be unique per operation. */
export function notice(name: string, displayName: string): INodeProperties {
	return { displayName, name, type: 'notice', default: '' };
}

/** Request settings shared by every operation, named as in n8n's own HTTP-based nodes. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Settings of the HTTP requests sent to Flare',
	options: [
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 120000,
			description:
				'Time in milliseconds to wait for each answer from Flare. A read that times out is retried; a write is not, since Flare may have applied it.',
		},
	],
};
