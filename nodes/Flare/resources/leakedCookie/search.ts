import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	notice,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { dateTime, domainName, optionValue, requiredText } from '../../shared/validation';
import { textList } from '../event/feed';

/** Most names, and most paths, Flare takes in one search. */
const MAX_NAMES_OR_PATHS = 10;

const fields: INodeProperties[] = [
	notice(
		'cookieSearchNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature, with cookie monitoring enabled for your tenant by Flare Support. It is not a global search, so the package takes it not to count toward the global search quota (Flare says so of the ASTP credential search only).',
	),
	{
		displayName: 'Domain',
		name: 'domain',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. example.com',
		description:
			'Exact domain whose leaked cookies to find, without scheme or path; its subdomains are not included. Browsers store the cookies that a domain shares with its subdomains with a leading dot, e.g. .example.com: search that one too.',
	},
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the cookies that match all of these',
		options: [
			{
				displayName: 'Expires After',
				name: 'expiresAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only cookies that expire after this time, e.g. {{ $now }} for those that may still open a session',
			},
			{
				displayName: 'Imported After',
				name: 'importedAfter',
				type: 'dateTime',
				default: '',
				description: "Only cookies added to Flare's data after this time",
			},
			{
				displayName: 'Names',
				name: 'names',
				type: 'string',
				default: '',
				placeholder: 'e.g. session, PHPSESSID',
				description:
					'Only cookies of these names (at most 10), separated by commas, or an array from an expression',
			},
			{
				displayName: 'Paths',
				name: 'paths',
				type: 'string',
				default: '',
				placeholder: 'e.g. /, /login',
				description:
					'Only cookies of these paths (at most 10), separated by commas, or an array from an expression',
			},
			{
				displayName: 'Value',
				name: 'value',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				placeholder: 'e.g. 5f0c2a9e4b7d1c83',
				description:
					'Only cookies with exactly this value, e.g. to check whether a session of your app leaked. It is sent to Flare as typed.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Order and output settings',
		options: [
			leakedValueOutput,
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'asc',
				description: 'Order of the cookies by import time; oldest first picks up new ones later',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
			},
		],
	},
];

export const searchDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCookie'], operation: ['search'] } },
	fields,
);

/** Names or paths: at most 10, each once. */
export function shortList(item: FlareItem, name: string): string[] {
	const list = textList(item, name);
	if (list.length > MAX_NAMES_OR_PATHS) {
		throw parameterError(
			item,
			name,
			`has ${list.length} entries, at most ${MAX_NAMES_OR_PATHS}`,
			'Split the search into several items.',
		);
	}
	return list;
}

/** The search's body without paging, checked before anything is sent. */
function searchBody(item: FlareItem): IDataObject {
	const names = shortList(item, 'filters.names');
	const paths = shortList(item, 'filters.paths');
	const value = item.parameter<unknown>('filters.value', '');
	const importedAfter = dateTime(item, 'filters.importedAfter');
	const expiresAfter = dateTime(item, 'filters.expiresAfter');
	return {
		domain: domainName(item, 'domain', { leadingDot: true }),
		...(names.length ? { names } : {}),
		...(paths.length ? { paths } : {}),
		// Flare takes one value at most.
		...(value === '' || value === null
			? {}
			: { values: [requiredText(item, 'filters.value', true)] }),
		...(importedAfter ? { imported_after: importedAfter } : {}),
		...(expiresAfter ? { expires_after: expiresAfter } : {}),
		order: optionValue(item, 'options.order', ['asc', 'desc'], 'asc'),
	};
}

/**
 * Leaked session cookies of a domain (ASTP `POST /astp/v2/cookies/_search`, pages of up to 2,000):
 * one item per cookie, its value masked by default.
 */
export const searchOperation: FlareOperation = {
	action: 'search leaked cookies',
	entitlement: 'ASTP',
	method: 'POST',
	path: '/astp/v2/cookies/_search',
	tier: 'basic',
	paging: { maxPageSize: 2_000, next: nextCursor, key: (record) => record.uuid },
	narrow: 'e.g. set Imported After or Expires After, Names or Paths under Filters',
	properties: fields,
	apiFields: {
		domain: 'domain',
		names: 'filters.names',
		paths: 'filters.paths',
		values: 'filters.value',
		imported_after: 'filters.importedAfter',
		expires_after: 'filters.expiresAfter',
		order: 'options.order',
		size: 'limit',
	},
	prepare(item, request) {
		request.body = searchBody(item);
	},
	// Every record is a cookie: its value is masked even when Flare leaves out its other fields.
	outputsCookies: true,
	output: (_item, records) => records,
};
