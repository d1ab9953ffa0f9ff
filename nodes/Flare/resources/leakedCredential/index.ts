import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { getIdentifierFeedDescription, getIdentifierFeedOperation } from './getIdentifierFeed';
import { getTenantFeedDescription, getTenantFeedOperation } from './getTenantFeed';
import { searchDescription, searchOperation } from './search';
import { searchAstpDescription, searchAstpOperation } from './searchAstp';
import { takeActionDescription, takeActionOperation } from './takeAction';

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
				name: 'Get Identifier Feed',
				value: 'getIdentifierFeed',
				action: 'Get the leaked credentials of an identifier',
				description:
					'List the leaked credentials that match one identifier (e.g. one brand or domain), with their remediated and ignored states (no quota)',
			},
			{
				name: 'Get Tenant Feed',
				value: 'getTenantFeed',
				action: 'Get the tenant feed of leaked credentials',
				description:
					"List the leaked credentials that match the identifiers of the credential's tenant, with their remediated and ignored states (no quota)",
			},
			{
				name: 'Search',
				value: 'search',
				action: 'Search leaked credentials by domain or identity',
				description:
					'Search all leaked credentials known to Flare by domain, e-mail, username or password',
			},
			{
				name: 'Search ASTP',
				value: 'searchAstp',
				action: 'Search leaked credentials by domain or identity with ASTP',
				description:
					'Search leaked credentials by domain, e-mail, username or password through ASTP, without the global search quota',
			},
			{
				name: 'Take Action',
				value: 'takeAction',
				action: 'Change data by remediating or ignoring leaked credentials',
				description:
					'Mark leaked credentials as remediated or ignored, or clear those marks, by credential hash; changes data in Flare',
			},
		],
		default: 'search',
	},
	...getIdentifierFeedDescription,
	...getTenantFeedDescription,
	...searchDescription,
	...searchAstpDescription,
	...takeActionDescription,
];

export const leakedCredentialOperations: Record<string, FlareOperation> = {
	getIdentifierFeed: getIdentifierFeedOperation,
	getTenantFeed: getTenantFeedOperation,
	search: searchOperation,
	searchAstp: searchAstpOperation,
	takeAction: takeActionOperation,
};
