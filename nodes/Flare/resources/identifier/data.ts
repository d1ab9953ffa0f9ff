import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import { identifierGroupLocator } from '../../shared/descriptions';
import type { FlareItem } from '../../shared/item';
import {
	boundedText,
	domainName,
	guid,
	MAX_NAME_LENGTH,
	MAX_SEARCH_TEXT_LENGTH,
	optionalLocatorInteger,
	optionValue,
	optionValues,
	requiredText,
} from '../../shared/validation';

/**
 * What an identifier watches (its `data`, nine kinds), and the categories and severities it alerts
 * on: the form fields and their checks, shared by Create, Update and Get Many (docs/feed-endpoints.md
 * §9). Every value is checked before anything is sent, as strictly as Flare checks it.
 */

/** The kinds of identifier (`data.type`), as the v4 API names them. */
export const IDENTIFIER_TYPES = [
	'azure_tenant',
	'bin',
	'domain',
	'github_repository',
	'identity',
	'ip',
	'keyword',
	'search_query',
	'secret',
] as const;
type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

export const identifierTypeOptions: INodePropertyOptions[] = [
	{
		name: 'Azure Tenant',
		value: 'azure_tenant',
		description: 'A Microsoft Entra ID (Azure) tenant, by its ID',
	},
	{
		name: 'BIN',
		value: 'bin',
		description: 'A bank identification number: the first 6 to 8 digits of payment cards',
	},
	{ name: 'Domain', value: 'domain', description: 'A domain and its subdomains' },
	{ name: 'GitHub Repository', value: 'github_repository', description: 'A GitHub repository' },
	{
		name: 'Identity',
		value: 'identity',
		description: 'A person: e-mail addresses, names and usernames',
	},
	{ name: 'IP Address', value: 'ip', description: 'An IPv4 or IPv6 address, or a network' },
	{ name: 'Keyword', value: 'keyword', description: 'A word or phrase, such as a brand name' },
	{ name: 'Search Query', value: 'search_query', description: 'A query in Flare’s search syntax' },
	{ name: 'Secret', value: 'secret', description: 'A secret, such as an API key, to find leaked' },
];

/** Event types and categories an identifier can alert on (the v4 `SearchType`). */
const CATEGORIES = [
	'attachment', 'listing', 'ransomleak', 'forum_post', 'forum_topic', 'forum_profile',
	'blog_post', 'seller', 'paste', 'leak', 'chat_message', 'domain', 'bot', 'stealer_log',
	'infected_devices', 'driller', 'driller_forum_topic', 'driller_forum_post', 'driller_profile',
	'cc', 'ccbin', 'financial_data', 'leaked_data', 'leaked_file', 'document', 'account', 'actor',
	'forum_content', 'blog_content', 'profile', 'leaked_credential', 'valid_credential',
	'invalid_credential', 'mitigated_credential', 'illicit_networks', 'open_web', 'domains',
	'intelligence_object', 'leaks', 'social_media_account', 'social_media', 'source_code',
	'source_code_secrets_np', 'source_code_secrets', 'source_code_files', 'docker',
	'stack_exchange', 'google', 'service', 'driller_host', 'buckets', 'bucket', 'bucket_object',
	'whois', 'ad', 'ads', 'cookie', 'pii', 'experimental',
] as const; // prettier-ignore

const ACRONYMS: Record<string, string> = {
	cc: 'CC',
	ccbin: 'CC BIN',
	np: 'NP',
	pii: 'PII',
	whois: 'WHOIS',
};

/** "leaked_credential" → "Leaked Credential". */
const titleOf = (value: string) =>
	value
		.split('_')
		.map((word) => ACRONYMS[word] ?? word[0].toUpperCase() + word.slice(1))
		.join(' ');

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

/** Severities from the lowest to the highest: the order in which they are sent. */
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

export const categoriesField: INodeProperties = {
	displayName: 'Categories',
	name: 'categories',
	type: 'multiOptions',
	default: [],
	description: 'Kinds of events the identifier alerts on, e.g. Leaked Credential, Stealer Log',
	options: CATEGORIES.map((value) => ({ name: titleOf(value), value })).sort(byName),
};

export const severitiesField: INodeProperties = {
	displayName: 'Severities',
	name: 'severities',
	type: 'multiOptions',
	default: [...SEVERITIES],
	description: 'Severities of the events the identifier alerts on',
	options: SEVERITIES.map((value) => ({ name: titleOf(value), value })).sort(byName),
};

/** The identifier group: picked by name, or its numeric ID typed (a plain ID saved earlier still works). */
export const groupIdField: INodeProperties = identifierGroupLocator(
	'Identifier group to put it in: pick it by name, or enter its numeric ID',
	{ required: false },
);

const show = (type: IdentifierType) => ({ show: { identifierType: [type] } });

