import type { IDisplayOptions, INodeProperties, INodePropertyRegexValidation } from 'n8n-workflow';

/**
 * Adds `displayOptions` to properties, merging with each property's own conditions (so that, for
 * example, Limit keeps its `returnAll: [false]`).
 */
export function updateDisplayOptions(
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...displayOptions.show, ...property.displayOptions?.show },
			...(displayOptions.hide || property.displayOptions?.hide
				? { hide: { ...displayOptions.hide, ...property.displayOptions?.hide } }
				: {}),
		},
	}));
}

/** Return All and Limit, for operations that page. Limit is enforced across pages by the paginator. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { returnAll: [false] } },
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
];

export const simplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** Leaked Value Output (docs/api-contract.md, "Masking"): the runner reads it for every operation. */
export const leakedValueOutput: INodeProperties = {
	displayName: 'Leaked Value Output',
	name: 'leakedValueOutput',
	type: 'options',
	default: 'masked',
	description:
		'How leaked and monitored secrets appear in the output: passwords and password hashes, session cookies, monitored secrets and tokens, wherever they are in an item. In every choice but Full, the free text of the item (every text but IDs, dates, logins and kinds: contents, titles, notes, highlights) has these values, the passwords of login:password lines and URLs, and authorization and cookie headers masked too; it may still hold a secret Flare did not mark as one, e.g. a password without its login or an encoded one. Execution data is stored by n8n and visible to everyone who can open the workflow, and an AI Agent gives it to its model, so Masked is the safe choice.',
	options: [
		{ name: 'Full', value: 'full', description: 'The leaked values as Flare returns them' },
		{
			name: 'Masked',
			value: 'masked',
			description:
				'Eight stars whatever the length, with the first and last characters around them only for values of 12 characters or more, e.g. ******** or C********y',
		},
		{ name: 'Omit', value: 'omit', description: 'Leave the leaked values out' },
		{
			name: 'SHA-256',
			value: 'sha256',
			description:
				'The SHA-256 hex digest of each leaked value, to compare values without showing them. Weak passwords can be recovered from their digest with lookup tables.',
		},
	],
};

/** Options holding only Leaked Value Output, for outputs that may hold leaked or monitored secrets. */
export const leakedValueOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'How the output shows leaked values',
	options: [leakedValueOutput],
};

/** A form notice; the name must be unique per operation. */
export function notice(name: string, displayName: string): INodeProperties {
	return { displayName, name, type: 'notice', default: '' };
}

/** Time allowed for each answer when Request Options → Timeout is not set: a 10,000-credential page is several megabytes. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Request settings shared by every operation, named as in n8n's own HTTP-based nodes. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Settings of the HTTP requests sent to Flare',
	options: [
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description:
				'Time in milliseconds allowed for each answer from Flare, from sending the request to the last byte of the answer (the token exchange included). A read that times out is retried; a write is not, since Flare may have applied it.',
		},
	],
};

/** What a resource locator picks, and how its "By ID" mode checks what is typed. */
export interface ResourceLocatorSpec {
	/** The thing picked, e.g. "Identifier". */
	displayName: string;
	name: string;
	description: string;
	/** `methods.listSearch` function of the "From List" mode; without it the locator is "By ID" only. */
	searchListMethod?: string;
	/** Placeholder of the "From List" mode, e.g. "Select an identifier...". */
	listPlaceholder?: string;
	/** Placeholder of the "By ID" mode, starting with "e.g.". */
	idPlaceholder: string;
	/** Regex the whole ID must match (n8n anchors it at both ends). */
	idRegex: string;
	idErrorMessage: string;
}

/**
 * A resource locator with "From List" (the default, searchable, paged by Flare's cursor) and "By ID"
 * (validated while typing). Nodes read it with `FlareItem.locator()`, which also accepts the plain
 * value that workflows saved before the parameter became a locator.
 */
export function resourceLocator(spec: ResourceLocatorSpec): INodeProperties {
	const validation: INodePropertyRegexValidation = {
		type: 'regex',
		properties: { regex: spec.idRegex, errorMessage: spec.idErrorMessage },
	};
	const locator: INodeProperties = {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: spec.listPlaceholder,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: spec.idPlaceholder,
				validation: [validation],
			},
		],
	};
	if (!spec.searchListMethod) {
		// Nothing to list: "By ID" is the only mode.
		locator.modes = locator.modes!.filter((mode) => mode.name === 'id');
		locator.default = { mode: 'id', value: '' };
	}
	return locator;
}

/** A UUID, spaces around it tolerated (they are trimmed before sending). */
const UUID_REGEX =
	'\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*';

/** Identifier picker: its name and numeric ID in the list, or the numeric ID typed. */
export function identifierLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Identifier',
		name: 'identifierId',
		description,
		searchListMethod: 'searchIdentifiers',
		listPlaceholder: 'Select an identifier...',
		idPlaceholder: 'e.g. 7001',
		idRegex: '\\s*[0-9]{1,15}\\s*',
		idErrorMessage: 'Enter the numeric ID of an identifier, e.g. 7001',
	});
}

/**
 * Identifier group picker: its name and numeric ID in the list, or the numeric ID typed. Optional
 * inside a collection (`required: false`), where it may be left empty.
 */
export function identifierGroupLocator(
	description: string,
	{ required = true }: { required?: boolean } = {},
): INodeProperties {
	return {
		...resourceLocator({
			displayName: 'Identifier Group',
			name: 'groupId',
			description,
			searchListMethod: 'searchIdentifierGroups',
			listPlaceholder: 'Select an identifier group...',
			idPlaceholder: 'e.g. 101',
			idRegex: '\\s*[0-9]{1,15}\\s*',
			idErrorMessage: 'Enter the numeric ID of an identifier group, e.g. 101',
		}),
		required,
	};
}

