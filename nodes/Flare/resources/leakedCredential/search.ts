import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	notice,
	returnAllOrLimit,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { simplifyCredential } from '../../shared/output';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { quotaFields } from '../../shared/quota';
import {
	dateTime,
	domainName,
	emailAddress,
	optionValue,
	optionValues,
	requiredText,
} from '../../shared/validation';

/** What to look for: the query form shared by Search and the Flare Trigger. */
export const queryFields: INodeProperties[] = [
	{
		displayName: 'Search By',
		name: 'queryType',
		type: 'options',
		noDataExpression: true,
		default: 'domain',
		description: 'What to look for in the leaked credentials',
		options: [
			{
				name: 'Auth Domain',
				value: 'auth_domain',
				description: 'Domain of a service where the credential may have been used to log in',
			},
			{
				name: 'Domain',
				value: 'domain',
				description: 'Domain of the e-mail address of the credential',
			},
			{ name: 'Email', value: 'email', description: 'Exactly this e-mail address' },
			{
				name: 'Keyword',
				value: 'keyword',
				description: 'Username: the part of the identity before the @',
			},
			{
				name: 'Secret',
				value: 'secret',
				description: 'A password, to find every identity that leaked it',
			},
		],
	},
	{
		displayName: 'Domain',
		name: 'fqdn',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. example.com',
		description: 'Domain name, without scheme or path',
		displayOptions: { show: { queryType: ['domain', 'auth_domain'] } },
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. jane@example.com',
		description: 'E-mail address whose leaked credentials to find',
		displayOptions: { show: { queryType: ['email'] } },
	},
	{
		displayName: 'Keyword',
		name: 'keyword',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. john.doe',
		description: 'Username to look for (the part of the identity before the @)',
		displayOptions: { show: { queryType: ['keyword'] } },
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		placeholder: 'e.g. Summer2024!',
		description: 'Password to look for. It is sent to Flare as typed.',
		displayOptions: { show: { queryType: ['secret'] } },
	},
];

/** Filters and output settings of a credential search (global or ASTP). */
export const searchOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Filters and output settings of the search',
	options: [
		{
			displayName: 'Imported From',
			name: 'importedFrom',
			type: 'dateTime',
			default: '',
			description: 'Only credentials imported into Flare at or after this time',
		},
		{
			displayName: 'Imported To',
			name: 'importedTo',
			type: 'dateTime',
			default: '',
			description: 'Only credentials imported into Flare at or before this time',
		},
		{
			displayName: 'Include',
			name: 'include',
			type: 'multiOptions',
			default: [],
			description: 'Extra data to add to each credential',
			options: [
				{
					name: 'Auth Domains',
					value: 'auth_domains',
					description: 'Up to 100 hosts where the credential was seen used',
				},
				{
					name: 'Known Password ID',
					value: 'known_password_id',
					description: "ID of the credential's password",
				},
				{
					name: 'URLs',
					value: 'urls',
					description: 'Up to 100 full URLs where the credential was seen used (raw output only)',
				},
			],
		},
		leakedValueOutput,
		{
			displayName: 'Order',
			name: 'order',
			type: 'options',
			default: 'desc',
			description: 'Order of the results by import time',
			options: [
				{ name: 'Newest First', value: 'desc' },
				{ name: 'Oldest First', value: 'asc' },
			],
		},
	],
};

const fields: INodeProperties[] = [
	notice(
		'searchQuotaNotice',
		"Global searches count toward your organization's monthly quota: Flare counts one search per 100 results, and the same search repeated or adjusted within 10 minutes is not counted again. A Limit asks for just that many results; Return All asks for 100 first, then pages of 10,000 only if there are more (measured: 1 search for 3 results, 301 for 30,000). Search rate limit: 1 request per second.",
	),
	...queryFields,
	...returnAllOrLimit,
	simplify,
	searchOptions,
];

export const searchDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCredential'], operation: ['search'] } },
	fields,
);

const INCLUDE = ['auth_domains', 'known_password_id', 'urls'] as const;

/** Each query type's parameter (named as Flare's field), read and checked as that type needs. */
const QUERY_VALUE: Record<string, (item: FlareItem) => string> = {
	domain: (item) => domainName(item, 'fqdn'),
	auth_domain: (item) => domainName(item, 'fqdn'),
	email: (item) => emailAddress(item, 'email'),
	keyword: (item) => requiredText(item, 'keyword'),
	secret: (item) => requiredText(item, 'secret', true),
};
const QUERY_FIELD: Record<string, string> = { domain: 'fqdn', auth_domain: 'fqdn' };

/**
 * The `query` of a global credential search, from Search By and its value, checked before anything is
 * sent (shared by Search and the Flare Trigger).
 */
export function searchQuery(item: FlareItem): IDataObject {
	const type = item.parameter<string>('queryType', 'domain');
	const value = QUERY_VALUE[type];
	if (!value) throw parameterError(item, 'queryType', `has an unknown value: "${type}"`);
	return { type, [QUERY_FIELD[type] ?? type]: value(item) };
}

/** Flare's fields of a credential search body (as in a 422 `loc`) and the parameters they come from. */
export const searchApiFields: Record<string, string> = {
	fqdn: 'fqdn',
	email: 'email',
	keyword: 'keyword',
	secret: 'secret',
	size: 'limit',
	gte: 'options.importedFrom',
	lte: 'options.importedTo',
	include: 'options.include',
	order: 'options.order',
};

/** The body of a credential search (global or ASTP) without paging, checked before anything is sent. */
export function searchBody(item: FlareItem): IDataObject {
	const query = searchQuery(item);
	const gte = dateTime(item, 'options.importedFrom');
	const lte = dateTime(item, 'options.importedTo');
	if (gte && lte && gte > lte) {
		const after = `is after ${item.displayName('options.importedTo')}`;
		throw parameterError(
			item,
			'options.importedFrom',
			after,
			'Swap the two dates or widen the window.',
		);
	}
	const include = optionValues(item, 'options.include', INCLUDE);
	return {
		query,
		...(gte || lte
			? { filters: { imported_at: { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) } } }
			: {}),
		...(include.length ? { include } : {}),
		order: optionValue(item, 'options.order', ['desc', 'asc'], 'desc'),
	};
}

/** Output items of a credential search: simplified or raw (the runner protects the leaked values). */
export function credentialItems(item: FlareItem, records: IDataObject[]): IDataObject[] {
	if (!item.parameter<boolean>('simplify', true)) return records;
	return records.map(simplifyCredential);
}

export const searchOperation: FlareOperation = {
	action: 'search leaked credentials',
	method: 'POST',
	path: '/{segment}/v4/credentials/global/_search',
	tier: 'search',
	paging: {
		maxPageSize: 10_000,
		firstPageSize: 100,
		// Each page may cost quota units, and nothing filters this search's pages after selection.
		maxPagesWithoutNew: 3,
		next: nextCursor,
		key: (record) => record.id,
	},
	narrow: 'e.g. set Imported From/To under Options',
	properties: fields,
	apiFields: searchApiFields,
	prepare(item, request) {
		request.body = searchBody(item);
	},
	output(item, records, response) {
		const quota = quotaFields(response);
		return credentialItems(item, records).map((result) => Object.assign(result, quota));
	},
};
