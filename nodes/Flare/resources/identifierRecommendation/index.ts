import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { acceptDescription, acceptOperation } from './accept';
import { getAllDescription, getAllOperation } from './getAll';
import { rejectDescription, rejectOperation } from './reject';

export const identifierRecommendationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with identifier recommendations',
		displayOptions: { show: { resource: ['identifierRecommendation'] } },
		options: [
			{
				name: 'Accept',
				value: 'accept',
				action: 'Change data by accepting identifier recommendations',
				description:
					'Accept recommendations, so that Flare monitors what they recommend; up to 100 a request; changes data in Flare',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many identifier recommendations',
				description:
					'List the domains, Azure tenants, e-mail addresses and usernames Flare recommends monitoring, e.g. at onboarding',
			},
			{
				name: 'Reject',
				value: 'reject',
				action: 'Change data by rejecting identifier recommendations',
				description: 'Reject recommendations; up to 100 a request; changes data in Flare',
			},
		],
		default: 'getAll',
	},
	...acceptDescription,
	...getAllDescription,
	...rejectDescription,
];

export const identifierRecommendationOperations: Record<string, FlareOperation> = {
	accept: acceptOperation,
	getAll: getAllOperation,
	reject: rejectOperation,
};
