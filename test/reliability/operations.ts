/**
 * The operations of the Flare node, from its description, and a valid run of each: valid values for
 * every parameter (the fake's own records where an ID is needed), for the suites that try every
 * operation (bad input, unexpected answers), so that a new operation is tried without writing it.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Flare } from '../../nodes/Flare/Flare.node';
import type { FakeFlare } from '../fake-flare';
import type { Harness } from '../harness/engine';
import { withValue, type FormParameter } from './inputs';

export const nodeDescription = new Flare().description;
export const nodeProperties = nodeDescription.properties;

const optionsOf = (property: INodeProperties | undefined) => (property?.options ?? []) as INodePropertyOptions[];

/** Every operation of the node, from its description: [resource, operation]. */
export function operations(): Array<[string, string]> {
	const resources = optionsOf(nodeProperties.find((property) => property.name === 'resource')).map((option) => String(option.value));
	return resources.flatMap((resource) =>
		optionsOf(
			nodeProperties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource)),
		).map((option): [string, string] => [resource, String(option.value)]),
	);
}

/**
 * Valid values by parameter path (or name), and by `resource.operation.path` where an operation needs
 * its own; the fake's records where an ID is needed (one threat report request is created).
 */
export async function validValues(fake: FakeFlare, harness: Harness): Promise<Record<string, unknown>> {
	const report = await harness.runNode({ parameters: { resource: 'threatReport', operation: 'createRequest', reportTitle: 'Base' } });
	return {
		queryType: 'domain',
		fqdn: 'acme.com',
		email: 'jane@acme.com',
		keyword: 'jane*',
		secret: 'Summer2024!',
		password: fake.dataset.credential(11).hash,
		returnAll: false,
		limit: 5,
		simplify: true,
		leakedValueOutput: 'masked',
		'options.importedFrom': '2023-01-01T00:00:00Z',
		'options.importedTo': '2030-01-01T00:00:00Z',
		'options.include': ['auth_domains'],
		'options.leakedValueOutput': 'masked',
		'options.order': 'desc',
		'options.backfill': 'last24Hours',
		'requestOptions.timeout': 30_000,
		credentialHash: fake.dataset.credentialHash(49),
		uid: fake.dataset.events()[0].metadata.uid,
		identifierId: String(fake.dataset.identifierIds()[0]),
		identifierIds: String(fake.dataset.identifierIds()[1]),
		policyUuid: fake.dataset.policies()[0].uuid,
		cleanPastEvents: false,
		sourceId: fake.dataset.sources()[0].id,
		reportTitle: 'Weekly report',
		timeRangeType: 'all',
		timeRangeFrom: '2024-01-01T00:00:00Z',
		timeRangeTo: '2024-02-01T00:00:00Z',
		'additionalFields.question': 'Which banks were targeted?',
		'additionalFields.includedKeywords': 'xss, phishing',
		'additionalFields.excludedKeywords': 'test',
		requestId: String(report.output[0]?.json.request_id ?? '3fa85f64-5717-4562-b3fc-2c963f66afa6'),
		actionType: 'remediate',
		// Identifiers: what they watch, their lists and filters.
		identifierType: 'domain',
		ip: '203.0.113.7',
		bin: '412345',
		azureTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
		searchQuery: '"acme corp" AND password',
		repoOwner: 'acme',
		repoName: 'website',
		identityAttributes: { emails: [{ email: 'jane@acme.com' }], names: [{ firstName: 'Jane', lastName: 'Doe', strict: false }] },
		categories: ['leaked_credential', 'stealer_log'],
		severities: ['high', 'critical'],
		name: 'Acme watch',
		groupId: '101',
		replaceData: false,
		'identifier.getAll.filters.types': ['domain', 'ip'],
		'filters.isDisabled': false,
		'filters.authorizationStatus': 'authorized',
		'options.orderBy': 'name',
		'updateFields.isDisabled': false,
		// The event feeds, the full event and event actions.
		searchBy: 'all',
		queryString: 'acme AND password',
		username: 'jdoe',
		brand: 'Acme',
		firstName: 'Lucia',
		lastName: 'Moore',
		exactName: false,
		severityFilter: 'any',
		minimumSeverity: 'high',
		'filters.createdFrom': '2023-01-01T00:00:00Z',
		'filters.createdTo': '2030-01-01T00:00:00Z',
		'filters.materializedFrom': '2023-01-01T00:00:00Z',
		'filters.materializedTo': '2030-01-01T00:00:00Z',
		'filters.types': ['leaks'],
		'filters.ignored': false,
		'filters.remediated': false,
		'filters.tags': 'important',
		// An event of the tenant's feed (Event → Get reads another store: `uid` above).
		'event.getFullEvent.uid': fake.feed.feedAll(fake.options.tenants[0], {})[0].metadata.uid,
		'event.takeAction.uid': fake.feed.feedAll(fake.options.tenants[0], {})[1].metadata.uid,
		'event.updateTenantMetadata.uid': fake.feed.feedAll(fake.options.tenants[0], {})[2].metadata.uid,
		// A stealer log of the tenant's feed, whose cookies and credentials Expand Stealer Log lists.
		'event.expandStealerLog.uid': fake.feed.feedAll(fake.options.tenants[0], { filters: { type: ['stealer_log'] } })[0].metadata.uid,
		// Search All of Flare needs a query.
		'event.searchGlobal.searchBy': 'keyword',
		'event.searchGlobal.keyword': 'acme',
		// Leaked cookies, accounts, matching policies.
		domain: 'globex.io',
		'filters.names': 'session',
		'filters.paths': '/',
		'filters.importedAfter': '2020-01-01T00:00:00Z',
		'filters.expiresAfter': '2020-01-01T00:00:00Z',
		account: 'jane@acme.com',
		keywords: 'acme, vpn',
		query: 'acme AND vpn',
		cookieNames: 'session',
		// Issue 34: threat reports, alert rules and channels, recommendations.
		reportId: '870001',
		alertChannelId: '301',
		alertRuleId: '5101',
		// Delete deletes it, once: the rules Update reads stay (the suites share one fake).
		'alertRule.delete.alertRuleId': '5102',
		recommendationId: '9001',
		'identifierRecommendation.getAll.filters.types': ['domain', 'email'],
		'identifierRecommendation.getAll.filters.query': 'acme',
		'event.getAiExplanation.uid': fake.events.allUids()[0],
		// Update reads the group's rules first: a group without the rule would fail that read after a
		// 200, so the group-mode runs use one Flare does not know (a 404).
		'alertRule.update.groupId': '4040',
		// Issue 40: administration (an organization administrator's key), reports, channels, conversations.
		targetTenantId: '101',
		userId: '510',
		'report.get.reportId': '610001',
		'report.getAll.options.orderBy': 'title',
		'report.download.reportId': '610001',
		'event.getRelatedConversation.uid': fake.events.allUids().find((uid) => uid.startsWith('chat_message/')),
		webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX',
		jiraSite: 'acme.atlassian.net',
		accountEmail: 'flare-bot@acme.com',
		apiToken: 'token-4f9c2a7e',
		projectKey: 'SEC',
		issueType: 'Task',
		labels: 'flare, leaks',
		serverUrl: 'https://acme.service-now.com',
		apiKey: 'now-key-1b8d',
		tableName: 'incident',
		workspaceId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
		sharedKey: 'shared-key-2c4e',
		entraTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
		entraClientId: '0f3a9c1e-5b7d-4e2f-8a6c-1d9e7b3f5a20',
		entraSecret: 'Summer2024!',
		ingestionUrl: 'https://acme-dce.eastus-1.ingest.monitor.azure.com/dataCollectionRules/dcr-1/streams/Custom-Flare_CL',
		splunkHost: 'splunk.acme.com:8088',
		index: 'flare',
		// Clearing goes with neither a new severity nor new notes: each Clear option is tried on its own.
		'event.updateTenantMetadata.updateFields.clearSeverity': LEAVE_OUT,
		'event.updateTenantMetadata.updateFields.clearNotes': LEAVE_OUT,
		// Update changes the name and the keywords of a keyword policy: the other types' fields stay out.
		'matchingPolicy.update.updateFields.query': LEAVE_OUT,
		'matchingPolicy.update.updateFields.cookieNames': LEAVE_OUT,
		'matchingPolicy.update.updateFields.matchSubdomains': LEAVE_OUT,
		'matchingPolicy.update.updateFields.matchMode': LEAVE_OUT,
	};
}

/** A `validValues` entry for a collection option that the base leaves out (e.g. fields of another policy type). */
export const LEAVE_OUT = Symbol('leave out');

/**
 * Valid values for every parameter of a form (locators in their "By ID" mode): the operation's own
 * (`resource.operation.path`), else the parameter's.
 */
export function baseOf(valid: Record<string, unknown>, form: FormParameter[], selectors: IDataObject): IDataObject {
	let parameters: IDataObject = { ...selectors };
	for (const parameter of form) {
		const known = valid[`${String(selectors.resource)}.${String(selectors.operation)}.${parameter.path}`] ?? valid[parameter.path] ?? valid[parameter.property.name];
		if (known === LEAVE_OUT) continue;
		const value = known ?? parameter.property.default;
		parameters = withValue(
			parameters,
			parameter.path,
			parameter.property.type === 'resourceLocator' && known !== undefined ? { __rl: true, mode: 'id', value: known } : value,
		);
	}
	return parameters;
}

