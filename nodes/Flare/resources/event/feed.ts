import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { leakedValueOutput, returnAllOrLimit } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { nextCursor, type Paging } from '../../shared/operation';
import { FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS } from '../../shared/paging';
import {
	boundedText,
	dateTime,
	domainName,
	emailAddress,
	guid,
	MAX_SEARCH_TEXT_LENGTH,
	optionValue,
	requiredText,
} from '../../shared/validation';

/**
 * The event feeds' search (docs/feed-endpoints.md §1–2): the form, the request body and the paging
 * shared by Search Tenant Feed, Search Identifier Feed and Search Identifier Group Feed, which differ
 * only in their path, and by Search All of Flare, whose body is the same with a required query.
 */

/** Severities from the lowest to the highest (Flare's `Severity`). */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

/** Values Flare documents for `filters.type` (the v4 OpenAPI's `SearchType`): types and categories. */
export const EVENT_TYPES: readonly string[] = [
	'account', 'actor', 'ad', 'ads', 'attachment', 'blog_content', 'blog_post', 'bot', 'bucket',
	'bucket_object', 'buckets', 'cc', 'ccbin', 'chat_message', 'cookie', 'docker', 'document',
	'domain', 'domains', 'driller', 'driller_forum_post', 'driller_forum_topic', 'driller_host',
	'driller_profile', 'experimental', 'financial_data', 'forum_content', 'forum_post',
	'forum_profile', 'forum_topic', 'google', 'illicit_networks', 'infected_devices',
	'intelligence_object', 'invalid_credential', 'leak', 'leaked_credential', 'leaked_data',
	'leaked_file', 'leaks', 'listing', 'mitigated_credential', 'open_web', 'paste', 'pii',
	'profile', 'ransomleak', 'seller', 'service', 'social_media', 'social_media_account',
	'source_code', 'source_code_files', 'source_code_secrets', 'source_code_secrets_np',
	'stack_exchange', 'stealer_log', 'valid_credential', 'whois',
]; // prettier-ignore

const severityOptions = [
	{ name: 'Critical', value: 'critical' },
	{ name: 'High', value: 'high' },
	{ name: 'Info', value: 'info' },
	{ name: 'Low', value: 'low' },
	{ name: 'Medium', value: 'medium' },
];

/** A required text field of one or more query kinds. */
function queryField(
	kinds: string[],
	field: Omit<INodeProperties, 'type' | 'default' | 'required'>,
): INodeProperties {
	return {
		type: 'string',
		required: true,
		default: '',
		...field,
		displayOptions: { show: { searchBy: kinds } },
	};
}

