import type { INodeProperties, INodePropertyMode, INodePropertyOptions, INodePropertyRegexValidation } from 'n8n-workflow';

import codex from '../../nodes/Flare/Flare.node.json';
import { Flare, flareOperations } from '../../nodes/Flare/Flare.node';
import { fs } from '../support/node';

const flare = new Flare();
const { description } = flare;
const properties = description.properties;

/** What an identifier watches: its type and the value fields of the nine kinds. */
const IDENTIFIER_DATA = [
	'identifierType',
	'fqdn',
	'keyword',
	'ip',
	'bin',
	'azureTenantId',
	'searchQuery',
	'repoOwner',
	'repoName',
	'secret',
	'identityAttributes',
];

/** The form of the event feed searches (tenant and identifier). */
const FEED_SEARCH = ['searchBy', 'queryString', 'keyword', 'fqdn', 'email', 'username', 'password', 'secret', 'ip', 'bin', 'brand', 'firstName', 'lastName', 'exactName', 'repoOwner', 'repoName', 'azureTenantId', 'severityFilter', 'minimumSeverity', 'severities', 'returnAll', 'limit', 'filters', 'options'];

/** The parameter names that saved workflows rely on (issue #3), per resource and operation. */
const CONTRACT: Record<string, Record<string, string[]>> = {
	leakedCredential: {
		search: ['queryType', 'fqdn', 'email', 'keyword', 'secret', 'returnAll', 'limit', 'simplify', 'options'],
		searchAstp: ['queryType', 'fqdn', 'email', 'keyword', 'secret', 'returnAll', 'limit', 'simplify', 'options'],
		takeAction: ['credentialHash', 'actionType'],
		getTenantFeed: ['returnAll', 'limit', 'simplify', 'options'],
		getIdentifierFeed: ['identifierId', 'returnAll', 'limit', 'simplify', 'options'],
	},
	astpUrl: { getAll: ['credentialHash', 'returnAll', 'limit'] },
	identity: {
		checkAccounts: ['account', 'simplify', 'options'],
		getByPassword: ['password', 'returnAll', 'limit', 'simplify', 'leakedValueOutput'],
		getByKeyword: ['keyword', 'returnAll', 'limit', 'simplify', 'leakedValueOutput'],
	},
	source: { get: ['sourceId'], getAll: ['returnAll', 'limit'] },
	matchingPolicy: {
		assign: ['policyUuid', 'identifierIds', 'cleanPastEvents'],
		getByIdentifier: ['identifierId'],
		create: ['name', 'policyType', 'keywords', 'query', 'cookieNames', 'matchSubdomains', 'matchMode'],
		get: ['policyUuid'],
		getAll: ['returnAll', 'limit', 'options'],
		update: ['policyUuid', 'updateFields'],
		delete: ['policyUuid'],
		getAssignments: ['policyUuid', 'returnAll', 'limit', 'options'],
		unassign: ['policyUuid', 'identifierIds'],
	},
	identifierGroup: {
		create: ['name'],
		delete: ['groupId'],
		get: ['groupId'],
		getAll: [],
		update: ['groupId', 'name'],
	},
	leakedCookie: { search: ['domain', 'returnAll', 'limit', 'filters', 'options'] },
	identifier: {
		create: [...IDENTIFIER_DATA, 'categories', 'severities', 'additionalFields', 'options'],
		delete: ['identifierId'],
		get: ['identifierId', 'options'],
		getAll: ['returnAll', 'limit', 'filters', 'options'],
		update: ['identifierId', 'replaceData', ...IDENTIFIER_DATA, 'updateFields', 'options'],
	},
	tenant: {
		archive: ['targetTenantId'],
		create: ['name', 'industry', 'additionalFields'],
		get: ['targetTenantId'],
		getAll: [],
		getAllInOrganization: ['returnAll', 'limit'],
		update: ['targetTenantId', 'updateFields'],
	},
	tenantUser: {
		add: ['targetTenantId', 'userId', 'role', 'readOnly'],
		getAll: ['targetTenantId', 'returnAll', 'limit'],
		remove: ['targetTenantId', 'userId'],
	},
	organizationMember: {
		disable: ['userId'],
		enable: ['userId'],
		get: ['userId'],
		getAll: ['returnAll', 'limit', 'filters'],
		getTenants: ['userId', 'returnAll', 'limit'],
		update: ['userId', 'updateFields'],
	},
	report: {
		download: ['reportId', 'format', 'binaryPropertyName'],
		get: ['reportId', 'options'],
		getAll: ['returnAll', 'limit', 'filters', 'options'],
	},
	event: {
		get: ['uid', 'options'],
		getFullEvent: ['uid', 'options'],
		getAiExplanation: ['uid', 'options'],
		getRelatedConversation: ['uid', 'direction', 'messages', 'options'],
		searchIdentifierFeed: ['identifierId', ...FEED_SEARCH],
		searchTenantFeed: FEED_SEARCH,
		takeAction: ['uid', 'actionType'],
		searchIdentifierGroupFeed: ['groupId', ...FEED_SEARCH],
		searchGlobal: FEED_SEARCH,
		updateTenantMetadata: ['uid', 'updateFields'],
		expandStealerLog: ['uid', 'expandField', 'returnAll', 'limit', 'options'],
	},
	threatReport: {
		createRequest: ['reportTitle', 'timeRangeType', 'timeRangeFrom', 'timeRangeTo', 'additionalFields'],
		getRequestStatus: ['requestId', 'options'],
		getAll: ['returnAll', 'limit', 'filters', 'options'],
		get: ['reportId', 'options'],
		download: ['reportId', 'format', 'binaryPropertyName'],
		delete: ['reportId'],
		publish: ['reportId', 'title', 'options'],
	},
	alertChannel: {
		create: [
			'name',
			'channelType',
			'webhookUrl',
			'secret',
			'email',
			'emailOptions',
			'jiraSite',
			'accountEmail',
			'apiToken',
			'projectKey',
			'issueType',
			'serverUrl',
			'apiKey',
			'tableName',
			'workspaceId',
			'sharedKey',
			'entraTenantId',
			'entraClientId',
			'entraSecret',
			'ingestionUrl',
			'splunkHost',
			'index',
			'labels',
			'customFields',
			'webhookOptions',
			// No 'options' (Leaked Value Output): unreleased, removed (the hostile review of issue 40, F2).
		],
		getAll: ['returnAll', 'limit', 'filters', 'options'],
	},
	alertRule: {
		create: ['ruleOf', 'identifierId', 'groupId', 'name', 'alertChannelId', 'frequency', 'additionalFields', 'options'],
		delete: ['ruleOf', 'identifierId', 'groupId', 'alertRuleId'],
		getAll: ['returnAll', 'limit', 'filters', 'options'],
		update: ['ruleOf', 'identifierId', 'groupId', 'alertRuleId', 'updateFields', 'options'],
	},
	identifierRecommendation: {
		getAll: ['returnAll', 'limit', 'filters', 'options'],
		accept: ['recommendationId'],
		reject: ['recommendationId'],
	},
};

