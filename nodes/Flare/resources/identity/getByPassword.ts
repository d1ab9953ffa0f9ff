import type { INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import { requiredText } from '../../shared/validation';
import { identityLookup, identityLookupFields } from './lookup';

const fields: INodeProperties[] = [
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		placeholder: 'e.g. Summer2024!',
		description: 'Leaked password to look up. It is sent to Flare as typed.',
	},
	...identityLookupFields,
];

export const getByPasswordDescription = updateDisplayOptions(
	{ show: { resource: ['identity'], operation: ['getByPassword'] } },
	fields,
);

export const getByPasswordOperation = identityLookup({
	action: 'look up identities by password',
	path: '/leaksdb/identities/by_password/{password}',
	properties: fields,
	apiFields: { password: 'password' },
	prepare(item, request) {
		request.pathParameters.password = requiredText(item, 'password', true);
	},
});
