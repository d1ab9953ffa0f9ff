import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { searchDescription, searchOperation } from './search';

const showOnlyForLeakedCredentials = { resource: ['leakedCredential'] };

export const leakedCredentialDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with leaked credentials',
		displayOptions: { show: showOnlyForLeakedCredentials },
		options: [
			{
				name: 'Search',
				value: 'search',
				action: 'Search leaked credentials by domain or identity',
				description:
					'Search all leaked credentials known to Flare by domain, e-mail, username or password',
			},
		],
		default: 'search',
	},
	...searchDescription,
];

export const leakedCredentialOperations: Record<string, FlareOperation> = {
	search: searchOperation,
};