const formOf = (resource: string, operation: string) =>
	properties.filter(
		(property) =>
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);

const options = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

function* allProperties(list: INodeProperties[]): Generator<INodeProperties> {
	for (const property of list) {
		yield property;
		if (property.type === 'collection') yield* allProperties(property.options as INodeProperties[]);
	}
}

describe('Flare node description', () => {
	it('is the action node users expect: type, credential, AI tool, themed icons, subtitle, codex', () => {
		expect(description).toMatchObject({
			name: 'flare',
			displayName: 'Flare',
			usableAsTool: true,
			credentials: [{ name: 'flareApi', required: true }],
			subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		});
		const icon = description.icon as { light: string; dark: string };
		expect(icon.light).not.toBe(icon.dark);
		for (const file of [icon.light, icon.dark]) {
			expect(fs.existsSync(`nodes/Flare/${file.replace('file:', '')}`)).toBe(true);
		}
		expect(codex.node).toBe('n8n-nodes-flareio.flare');
		expect(codex.categories).toEqual(['Development']);
		expect(codex.alias).toEqual(expect.arrayContaining(['Security', 'Leak', 'Breach', 'Threat Intelligence', 'Credentials']));
	});

	it('keeps the resource, operation and parameter names of the contract', () => {
		const resource = properties.find((property) => property.name === 'resource')!;
		expect(options(resource).map((option) => option.value).sort()).toEqual(Object.keys(CONTRACT).sort());
		for (const [resourceName, operations] of Object.entries(CONTRACT)) {
			const operation = properties.find(
				(property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resourceName),
			)!;
			expect(options(operation).map((option) => option.value).sort()).toEqual(Object.keys(operations).sort());
			for (const [operationName, names] of Object.entries(operations)) {
				const form = formOf(resourceName, operationName).filter((property) => property.type !== 'notice');
				expect([resourceName, operationName, form.map((property) => property.name)]).toEqual([resourceName, operationName, names]);
				expect(flareOperations[resourceName][operationName]).toBeDefined();
			}
		}
		for (const operation of ['search', 'searchAstp']) {
			const search = formOf('leakedCredential', operation).find((property) => property.name === 'options')!;
			expect(options(search).map((option) => option.name)).toEqual(['importedFrom', 'importedTo', 'include', 'leakedValueOutput', 'order']);
		}
		const feed = formOf('leakedCredential', 'getTenantFeed').find((property) => property.name === 'options')!;
		expect(options(feed).map((option) => option.name)).toEqual(['leakedValueOutput', 'order']);
		const filters = formOf('identifier', 'getAll').find((property) => property.name === 'filters')!;
		expect(options(filters).map((option) => option.name)).toEqual(['authorizationStatus', 'isDisabled', 'groupId', 'types']);
		const additional = formOf('identifier', 'create').find((property) => property.name === 'additionalFields')!;
		expect(options(additional).map((option) => option.name)).toEqual(['groupId', 'name']);
		const updateFields = formOf('identifier', 'update').find((property) => property.name === 'updateFields')!;
		expect(options(updateFields).map((option) => option.name)).toEqual(['categories', 'isDisabled', 'groupId', 'name', 'severities']);
		const report = formOf('threatReport', 'createRequest').find((property) => property.name === 'additionalFields')!;
		expect(options(report).map((option) => option.name)).toEqual(['excludedKeywords', 'includedKeywords', 'question']);
		for (const operation of ['searchTenantFeed', 'searchIdentifierFeed']) {
			const form = formOf('event', operation);
			const filters = form.find((property) => property.name === 'filters')!;
			expect(options(filters).map((option) => option.name)).toEqual([
				'createdFrom',
				'createdTo',
				'types',
				'ignored',
				'materializedFrom',
				'materializedTo',
				'remediated',
				'tags',
			]);
			expect(options(form.find((property) => property.name === 'options')!).map((option) => option.name)).toEqual(['leakedValueOutput', 'order']);
		}
		const identifiers = formOf('identifier', 'getAll').find((property) => property.name === 'options')!;
		expect(options(identifiers).map((option) => option.name)).toEqual(['leakedValueOutput', 'orderBy']);
		for (const [resource, operation] of [['event', 'get'], ['event', 'getFullEvent'], ['identifier', 'create'], ['identifier', 'get'], ['identifier', 'update'], ['threatReport', 'getRequestStatus']]) {
			const form = formOf(resource, operation).find((property) => property.name === 'options')!;
			expect([resource, operation, options(form).map((option) => option.name)]).toEqual([resource, operation, ['leakedValueOutput']]);
		}
	});

	it('describes every field, and gives every free-text field an "e.g." placeholder', () => {
		for (const property of allProperties(properties)) {
			if (property.type === 'notice') continue;
			expect([property.name, typeof property.description]).toEqual([property.name, 'string']);
			if (property.type === 'string') {
				expect([property.name, property.placeholder]).toEqual([property.name, expect.stringMatching(/^e\.g\. /)]);
			}
			for (const mode of property.modes ?? []) {
				if (mode.type === 'string') {
					expect([property.name, mode.name, mode.placeholder]).toEqual([property.name, mode.name, expect.stringMatching(/^e\.g\. /)]);
				}
			}
		}
	});

	it('gives every operation an action and a description, and sorts every option list', () => {
		for (const property of allProperties(properties)) {
			if (property.type !== 'options' && property.type !== 'multiOptions') continue;
			const names = options(property).map((option) => option.name);
			expect([property.name, names]).toEqual([property.name, [...names].sort((a, b) => a.localeCompare(b))]);
			if (property.name === 'operation') {
				for (const option of options(property)) {
					expect(option.action).toMatch(/^[A-Z][a-z]/);
					expect(option.description).toEqual(expect.any(String));
				}
			}
		}
	});

	it('tells a model which operations change data in Flare: the writes, and only they', () => {
		// n8n describes a tool as "<action> in Flare" (n8n-workflow's makeDescription).
		for (const [resource, operations] of Object.entries(flareOperations)) {
			const operation = properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource))!;
			for (const option of options(operation)) {
				const write = flareOperations[resource][String(option.value)].write === true;
				expect([resource, option.value, option.action?.startsWith('Change data by ')]).toEqual([resource, option.value, write]);
				expect([resource, option.value, /changes data in Flare\.?$/.test(option.description ?? '')]).toEqual([resource, option.value, write]);
			}
			expect(Object.keys(operations).length).toBeGreaterThan(0);
		}
	});

	it('masks secret inputs and defaults to masked output', () => {
		const secrets = [...allProperties(properties)].filter((property) => ['secret', 'password'].includes(property.name));
		// Search, Search ASTP, Identity → Get by Password, Identifier → Create and Update, and the two
		// feed searches' Secret and Password (Search By Credentials).
		// And those of Search All of Flare and Search Identifier Group Feed; Alert Channel → Create's
		// Signing Secret (webhook).
		expect(secrets).toHaveLength(14);
		for (const property of secrets) expect(property.typeOptions?.password).toBe(true);
		const outputs = [...allProperties(properties)].filter((property) => property.name === 'leakedValueOutput');
		// Search, Search ASTP, Get Tenant Feed, the two identity lookups, the three feed searches, Get Full
		// Event, Event → Get, Identifier → Create, Get, Get Many and Update, Threat Report → Get Request
		// Status; Search All of Flare, Expand Stealer Log, Get Identifier Feed, Leaked Cookie → Search and
		// Check Accounts; Event → Get AI Explanation, Threat Report → Get Many and Get, Identifier
		// Recommendation → Get Many, Alert Rule → Create, Get Many and Update, Alert Channel → Get Many;
		// Event → Get Related Conversation, Report → Get and Get Many, Threat Report → Publish. Not Alert
		// Channel → Create: its output holds the secrets given, always masked (the hostile review of
		// issue 40, F2).
		expect(outputs.length).toBe(32);
		expect(formOf('alertChannel', 'create').map((property) => property.name)).not.toContain('options');
		for (const property of outputs) {
			expect(property.default).toBe('masked');
			expect(options(property).map((option) => option.value)).toEqual(['full', 'masked', 'omit', 'sha256']);
		}
	});

	it("Alert Channel → Create: every secret of every destination is a password field, and only they", () => {
		const form = [...allProperties(formOf('alertChannel', 'create'))];
		const values = (property: INodeProperties) =>
			(property.options ?? []).flatMap((option) => ('values' in option ? (option.values as INodeProperties[]) : []));
		const fields = [...form, ...form.flatMap(values)];
		const passwords = fields.filter((property) => property.typeOptions?.password === true).map((property) => property.name);
		expect(passwords.sort()).toEqual(['apiKey', 'apiToken', 'basicAuthPassword', 'entraSecret', 'secret', 'sharedKey', 'value', 'webhookUrl'].sort());
		const type = form.find((property) => property.name === 'channelType')!;
		expect(options(type).map((option) => option.value).sort()).toEqual(
			['azure_sentinel', 'azure_sentinel_v2', 'discord', 'email', 'jira', 'servicenow', 'slack', 'splunk', 'teams', 'webhook'],
		);
	});

	it.each([
		['matchingPolicy', 'assign', /^Beta:/],
		['matchingPolicy', 'getByIdentifier', /^Beta:/],
		['event', 'get', /^Beta:/],
		['identity', 'getByPassword', /^Deprecated by Flare: replaced by the ASTP credential search.*Leaked Credential → Search ASTP.*Needs the ASTP feature/],
		['identity', 'getByKeyword', /^Deprecated by Flare: replaced by the ASTP credential search.*Leaked Credential → Search ASTP.*Needs the ASTP feature/],
		['leakedCredential', 'searchAstp', /^Needs the ASTP.*does not count toward the global search quota/],
		['tenant', 'getAll', /Tenant field of the Flare node and trigger takes \(or the credential's Tenant ID\)/],
		['tenant', 'getAllInOrganization', /^Every tenant of your Flare organization, for an organization administrator's API key/],
		// Flare's docs do not deprecate it: the notice names where the claim comes from (api-audit D1).
		['threatReport', 'createRequest', /^The specification this package was built from says Flare will replace this endpoint by POST \/v4\/threat_flow\/intel\/requests; Flare's API documentation \(July 2026\) lists it as current.*Needs access to Threat Flow \(a feature of your Flare account and a permission of your role\)/],
		['astpUrl', 'getAll', /^Needs the ASTP/],
		['source', 'get', /^Needs the ASTP/],
		['identifier', 'delete', /up to an hour/],
		['threatReport', 'getRequestStatus', /^Needs access to Threat Flow \(a feature of your Flare account and a permission of your role\)\..*Wait node/],
		['event', 'searchGlobal', /^Searches of all of Flare count toward your organization's monthly global search quota.*at most 10 events a page/],
		['event', 'expandStealerLog', /^Beta:/],
		['leakedCookie', 'search', /^Needs the ASTP .*cookie monitoring/],
		['identity', 'checkAccounts', /^Needs the ASTP feature\..*Up to 100 input items go to Flare in one request.*use Leaked Credential → Search ASTP with that e-mail or username\.$/],
		...['create', 'get', 'getAll', 'update', 'delete', 'getAssignments', 'unassign'].map((operation) => ['matchingPolicy', operation, /^Beta:/] as [string, string, RegExp]),
		// Issue 40: what Flare's public API cannot do, and who may administer.
		// The hostile review of issue 40, F10: what the user types is saved with the workflow.
		['alertChannel', 'create', /^Flare's public API cannot update or delete a channel.*secrets are masked in the output, but n8n saves what you type in the workflow and its executions: give secrets as an expression from a secure source/],
		...['archive', 'create', 'get', 'update'].map((operation) => ['tenant', operation, /^For an organization administrator's API key/] as [string, string, RegExp]),
		...['add', 'getAll', 'remove'].map((operation) => ['tenantUser', operation, /^For an organization administrator's API key/] as [string, string, RegExp]),
		...['disable', 'enable', 'get', 'getAll', 'getTenants', 'update'].map((operation) => ['organizationMember', operation, /^For an organization administrator's API key/] as [string, string, RegExp]),
		['report', 'download', /^Needs Flare's reports feature\..*cannot mask leaked values inside it/],
		['source', 'getAll', /^Needs the ASTP/],
	])('%s → %s shows a notice matching %s', (resource, operation, text) => {
		const notices = formOf(resource, operation).filter((property) => property.type === 'notice');
		expect(notices.map((notice) => notice.displayName)).toEqual([expect.stringMatching(text)]);
	});

	it('shows the custom range bounds only for a custom range', () => {
		for (const name of ['timeRangeFrom', 'timeRangeTo']) {
			const property = properties.find((candidate) => candidate.name === name)!;
			expect(property.displayOptions?.show?.timeRangeType).toEqual(['range']);
			expect(property.required).toBe(true);
		}
	});

	it('declares, per operation, an endpoint whose placeholders the operation fills, and which ones write', () => {
		const writes: string[] = [];
		for (const [resource, operations] of Object.entries(flareOperations)) {
			for (const [name, operation] of Object.entries(operations)) {
				const placeholders = [operation.path, ...(operation.otherPaths ?? [])].flatMap((path) => [...path.matchAll(/\{\+?(\w+)\}/g)].map((match) => match[1]));
				for (const placeholder of placeholders.filter((value) => value !== 'segment')) {
					// An alert rule's identifier or group is filled by `ownerPath` (alertRule/rule.ts).
					const filled = resource === 'alertRule' && ['asset_id', 'assets_group_id'].includes(placeholder)
						? expect.stringMatching(/ownerPath\)?\(item, request,/)
						: expect.stringContaining(`pathParameters.${placeholder} =`);
					expect([resource, name, operation.prepare?.toString()]).toEqual([resource, name, filled]);
				}
				if (operation.write) writes.push(`${resource}.${name}`);
			}
		}
		expect(writes.sort()).toEqual([
			'alertChannel.create',
			'alertRule.create',
			'alertRule.delete',
			'alertRule.update',
			'event.takeAction',
			'event.updateTenantMetadata',
			'identifier.create',
			'identifier.delete',
			'identifier.update',
			'identifierGroup.create',
			'identifierGroup.delete',
			'identifierGroup.update',
			'identifierRecommendation.accept',
			'identifierRecommendation.reject',
			'leakedCredential.takeAction',
			'matchingPolicy.assign',
			'matchingPolicy.create',
			'matchingPolicy.delete',
			'matchingPolicy.unassign',
			'matchingPolicy.update',
			'organizationMember.disable',
			'organizationMember.enable',
			'organizationMember.update',
			'tenant.archive',
			'tenant.create',
			'tenant.update',
			'tenantUser.add',
			'tenantUser.remove',
			'threatReport.createRequest',
			'threatReport.delete',
			'threatReport.publish',
		]);
	});

	it('shows each feed query field for its Search By kinds only, and the severity fields for their mode', () => {
		for (const operation of ['searchTenantFeed', 'searchIdentifierFeed']) {
			const form = formOf('event', operation);
			const searchBy = form.find((property) => property.name === 'searchBy')!;
			expect([searchBy.default, options(searchBy).map((option) => option.value).sort()]).toEqual([
				'all',
				['all', 'azure_tenant', 'bin', 'brand', 'credentials', 'domain', 'email', 'github_repository', 'ip', 'keyword', 'name', 'query_string', 'secret', 'username'],
			]);
			const shownFor = (name: string, selector: string) => form.find((property) => property.name === name)!.displayOptions?.show?.[selector];
			expect(
				Object.fromEntries(
					form.filter((property) => property.displayOptions?.show?.searchBy).map((property) => [property.name, shownFor(property.name, 'searchBy')]),
				),
			).toEqual({
				queryString: ['query_string'],
				keyword: ['keyword'],
				fqdn: ['domain'],
				email: ['email'],
				username: ['username', 'credentials'],
				password: ['credentials'],
				secret: ['secret'],
				ip: ['ip'],
				bin: ['bin'],
				brand: ['brand'],
				firstName: ['name'],
				lastName: ['name'],
				exactName: ['name'],
				repoOwner: ['github_repository'],
				repoName: ['github_repository'],
				azureTenantId: ['azure_tenant'],
			});
			expect([shownFor('minimumSeverity', 'severityFilter'), shownFor('severities', 'severityFilter')]).toEqual([['minimum'], ['list']]);
			const types = options(form.find((property) => property.name === 'filters')!).find((option) => option.name === 'types') as unknown as INodeProperties;
			expect([types.type, types.typeOptions]).toEqual(['multiOptions', { loadOptionsMethod: 'getEventTypes' }]);
		}
		expect(Object.keys(flare.methods?.loadOptions ?? {})).toEqual(['getEventTypes']);
	});

	describe('resource locators', () => {
		const locators = [...allProperties(properties)].filter((property) => property.type === 'resourceLocator');
		const listSearch = (flare.methods?.listSearch ?? {}) as Record<string, unknown>;
		const regexOf = (mode: INodePropertyMode) => {
			const validations = (mode.validation ?? []) as INodePropertyRegexValidation[];
			expect(validations.map((validation) => validation.type)).toEqual(['regex']);
			// n8n anchors the regex at both ends (validateResourceLocatorParameter).
			return new RegExp(`^${validations[0].properties.regex}$`);
		};

		it('pick identifiers, identifier groups, matching policies, sources and report requests, under their contract names', () => {
			expect(
				locators.map((property) => [property.name, property.displayName, property.displayOptions?.show?.operation]),
			).toEqual([
				// Alert Rule → Create, Delete, Update: the identifier or the group (Rule Of), the channel, the rule.
				['identifierId', 'Identifier', ['create']],
				['groupId', 'Identifier Group', ['create']],
				['alertChannelId', 'Alert Channel', ['create']],
				['identifierId', 'Identifier', ['delete']],
				['groupId', 'Identifier Group', ['delete']],
				['alertRuleId', 'Alert Rule', ['delete']],
				['identifierId', 'Identifier', ['update']],
				['groupId', 'Identifier Group', ['update']],
				['alertRuleId', 'Alert Rule', ['update']],
				// Alert Rule → Update (Update Fields).
				['alertChannelId', 'Alert Channel', undefined],
				['identifierId', 'Identifier', ['searchIdentifierFeed']],
				['groupId', 'Identifier Group', ['searchIdentifierGroupFeed']],
				// Identifier → Create (Additional Fields), Update (Update Fields) and Get Many (Filters).
				['groupId', 'Identifier Group', undefined],
				['identifierId', 'Identifier', ['delete']],
				['identifierId', 'Identifier', ['get']],
				['groupId', 'Identifier Group', undefined],
				['identifierId', 'Identifier', ['update']],
				['groupId', 'Identifier Group', undefined],
				['groupId', 'Identifier Group', ['delete']],
				['groupId', 'Identifier Group', ['get']],
				['groupId', 'Identifier Group', ['update']],
				['recommendationId', 'Recommendation', ['accept']],
				['recommendationId', 'Recommendation', ['reject']],
				['identifierId', 'Identifier', ['getIdentifierFeed']],
				['policyUuid', 'Matching Policy', ['assign']],
				['policyUuid', 'Matching Policy', ['delete']],
				['policyUuid', 'Matching Policy', ['get']],
				['policyUuid', 'Matching Policy', ['getAssignments']],
				['identifierId', 'Identifier', ['getByIdentifier']],
				['policyUuid', 'Matching Policy', ['unassign']],
				['policyUuid', 'Matching Policy', ['update']],
				// Organization Member: the member (issue 40).
				...['disable', 'enable', 'get', 'getTenants', 'update'].map((operation) => ['userId', 'Member', [operation]]),
				['reportId', 'Report', ['download']],
				['reportId', 'Report', ['get']],
				['sourceId', 'Source', ['get']],
				// Tenant and Tenant User: the tenant administered, and the member.
				...['archive', 'get', 'update'].map((operation) => ['targetTenantId', 'Target Tenant', [operation]]),
				['targetTenantId', 'Target Tenant', ['add']],
				['userId', 'Member', ['add']],
				['targetTenantId', 'Target Tenant', ['getAll']],
				['targetTenantId', 'Target Tenant', ['remove']],
				['userId', 'Member', ['remove']],
				['reportId', 'Threat Report', ['delete']],
				['reportId', 'Threat Report', ['download']],
				['reportId', 'Threat Report', ['get']],
				['requestId', 'Report Request', ['getRequestStatus']],
				['reportId', 'Threat Report', ['publish']],
				// Every operation: the tenant to work in.
				['tenant', 'Tenant', undefined],
			]);
			expect(Object.keys(listSearch).sort()).toEqual([
				'searchAlertChannels',
				'searchAlertRules',
				'searchIdentifierGroups',
				'searchIdentifierRecommendations',
				'searchIdentifiers',
				'searchMatchingPolicies',
				'searchOrganizationMembers',
				'searchOrganizationTenants',
				'searchReports',
				'searchSources',
				'searchTenants',
				'searchThreatReports',
			]);
		});

		it('Tenant: one optional field of every operation, before Request Options, empty by default', () => {
			const [tenant] = locators.filter((candidate) => candidate.name === 'tenant');
			expect(properties.slice(-2).map((property) => property.name)).toEqual(['tenant', 'requestOptions']);
			expect(tenant).toMatchObject({ displayName: 'Tenant', required: false, default: { mode: 'list', value: '' } });
			expect(tenant.displayOptions).toBeUndefined();
			expect(tenant.description).toMatch(/^Tenant to work in\. Leave empty for the Flare API credential's tenant\./);
			const [list, byId] = tenant.modes!;
			expect(list.typeOptions).toEqual({ searchListMethod: 'searchTenants', searchable: true });
			const regex = regexOf(byId);
			for (const value of ['12345', ' 101 ', '123456789012345']) expect([value, regex.test(value)]).toEqual([value, true]);
			for (const value of ['', 'abc', '1.5', '-1', '1234567890123456', '../1']) expect([value, regex.test(value)]).toEqual([value, false]);
		});

		it.each([
			['identifierId', 'searchIdentifiers', ['7001', ' 7001 ', '123456789012345'], ['', 'abc', '12.5', '../1', '7001a']],
			['policyUuid', 'searchMatchingPolicies', ['1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10', '1F0E4F2A-8C1D-4B6E-9A53-3C2D7E8F9A10'], ['', 'not-a-uuid', '1f0e4f2a8c1d4b6e9a533c2d7e8f9a10']],
			['sourceId', 'searchSources', ['collection-1', 'a b'], ['', '   ']],
			['groupId', 'searchIdentifierGroups', ['101', ' 101 ', '123456789012345'], ['', 'abc', '12.5', '../1', '101a']],
			['alertChannelId', 'searchAlertChannels', ['301', ' 301 '], ['', 'abc', '12.5', '../1', '301a']],
			['alertRuleId', 'searchAlertRules', ['5101', ' 5101 '], ['', 'abc', '12.5', '../1', '5101a']],
			['reportId', 'searchThreatReports', ['870001', ' 870001 '], ['', 'abc', '12.5', '../1', '870001a']],
			['reportId', 'searchReports', ['610001', ' 610001 '], ['', 'abc', '12.5', '../1', '610001a']],
			['targetTenantId', 'searchOrganizationTenants', ['101', ' 9901 '], ['', 'abc', '12.5', '../1', '101a']],
			['userId', 'searchOrganizationMembers', ['501', ' 510 '], ['', 'abc', '12.5', '../1', '501a']],
			['recommendationId', 'searchIdentifierRecommendations', ['9001', ' 9001 '], ['', 'abc', '12.5', '../1', '9001a']],
		])('%s: "From List" (default, searchable, %s) or "By ID" (validated)', (name, method, valid, invalid) => {
			// A Threat Report's and a Report's IDs share the name: each resource picks from its own list.
			const pickers = locators.filter(
				(candidate) => candidate.name === name && (name !== 'reportId' || (candidate.displayName === 'Report') === (method === 'searchReports')),
			);
			expect(pickers.length).toBeGreaterThan(0);
			for (const property of pickers) {
				// Required, except as an option of a collection, which may be left empty.
				expect(property.required).toBe(property.displayOptions !== undefined);
				expect(property.default).toEqual({ mode: 'list', value: '' });
				const [list, byId] = property.modes!;
				expect(property.modes!.map((mode) => [mode.displayName, mode.name, mode.type])).toEqual([
					['From List', 'list', 'list'],
					['By ID', 'id', 'string'],
				]);
				expect(list.typeOptions).toEqual({ searchListMethod: method, searchable: true });
				expect(typeof listSearch[method]).toBe('function');
				expect(list.placeholder).toMatch(/^Select an? [a-z ]+\.\.\.$/);
				const regex = regexOf(byId);
				for (const value of valid) expect([value, regex.test(value)]).toEqual([value, true]);
				for (const value of invalid) expect([value, regex.test(value)]).toEqual([value, false]);
			}
		});

		it('requestId is "By ID" only, validated as a UUID, and says that Flare cannot list report requests', () => {
			const [property] = locators.filter((candidate) => candidate.name === 'requestId');
			expect(property.default).toEqual({ mode: 'id', value: '' });
			expect(property.modes!.map((mode) => [mode.displayName, mode.name, mode.type])).toEqual([['By ID', 'id', 'string']]);
			expect(property.description).toMatch(/no endpoint that lists report requests/);
			const regex = regexOf(property.modes![0]);
			expect(regex.test('3fa85f64-5717-4562-b3fc-2c963f66afa6')).toBe(true);
			expect(regex.test('3fa85f64')).toBe(false);
		});
	});
});