/** Type and value of what the identifier watches: one value field per kind. */
export const dataFields: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'identifierType',
		type: 'options',
		default: 'domain',
		description: 'What kind of thing the identifier watches',
		options: identifierTypeOptions,
	},
	{
		displayName: 'Domain',
		name: 'fqdn',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. example.com',
		description: 'Domain to watch, with its subdomains; without scheme or path',
		displayOptions: show('domain'),
	},
	{
		displayName: 'Keyword',
		name: 'keyword',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. acme',
		description: 'Word or phrase to watch, such as a brand or product name',
		displayOptions: show('keyword'),
	},
	{
		displayName: 'IP Address',
		name: 'ip',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 203.0.113.7 or 203.0.113.0/24',
		description: 'IPv4 or IPv6 address to watch, or a network in CIDR notation',
		displayOptions: show('ip'),
	},
	{
		displayName: 'BIN',
		name: 'bin',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 412345',
		description:
			'Bank identification number: the first 6 to 8 digits of the payment cards to watch',
		displayOptions: show('bin'),
	},
	{
		displayName: 'Azure Tenant ID',
		name: 'azureTenantId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47',
		description: 'ID of the Microsoft Entra ID (Azure) tenant to watch',
		displayOptions: show('azure_tenant'),
	},
	{
		displayName: 'Search Query',
		name: 'searchQuery',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. "acme corp" AND password',
		description: 'Query to watch, in the syntax of Flare’s search',
		displayOptions: show('search_query'),
	},
	{
		displayName: 'Repository Owner',
		name: 'repoOwner',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. acme',
		description: 'User or organization that owns the GitHub repository',
		displayOptions: show('github_repository'),
	},
	{
		displayName: 'Repository Name',
		name: 'repoName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. website',
		description: 'Name of the GitHub repository, without its owner',
		displayOptions: show('github_repository'),
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		placeholder: 'e.g. AKIAIOSFODNN7EXAMPLE',
		description: 'Secret to watch for in leaks, such as an API key. It is sent to Flare as typed.',
		displayOptions: show('secret'),
	},
	{
		displayName: 'Attributes',
		name: 'identityAttributes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		default: {},
		placeholder: 'Add Attribute',
		description: 'E-mail addresses, names and usernames of the person to watch (1 to 15 in all)',
		displayOptions: show('identity'),
		options: [
			{
				displayName: 'Email',
				name: 'emails',
				values: [
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						default: '',
						placeholder: 'e.g. jane@example.com',
						description: 'E-mail address of the person',
					},
				],
			},
			{
				displayName: 'Name',
				name: 'names',
				values: [
					{
						displayName: 'First Name',
						name: 'firstName',
						type: 'string',
						default: '',
						placeholder: 'e.g. Jane',
						description: 'First name of the person',
					},
					{
						displayName: 'Last Name',
						name: 'lastName',
						type: 'string',
						default: '',
						placeholder: 'e.g. Doe',
						description: 'Last name of the person',
					},
					{
						displayName: 'Strict',
						name: 'strict',
						type: 'boolean',
						default: false,
						description: 'Whether Flare matches only this exact name, without variants',
					},
				],
			},
			{
				displayName: 'Username',
				name: 'usernames',
				values: [
					{
						displayName: 'Username',
						name: 'username',
						type: 'string',
						default: '',
						placeholder: 'e.g. jdoe',
						description: 'Username of the person',
					},
				],
			},
		],
	},
];

const IPV4_PART = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^(?:${IPV4_PART}\\.){3}${IPV4_PART}$`);
const BIN = /^\d{6,8}$/;
/** E-mail addresses as Flare's `format: email` takes them (ASCII, no quoted or odd local parts). */
const EMAIL_LOCAL_PART = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+.-]{0,63}[A-Za-z0-9_+-]$/;
const EMAIL_DOMAIN = /^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/i;
/** GitHub's own rules for account and repository names. */
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPOSITORY = /^[A-Za-z0-9._-]{1,100}$/;
/** Most attributes an identity identifier may have. */
const MAX_ATTRIBUTES = 15;

/** An IPv6 address: URL's own parser decides (no zone index), with a strict embedded IPv4. */
function isIpv6(text: string): boolean {
	if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return false;
	const tail = text.slice(text.lastIndexOf(':') + 1);
	if (tail.includes('.') && !IPV4.test(tail)) return false;
	try {
		new URL(`http://[${text}]/`);
		return true;
	} catch {
		return false;
	}
}

function ipAddress(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	const [address, prefix, ...rest] = value.split('/');
	const bits = IPV4.test(address) ? 32 : isIpv6(address) ? 128 : 0;
	const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
	if (bits === 0 || !prefixOk || rest.length > 0) {
		throw parameterError(
			item,
			name,
			`is not an IP address or network: "${value}"`,
			'Enter an IPv4 or IPv6 address such as 203.0.113.7, or a network such as 203.0.113.0/24.',
		);
	}
	return value;
}

