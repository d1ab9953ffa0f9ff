import type { INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import { wildcardKeyword } from '../../shared/validation';
import { identityLookup, identityLookupFields } from './lookup';

const fields: INodeProperties[] = [
	{
		displayName: 'Keyword',
		name: 'keyword',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. john.doe* or *@example.com',
		description:
			'Identity to look up, case-insensitive. A * may stand only at the start (any identity ending with the rest) or only at the end (any identity starting with the rest).',
	},
	...identityLookupFields,
];

export const getByKeywordDescription = updateDisplayOptions(
	{ show: { resource: ['identity'], operation: ['getByKeyword'] } },
	fields,
);

export const getByKeywordOperation = identityLookup({
	action: 'look up identities by keyword',
	path: '/leaksdb/identities/by_keyword/{keyword}',
	properties: fields,
	apiFields: { keyword: 'keyword' },
	prepare(item, request) {
		request.pathParameters.keyword = wildcardKeyword(item, 'keyword');
	},
});