/** What to look for in the feed: Flare's thirteen query kinds, or none (every event). */
export const feedQueryFields: INodeProperties[] = [
	{
		displayName: 'Search By',
		name: 'searchBy',
		type: 'options',
		noDataExpression: true,
		default: 'all',
		description: 'What the events must mention; Flare searches their title, content and features',
		options: [
			{ name: 'All Events', value: 'all', description: 'No query: every event of the feed' },
			{ name: 'Azure Tenant', value: 'azure_tenant', description: 'An Azure tenant ID' },
			{ name: 'Brand', value: 'brand', description: 'A brand or company name' },
			{
				name: 'Card BIN',
				value: 'bin',
				description: 'The first 6 to 8 digits of payment cards',
			},
			{
				name: 'Credentials',
				value: 'credentials',
				description: 'A username and password leaked together',
			},
			{ name: 'Domain', value: 'domain', description: 'A domain or its subdomains' },
			{ name: 'Email', value: 'email', description: 'Exactly this e-mail address' },
			{
				name: 'GitHub Repository',
				value: 'github_repository',
				description: 'A repository, by owner and name',
			},
			{ name: 'IP', value: 'ip', description: 'An IP address' },
			{ name: 'Keyword', value: 'keyword', description: 'A word or phrase' },
			{ name: 'Name', value: 'name', description: "A person's first and last name" },
			{
				name: 'Query String',
				value: 'query_string',
				description: "Flare's search syntax, e.g. acme AND password",
			},
			{ name: 'Secret', value: 'secret', description: 'A password, API key or other secret' },
			{ name: 'Username', value: 'username', description: 'Exactly this username' },
		],
	},
	queryField(['query_string'], {
		displayName: 'Query String',
		name: 'queryString',
		placeholder: 'e.g. acme AND (password OR credentials)',
		description: "Search in Flare's query syntax, at most 10,000 characters",
	}),
	queryField(['keyword'], {
		displayName: 'Keyword',
		name: 'keyword',
		placeholder: 'e.g. acme',
		description: 'Word or phrase the events must contain',
	}),
	queryField(['domain'], {
		displayName: 'Domain',
		name: 'fqdn',
		placeholder: 'e.g. example.com',
		description: 'Domain name, without scheme or path; its subdomains match too',
	}),
	queryField(['email'], {
		displayName: 'Email',
		name: 'email',
		placeholder: 'e.g. jane@example.com',
		description: 'E-mail address the events must mention',
	}),
	queryField(['username', 'credentials'], {
		displayName: 'Username',
		name: 'username',
		placeholder: 'e.g. jane.doe',
		description: 'Username the events must mention',
	}),
	queryField(['credentials'], {
		displayName: 'Password',
		name: 'password',
		typeOptions: { password: true },
		placeholder: 'e.g. Summer2024!',
		description: 'Password leaked with the username. It is sent to Flare as typed.',
	}),
	queryField(['secret'], {
		displayName: 'Secret',
		name: 'secret',
		typeOptions: { password: true },
		placeholder: 'e.g. Summer2024!',
		description: 'Password or other secret to look for. It is sent to Flare as typed.',
	}),
	queryField(['ip'], {
		displayName: 'IP Address',
		name: 'ip',
		placeholder: 'e.g. 203.0.113.4',
		description: 'IPv4 or IPv6 address the events must mention',
	}),
	queryField(['bin'], {
		displayName: 'Card BIN',
		name: 'bin',
		placeholder: 'e.g. 468908',
		description: 'Bank identification number: the first 6 to 8 digits of a payment card',
	}),
	queryField(['brand'], {
		displayName: 'Brand',
		name: 'brand',
		placeholder: 'e.g. Acme',
		description: 'Brand or company name the events must mention',
	}),
	queryField(['name'], {
		displayName: 'First Name',
		name: 'firstName',
		placeholder: 'e.g. Jane',
		description: 'First name of the person',
	}),
	queryField(['name'], {
		displayName: 'Last Name',
		name: 'lastName',
		placeholder: 'e.g. Doe',
		description: 'Last name of the person',
	}),
	{
		displayName: 'Exact Full Name',
		name: 'exactName',
		type: 'boolean',
		default: false,
		description:
			'Whether the events must mention the full name as written, first name then last name; otherwise both names anywhere',
		displayOptions: { show: { searchBy: ['name'] } },
	},
	queryField(['github_repository'], {
		displayName: 'Repository Owner',
		name: 'repoOwner',
		placeholder: 'e.g. acme-corp',
		description: 'User or organization that owns the GitHub repository',
	}),
	queryField(['github_repository'], {
		displayName: 'Repository Name',
		name: 'repoName',
		placeholder: 'e.g. billing-service',
		description: 'Name of the GitHub repository',
	}),
	queryField(['azure_tenant'], {
		displayName: 'Azure Tenant ID',
		name: 'azureTenantId',
		placeholder: 'e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47',
		description: 'ID of the Microsoft Entra (Azure) tenant',
	}),
];

/** Severity: any, at least one severity, or exactly some of them (Flare's `filters.severity`). */
export const feedSeverityFields: INodeProperties[] = [
	{
		displayName: 'Severity',
		name: 'severityFilter',
		type: 'options',
		default: 'any',
		description: 'Which severities to return, as the tenant sees them (overrides included)',
		options: [
			{ name: 'Any', value: 'any', description: 'Events of every severity' },
			{
				name: 'At Least',
				value: 'minimum',
				description: 'Events of a severity or any higher one',
			},
			{ name: 'One Of', value: 'list', description: 'Events of exactly the chosen severities' },
		],
	},
	{
		displayName: 'Minimum Severity',
		name: 'minimumSeverity',
		type: 'options',
		default: 'high',
		description: 'Lowest severity to return',
		options: severityOptions,
		displayOptions: { show: { severityFilter: ['minimum'] } },
	},
	{
		displayName: 'Severities',
		name: 'severities',
		type: 'multiOptions',
		required: true,
		default: [],
		description: 'Severities to return',
		options: severityOptions,
		displayOptions: { show: { severityFilter: ['list'] } },
	},
];