/** Matching policy picker: its name in the list, or its UUID typed. */
export function matchingPolicyLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Matching Policy',
		name: 'policyUuid',
		description,
		searchListMethod: 'searchMatchingPolicies',
		listPlaceholder: 'Select a matching policy...',
		idPlaceholder: 'e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10',
		idRegex: UUID_REGEX,
		idErrorMessage:
			'Enter the UUID of a matching policy, e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10',
	});
}

/** Leak source picker: its name in the list, or its ID typed. */
export function sourceLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Source',
		name: 'sourceId',
		description,
		searchListMethod: 'searchSources',
		listPlaceholder: 'Select a source...',
		idPlaceholder: 'e.g. collection-1',
		// Any one-line text with a non-blank character; in linear time (`.*\S.*` backtracks
		// quadratically on a long line that ends in a line break: hostile review 49).
		idRegex: '[^\\S\\n\\r\\u2028\\u2029]*\\S.*',
		idErrorMessage: 'Enter the ID of a source, e.g. collection-1',
	});
}

/** Report request "picker": By ID only, since Flare has no endpoint that lists report requests. */
export function reportRequestLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Report Request',
		name: 'requestId',
		description,
		idPlaceholder: 'e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6',
		idRegex: UUID_REGEX,
		idErrorMessage:
			'Enter the request_id that Create Request returned, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6',
	});
}

/** A numeric ID typed into a locator, spaces around it tolerated. */
const NUMERIC_ID_REGEX = '\\s*[0-9]{1,15}\\s*';

/**
 * Tenant: the one form field every operation and the trigger share (the runner reads it for each
 * item: runner.ts `tenantOf`). Empty works in the credential's tenant; otherwise in the tenant given,
 * with that tenant's token; an expression that gives nothing fails the item (docs/usage.md, "One
 * credential, every tenant").
 */
export const tenantField: INodeProperties = {
	...resourceLocator({
		displayName: 'Tenant',
		name: 'tenant',
		description:
			"Tenant to work in. Leave empty for the Flare API credential's tenant. One credential serves every tenant its API key can access: pick one, or give its ID by expression, e.g. the ID of each item of Tenant → Get Many (an item for which the expression gives no ID fails).",
		searchListMethod: 'searchTenants',
		listPlaceholder: 'Select a tenant...',
		idPlaceholder: 'e.g. 12345',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of a tenant, e.g. 12345',
	}),
	required: false,
};

/**
 * The tenant an administration operation manages (Tenant → Get, Update, Archive; Tenant User): any
 * tenant of the organization, picked from its list or by ID. Not the Tenant field, which says where
 * the node works.
 */
export function targetTenantLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Target Tenant',
		name: 'targetTenantId',
		description,
		searchListMethod: 'searchOrganizationTenants',
		listPlaceholder: 'Select a tenant of the organization...',
		idPlaceholder: 'e.g. 12345',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of a tenant, e.g. 12345',
	});
}

/** Organization member picker: name and e-mail in the list (searched by Flare), or the user ID typed. */
export function memberLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Member',
		name: 'userId',
		description,
		searchListMethod: 'searchOrganizationMembers',
		listPlaceholder: 'Select a member of the organization...',
		idPlaceholder: 'e.g. 501',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric user ID of a member, e.g. 501',
	});
}

/** Threat report picker: its title and numeric ID in the list (newest first), or the ID typed. */
export function threatReportLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Threat Report',
		name: 'reportId',
		description,
		searchListMethod: 'searchThreatReports',
		listPlaceholder: 'Select a threat report...',
		idPlaceholder: 'e.g. 880001',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of a threat report, e.g. 880001',
	});
}

/** Platform report picker (Report resource): its title and numeric ID in the list, or the ID typed. */
export function reportLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Report',
		name: 'reportId',
		description,
		searchListMethod: 'searchReports',
		listPlaceholder: 'Select a report...',
		idPlaceholder: 'e.g. 610001',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of a report, e.g. 610001',
	});
}

/** Alert channel picker: its name, type and numeric ID in the list, or the ID typed. */
export function alertChannelLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Alert Channel',
		name: 'alertChannelId',
		description,
		searchListMethod: 'searchAlertChannels',
		listPlaceholder: 'Select an alert channel...',
		idPlaceholder: 'e.g. 301',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of an alert channel, e.g. 301',
	});
}

/** Alert rule picker: its name and numeric ID in the list of the tenant's rules, or the ID typed. */
export function alertRuleLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Alert Rule',
		name: 'alertRuleId',
		description,
		searchListMethod: 'searchAlertRules',
		listPlaceholder: 'Select an alert rule...',
		idPlaceholder: 'e.g. 5101',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of an alert rule, e.g. 5101',
	});
}

/** Identifier recommendation picker: what it recommends in the list, or its numeric ID typed. */
export function identifierRecommendationLocator(description: string): INodeProperties {
	return resourceLocator({
		displayName: 'Recommendation',
		name: 'recommendationId',
		description,
		searchListMethod: 'searchIdentifierRecommendations',
		listPlaceholder: 'Select a recommendation...',
		idPlaceholder: 'e.g. 9001',
		idRegex: NUMERIC_ID_REGEX,
		idErrorMessage: 'Enter the numeric ID of an identifier recommendation, e.g. 9001',
	});
}
