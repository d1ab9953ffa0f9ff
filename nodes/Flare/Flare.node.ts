import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { astpUrlDescription } from './resources/astpUrl';
import { eventDescription } from './resources/event';
import { identifierDescription } from './resources/identifier';
import { identityDescription } from './resources/identity';
import { leakedCredentialDescription } from './resources/leakedCredential';
import { matchingPolicyDescription } from './resources/matchingPolicy';
import { sourceDescription } from './resources/source';
import { threatReportDescription } from './resources/threatReport';

export class Flare implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Flare',
		name: 'flare',
		icon: { light: 'file:../../icons/flare.svg', dark: 'file:../../icons/flare.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Search leaked credentials and threat intelligence with the Flare API',
		defaults: { name: 'Flare' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'flareApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'ASTP URL', value: 'astpUrl', description: 'URLs where a leaked credential was seen used' },
					{ name: 'Event', value: 'event', description: 'Events collected by Flare, such as blog posts' },
					{ name: 'Identifier', value: 'identifier', description: 'What Flare monitors for you: domains, keywords, identities' },
					{ name: 'Identity', value: 'identity', description: 'Leaked identities and their passwords' },
					{ name: 'Leaked Credential', value: 'leakedCredential', description: 'Credentials found in leaks and stealer logs' },
					{ name: 'Matching Policy', value: 'matchingPolicy', description: 'Keyword lists that refine what identifiers match' },
					{ name: 'Source', value: 'source', description: 'Where leaked credentials come from' },
					{ name: 'Threat Report', value: 'threatReport', description: 'Threat intelligence reports' },
				],
				default: 'leakedCredential',
			},
			...astpUrlDescription,
			...eventDescription,
			...identifierDescription,
			...identityDescription,
			...leakedCredentialDescription,
			...matchingPolicyDescription,
			...sourceDescription,
			...threatReportDescription,
		],
	};
}