const filterFields: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Narrow the events down',
	options: [
		{
			displayName: 'Created From',
			name: 'createdFrom',
			type: 'dateTime',
			default: '',
			description: 'Only events that Flare estimates were created at or after this time',
		},
		{
			displayName: 'Created To',
			name: 'createdTo',
			type: 'dateTime',
			default: '',
			description: 'Only events that Flare estimates were created at or before this time',
		},
		{
			displayName: 'Event Type Names or IDs',
			name: 'types',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getEventTypes' },
			default: [],
			description:
				'Kinds of events to return; a category includes all its types. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Ignored Events Only',
			name: 'ignored',
			type: 'boolean',
			default: false,
			description:
				"Whether to return only the events marked ignored. Without it, Flare's default applies: most of its docs say that ignored events are left out.",
		},
		{
			displayName: 'Materialized From',
			name: 'materializedFrom',
			type: 'dateTime',
			default: '',
			description: "Only events that entered the tenant's feed at or after this time",
		},
		{
			displayName: 'Materialized To',
			name: 'materializedTo',
			type: 'dateTime',
			default: '',
			description: "Only events that entered the tenant's feed at or before this time",
		},
		{
			displayName: 'Remediated Events Only',
			name: 'remediated',
			type: 'boolean',
			default: false,
			description:
				"Whether to return only the events marked remediated. Without it, Flare's default applies: most of its docs say that remediated events are left out.",
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'e.g. important, vip',
			description:
				'Only events with at least one of these tags, separated by commas, or an array from an expression',
		},
	],
};

/**
 * The Filters of a search of all of Flare: those its documentation lists (docs-api
 * `global-search.mdx`: severity, types, creation dates). The others are about the tenant's own feed.
 */
export const globalFilterFields: INodeProperties = {
	...filterFields,
	description: 'Narrow the events down',
	options: filterFields.options!.filter((option) =>
		['createdFrom', 'createdTo', 'types'].includes((option as INodeProperties).name),
	),
};

/**
 * The query fields of a search of all of Flare: a query is required there (OpenAPI v4
 * `GlobalSearchRequestBody`), so Search By has no "All Events" and starts on Keyword.
 */
export const globalQueryFields: INodeProperties[] = feedQueryFields.map((field) =>
	field.name === 'searchBy'
		? {
				...field,
				default: 'keyword',
				description:
					'What the events must mention; Flare searches their title, content and features. Required: Flare does not list all of its events.',
				options: (field.options as INodePropertyOptions[]).filter(
					(option) => option.value !== 'all',
				),
			}
		: field,
);

/**
 * The Filters collection. Without `materialized`, it leaves out the materialization dates: the Flare
 * Trigger sets those itself.
 */
export function feedFilterFields({ materialized }: { materialized: boolean }): INodeProperties {
	const dates = ['materializedFrom', 'materializedTo'];
	return {
		...filterFields,
		options: filterFields.options!.filter(
			(option) => materialized || !dates.includes((option as INodeProperties).name),
		),
	};
}

const optionFields: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'How the events are returned',
	options: [
		leakedValueOutput,
		{
			displayName: 'Order',
			name: 'order',
			type: 'options',
			default: 'desc',
			description: 'Order of the events by the time they entered the feed',
			options: [
				{ name: 'Newest First', value: 'desc' },
				{ name: 'Oldest First', value: 'asc' },
			],
		},
	],
};

/** The form of a feed search, after what picks the feed (e.g. the identifier). */
export const feedSearchFields: INodeProperties[] = [
	...feedQueryFields,
	...feedSeverityFields,
	...returnAllOrLimit,
	filterFields,
	optionFields,
];

