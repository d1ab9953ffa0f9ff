/**
 * The Flare node: every resource and operation of resources/ (each a form and a request), run by
 * shared/runner.ts; its pickers (methods/); usable as an AI Agent's tool.
 */
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';
import { alertChannelDescription, alertChannelOperations } from './resources/alertChannel';
import { alertRuleDescription, alertRuleOperations } from './resources/alertRule';
import { astpUrlDescription, astpUrlOperations } from './resources/astpUrl';
import { eventDescription, eventOperations } from './resources/event';
import { identifierDescription, identifierOperations } from './resources/identifier';
import { identifierGroupDescription, identifierGroupOperations } from './resources/identifierGroup';
import {
	identifierRecommendationDescription,
	identifierRecommendationOperations,
} from './resources/identifierRecommendation';
import { identityDescription, identityOperations } from './resources/identity';
import { leakedCookieDescription, leakedCookieOperations } from './resources/leakedCookie';
import {
	leakedCredentialDescription,
	leakedCredentialOperations,
} from './resources/leakedCredential';
import { matchingPolicyDescription, matchingPolicyOperations } from './resources/matchingPolicy';
import {
	organizationMemberDescription,
	organizationMemberOperations,
} from './resources/organizationMember';
import { reportDescription, reportOperations } from './resources/report';
import { sourceDescription, sourceOperations } from './resources/source';
import { tenantDescription, tenantOperations } from './resources/tenant';
import { tenantUserDescription, tenantUserOperations } from './resources/tenantUser';
import { threatReportDescription, threatReportOperations } from './resources/threatReport';
import type { FlareOperation } from './shared/operation';
import { runFlareOperation, SHARED_FIELDS } from './shared/runner';

/** Every operation of the node, by resource and operation value. */
export const flareOperations: Record<string, Record<string, FlareOperation>> = {
	alertChannel: alertChannelOperations,
	alertRule: alertRuleOperations,
	astpUrl: astpUrlOperations,
	event: eventOperations,
	identifier: identifierOperations,
	identifierGroup: identifierGroupOperations,
	identifierRecommendation: identifierRecommendationOperations,
	identity: identityOperations,
	leakedCookie: leakedCookieOperations,
	leakedCredential: leakedCredentialOperations,
	matchingPolicy: matchingPolicyOperations,
	organizationMember: organizationMemberOperations,
	report: reportOperations,
	source: sourceOperations,
	tenant: tenantOperations,
	tenantUser: tenantUserOperations,
	threatReport: threatReportOperations,
};

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
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				description: 'Kind of Flare data to work with',
				options: [
					{
						name: 'Alert Channel',
						value: 'alertChannel',
						description: "Where Flare sends alerts (Alert Central's channels), and their status",
					},
					{
						name: 'Alert Rule',
						value: 'alertRule',
						description: 'Which events of an identifier or a group Flare sends to an alert channel',
					},
					{
						name: 'ASTP URL',
						value: 'astpUrl',
						description: 'URLs where a leaked credential was seen used',
					},
					{
						name: 'Event',
						value: 'event',
						description: 'Events collected by Flare: leaks, stealer logs, posts, listings and more',
					},
					{
						name: 'Identifier',
						value: 'identifier',
						description: 'What Flare monitors for you: domains, keywords, identities',
					},
					{
						name: 'Identifier Group',
						value: 'identifierGroup',
						description: 'Groups of identifiers, e.g. one per brand or subsidiary',
					},
					{
						name: 'Identifier Recommendation',
						value: 'identifierRecommendation',
						description: 'Domains, e-mail addresses and more that Flare recommends monitoring',
					},
					{
						name: 'Identity',
						value: 'identity',
						description: 'Leaked identities and their passwords',
					},
					{
						name: 'Leaked Cookie',
						value: 'leakedCookie',
						description: 'Session cookies stolen by malware (ASTP)',
					},
					{
						name: 'Leaked Credential',
						value: 'leakedCredential',
						description: 'Credentials found in leaks and stealer logs',
					},
					{
						name: 'Matching Policy',
						value: 'matchingPolicy',
						description: 'Keyword lists that refine what identifiers match',
					},
					{
						name: 'Organization Member',
						value: 'organizationMember',
						description:
							"The users of your Flare organization: list, update, disable (an organization administrator's key)",
					},
					{
						name: 'Report',
						value: 'report',
						description: "Flare's platform reports of the tenant, e.g. the monthly client report",
					},
					{ name: 'Source', value: 'source', description: 'Where leaked credentials come from' },
					{
						name: 'Tenant',
						value: 'tenant',
						description:
							"The tenants your API key can work in, and their IDs; for an organization administrator's key, create, update and archive them",
					},
					{
						name: 'Tenant User',
						value: 'tenantUser',
						description:
							"Who has access to a tenant, with which role (an organization administrator's key)",
					},
					{
						name: 'Threat Report',
						value: 'threatReport',
						description: 'Threat intelligence reports',
					},
				],
				default: 'leakedCredential',
			},
			...alertChannelDescription,
			...alertRuleDescription,
			...astpUrlDescription,
			...eventDescription,
			...identifierDescription,
			...identifierGroupDescription,
			...identifierRecommendationDescription,
			...identityDescription,
			...leakedCookieDescription,
			...leakedCredentialDescription,
			...matchingPolicyDescription,
			...organizationMemberDescription,
			...reportDescription,
			...sourceDescription,
			...tenantDescription,
			...tenantUserDescription,
			...threatReportDescription,
			// Tenant and Request Options: every operation has them (the runner reads them).
			...SHARED_FIELDS,
		],
	};

	/**
	 * Pickers of the resource locators' "From List" mode (methods/listSearch.ts), and dropdown values
	 * loaded from Flare (methods/loadOptions.ts).
	 */
	methods = { listSearch, loadOptions };

	/**
	 * Every operation runs through one runner (shared/runner.ts); each operation's form file declares
	 * its fields, its endpoint, how its parameters become the request and how records become output
	 * items (docs/architecture.md).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const flareOperation = flareOperations[resource]?.[operation];
		if (!flareOperation) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operation}" of "${resource}" is not supported`,
			);
		}
		return await runFlareOperation(this, flareOperation);
	}
}
