import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { searchDescription, searchOperation } from './search';

export const leakedCookieDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with leaked cookies',
		displayOptions: { show: { resource: ['leakedCookie'] } },
		options: [
			{
				name: 'Search',
				value: 'search',
				action: 'Search leaked cookies of a domain',
				description:
					'Find the session cookies of a domain that malware stole, to invalidate them (ASTP)',
			},
		],
		default: 'search',
	},
	...searchDescription,
];

export const leakedCookieOperations: Record<string, FlareOperation> = {
	search: searchOperation,
};