// ---- the request body ----

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^(?=.*:)[0-9a-f:.]{2,45}$/i;

function ipAddress(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	const valid = IPV4.test(value) || (IPV6.test(value) && value.split('::').length <= 2);
	if (!valid) {
		throw parameterError(
			item,
			name,
			`is not an IP address: "${value}"`,
			'Enter an IPv4 or IPv6 address, e.g. 203.0.113.4 or 2001:db8::1.',
		);
	}
	return value;
}

function cardBin(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	if (!/^\d{6,8}$/.test(value)) {
		throw parameterError(
			item,
			name,
			`is not a card BIN: "${value}"`,
			'Enter the first 6 to 8 digits of a payment card, e.g. 468908.',
		);
	}
	return value;
}

/** A text of the query, at most as long as Flare's longest (`query_string`). */
const queryText = (item: FlareItem, name: string, keepSpaces = false) =>
	boundedText(item, name, MAX_SEARCH_TEXT_LENGTH, keepSpaces);

/** Each query kind's fields (named as Flare's), read and checked from its parameters. */
const QUERIES: Record<string, (item: FlareItem) => IDataObject> = {
	query_string: (item) => ({ query_string: queryText(item, 'queryString') }),
	keyword: (item) => ({ keyword: queryText(item, 'keyword') }),
	domain: (item) => ({ fqdn: domainName(item, 'fqdn') }),
	email: (item) => ({ email: emailAddress(item, 'email') }),
	username: (item) => ({ username: queryText(item, 'username') }),
	secret: (item) => ({ secret: queryText(item, 'secret', true) }),
	credentials: (item) => ({
		username: queryText(item, 'username'),
		password: queryText(item, 'password', true),
	}),
	ip: (item) => ({ ip: ipAddress(item, 'ip') }),
	bin: (item) => ({ bin: cardBin(item, 'bin') }),
	brand: (item) => ({ name: queryText(item, 'brand') }),
	name: (item) => ({
		first_name: queryText(item, 'firstName'),
		last_name: queryText(item, 'lastName'),
		is_strict: item.parameter<unknown>('exactName', false) === true,
	}),
	github_repository: (item) => ({
		repo_owner: queryText(item, 'repoOwner'),
		repo_name: queryText(item, 'repoName'),
	}),
	azure_tenant: (item) => ({ tenant_id: guid(item, 'azureTenantId') }),
};

/** A list parameter: an array (from an expression) or comma-separated text; entries trimmed, each once. */
export function textList(item: FlareItem, name: string): string[] {
	const value = item.parameter<unknown>(name, '');
	const entries = Array.isArray(value)
		? value
		: value === null || value === undefined
			? []
			: typeof value === 'object' || typeof value === 'boolean'
				? [value]
				: String(value).split(',');
	const list = entries.map((entry) => {
		if (entry === null || typeof entry === 'object' || typeof entry === 'boolean') {
			throw parameterError(
				item,
				name,
				`has an entry that is not text: ${JSON.stringify(entry)}`,
				'Enter values separated by commas, or an array of texts from an expression.',
			);
		}
		return String(entry).trim();
	});
	return [...new Set(list.filter((entry) => entry !== ''))];
}

function eventTypes(item: FlareItem): string[] {
	const types = textList(item, 'filters.types');
	const unknown = types.find((type) => !EVENT_TYPES.includes(type));
	if (unknown !== undefined) {
		throw parameterError(
			item,
			'filters.types',
			`has an unknown event type: "${unknown}"`,
			'Choose types from the list, or use the values Flare documents, e.g. leak, paste, stealer_log or illicit_networks.',
		);
	}
	return types;
}

function severityFilter(item: FlareItem): Severity | Severity[] | undefined {
	const mode = optionValue(item, 'severityFilter', ['any', 'minimum', 'list'], 'any');
	if (mode === 'minimum') return optionValue(item, 'minimumSeverity', SEVERITIES, 'high');
	if (mode === 'any') return undefined;
	const chosen = textList(item, 'severities');
	const unknown = chosen.find((value) => !SEVERITIES.includes(value as Severity));
	if (unknown !== undefined) {
		throw parameterError(
			item,
			'severities',
			`has an unknown value: "${unknown}"`,
			`Use some of: ${SEVERITIES.join(', ')}.`,
		);
	}
	if (chosen.length === 0) {
		throw parameterError(
			item,
			'severities',
			'needs at least one severity',
			"Choose severities, or set 'Severity' to Any.",
		);
	}
	return SEVERITIES.filter((severity) => chosen.includes(severity));
}