function matching(item: FlareItem, name: string, pattern: RegExp, what: string, hint: string) {
	const value = requiredText(item, name);
	if (!pattern.test(value)) throw parameterError(item, name, `is not ${what}: "${value}"`, hint);
	return value;
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The attributes of an identity: e-mails, then names, then usernames, 1 to 15 in all. */
function identityAttributes(item: FlareItem): IDataObject[] {
	const name = 'identityAttributes';
	const hint = 'Add e-mail addresses, names or usernames of the person (1 to 15 in all).';
	const fail = (problem: string) => parameterError(item, name, problem, hint);
	const value = item.parameter<unknown>(name, {});
	if (!isObject(value)) throw fail('must be a list of e-mail addresses, names and usernames');
	const entriesOf = (group: string): IDataObject[] => {
		const entries = value[group] ?? [];
		if (!Array.isArray(entries) || !entries.every(isObject)) {
			throw fail(`has a "${group}" entry that is not a list of attributes`);
		}
		return entries;
	};
	const text = (entry: IDataObject, key: string, what: string): string => {
		const raw = entry[key];
		const trimmed = typeof raw === 'string' ? raw.trim() : '';
		if (trimmed === '') throw fail(`has an empty ${what}`);
		if (trimmed.length > MAX_NAME_LENGTH) {
			throw fail(`has a ${what} of ${trimmed.length} characters; at most ${MAX_NAME_LENGTH}`);
		}
		return trimmed;
	};
	const attributes: IDataObject[] = [
		...entriesOf('emails').map((entry) => {
			const email = text(entry, 'email', 'e-mail address');
			const at = email.lastIndexOf('@');
			if (
				at < 1 ||
				!EMAIL_LOCAL_PART.test(email.slice(0, at)) ||
				!EMAIL_DOMAIN.test(email.slice(at + 1))
			) {
				throw fail(`has an e-mail address that is not valid: "${email}"`);
			}
			return { type: 'email', email };
		}),
		...entriesOf('names').map((entry) => {
			const strict = entry.strict ?? false;
			if (typeof strict !== 'boolean') throw fail('has a name whose Strict is not true or false');
			return {
				type: 'name',
				first_name: text(entry, 'firstName', 'first name'),
				last_name: text(entry, 'lastName', 'last name'),
				is_strict: strict,
			};
		}),
		...entriesOf('usernames').map((entry) => ({
			type: 'username',
			username: text(entry, 'username', 'username'),
		})),
	];
	if (attributes.length === 0) throw fail('needs at least one e-mail address, name or username');
	if (attributes.length > MAX_ATTRIBUTES) {
		throw fail(`has ${attributes.length} attributes; Flare takes at most ${MAX_ATTRIBUTES}`);
	}
	return attributes;
}

/** What the identifier watches (`data`), from Type and its value fields, checked. */
export function identifierData(item: FlareItem): IDataObject {
	const type = optionValue(item, 'identifierType', IDENTIFIER_TYPES, 'domain');
	switch (type) {
		case 'domain':
			return { type, fqdn: domainName(item, 'fqdn') };
		case 'keyword':
			return { type, keyword: boundedText(item, 'keyword', MAX_SEARCH_TEXT_LENGTH) };
		case 'ip':
			return { type, ip: ipAddress(item, 'ip') };
		case 'bin':
			return {
				type,
				bin: matching(item, 'bin', BIN, 'a BIN', 'Enter the first 6 to 8 digits, e.g. 412345.'),
			};
		case 'azure_tenant':
			return { type, tenant_id: guid(item, 'azureTenantId') };
		case 'search_query':
			return { type, search_query: boundedText(item, 'searchQuery', MAX_SEARCH_TEXT_LENGTH) };
		case 'github_repository':
			return {
				type,
				repo_owner: matching(
					item,
					'repoOwner',
					GITHUB_OWNER,
					'a GitHub user or organization name',
					'Enter the owner alone, e.g. acme for github.com/acme/website.',
				),
				repo_name: matching(
					item,
					'repoName',
					GITHUB_REPOSITORY,
					'a GitHub repository name',
					'Enter the repository alone, e.g. website for github.com/acme/website.',
				),
			};
		case 'secret':
			return { type, secret: boundedText(item, 'secret', MAX_SEARCH_TEXT_LENGTH, true) };
		case 'identity':
			return { type, attributes: identityAttributes(item) };
	}
}

/** Categories chosen in `name`: at least one, each once. */
export function categories(item: FlareItem, name: string): string[] {
	const values = optionValues(item, name, CATEGORIES);
	if (values.length === 0) {
		throw parameterError(item, name, 'needs at least one category', 'Pick what to alert on.');
	}
	return values;
}

/** Severities chosen in `name`: at least one, sent from the lowest to the highest. */
export function severities(item: FlareItem, name: string): string[] {
	const values = optionValues(item, name, SEVERITIES);
	if (values.length === 0) {
		throw parameterError(item, name, 'needs at least one severity', 'Pick what to alert on.');
	}
	return SEVERITIES.filter((severity) => values.includes(severity));
}

/** `{ group_id }` when the identifier group `name` is given, else nothing. */
export function groupOf(item: FlareItem, name: string): IDataObject {
	const groupId = optionalLocatorInteger(item, name);
	return groupId === undefined ? {} : { group_id: groupId };
}

/** Whether a collection option holds a value to use (shared/validation.ts; kept here for the operations that import it from here). */
export { isGiven } from '../../shared/validation';