/** `{gte, lte}` of a date range, checked in order; undefined when neither bound is set. */
function dateRange(item: FlareItem, from: string, to: string): IDataObject | undefined {
	const gte = dateTime(item, from);
	const lte = dateTime(item, to);
	if (gte && lte && gte > lte) {
		throw parameterError(
			item,
			from,
			`is after ${item.displayName(to)}`,
			'Swap the two dates or widen the window.',
		);
	}
	if (!gte && !lte) return undefined;
	return { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) };
}

/** The `query` of a feed search, or undefined for every event. */
export function feedQuery(item: FlareItem): IDataObject | undefined {
	const type = item.parameter<string>('searchBy', 'all');
	if (type === 'all') return undefined;
	const fields = QUERIES[type];
	if (!fields) throw parameterError(item, 'searchBy', `has an unknown value: "${type}"`);
	return { type, ...fields(item) };
}

/** `filters` of a feed search, from Severity and the Filters collection; undefined when empty. */
export function feedFilters(item: FlareItem): IDataObject | undefined {
	const filters: IDataObject = {};
	const severity = severityFilter(item);
	if (severity !== undefined) filters.severity = severity;
	const types = eventTypes(item);
	if (types.length) filters.type = types;
	const created = dateRange(item, 'filters.createdFrom', 'filters.createdTo');
	if (created) filters.estimated_created_at = created;
	const materialized = dateRange(item, 'filters.materializedFrom', 'filters.materializedTo');
	if (materialized) filters.materialized_at = materialized;
	const tags = textList(item, 'filters.tags');
	if (tags.length) filters.tags = tags;
	if (item.parameter<unknown>('filters.ignored', false) === true) filters.is_ignored = true;
	if (item.parameter<unknown>('filters.remediated', false) === true) filters.is_remediated = true;
	return Object.keys(filters).length ? filters : undefined;
}

/** The body of a feed search (without `size` and `from`, which the walk adds). */
export function feedBody(item: FlareItem): IDataObject {
	const query = feedQuery(item);
	const filters = feedFilters(item);
	return {
		...(query ? { query } : {}),
		...(filters ? { filters } : {}),
		order: optionValue(item, 'options.order', ['desc', 'asc'], 'desc'),
	};
}

/** How to narrow a feed search, in the messages that advise asking for less. */
export const feedNarrow =
	'e.g. set Created From/To or Materialized From/To under Filters, choose Event Type Names or IDs, or a higher Severity';

/** Pages of at most 10 events; an event is its `metadata.uid`. */
export const feedPaging: Paging = {
	maxPageSize: 10,
	maxPagesWithoutNew: FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS,
	next: nextCursor,
	key: (record) => (record.metadata as IDataObject | undefined)?.uid,
};

/** Flare's fields of a feed search (as in a 422 `loc`) and the parameters they come from. */
export const feedApiFields: Record<string, string> = {
	query_string: 'queryString',
	keyword: 'keyword',
	fqdn: 'fqdn',
	email: 'email',
	username: 'username',
	password: 'password',
	secret: 'secret',
	ip: 'ip',
	bin: 'bin',
	name: 'brand',
	first_name: 'firstName',
	last_name: 'lastName',
	is_strict: 'exactName',
	repo_owner: 'repoOwner',
	repo_name: 'repoName',
	tenant_id: 'azureTenantId',
	severity: 'severityFilter',
	type: 'filters.types',
	estimated_created_at: 'filters.createdFrom',
	materialized_at: 'filters.materializedFrom',
	tags: 'filters.tags',
	is_ignored: 'filters.ignored',
	is_remediated: 'filters.remediated',
	order: 'options.order',
	size: 'limit',
};
