import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { optionValue, requiredText } from '../../shared/validation';

const FIELDS = ['cookies', 'credentials'] as const;

const fields: INodeProperties[] = [
	notice('expandStealerLogBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. stealer_log/russian_market/1010076',
		description:
			'UID of a stealer log event (e.g. the metadata.uid of a feed search, or the event_uid of a leaked cookie)',
	},
	{
		displayName: 'List',
		name: 'expandField',
		type: 'options',
		default: 'cookies',
		description: 'What to list of the stealer log: one output item each',
		options: [
			{
				name: 'Cookies',
				value: 'cookies',
				description: 'The browser cookies the malware stole: host, path, name, expiry and value',
			},
			{
				name: 'Credentials',
				value: 'credentials',
				description: 'The saved logins the malware stole: URL, username, password and application',
			},
		],
	},
	...returnAllOrLimit,
	leakedValueOptions,
];

export const expandStealerLogDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['expandStealerLog'] } },
	fields,
);

/**
 * The cookies or the credentials of a stealer log, page by page (`GET …/events/_expand`, at most 20
 * a page): one output item per cookie or credential, with the event's UID as `event_uid`, its
 * cookie value or password masked by default.
 */
export const expandStealerLogOperation: FlareOperation = {
	action: 'expand the stealer log',
	method: 'GET',
	path: '/{segment}/v4/events/_expand',
	tier: 'basic',
	// Entries have no id: told apart by content, so that a page repeated under a new cursor is no
	// progress (docs/api-contract.md, "Expand a stealer log").
	paging: { maxPageSize: 20, next: nextCursor, key: (record) => JSON.stringify(record) },
	properties: fields,
	// A cookie's value is a secret whatever else its entry has (a credential has no `value`).
	outputsCookies: true,
	apiFields: { uid: 'uid', field: 'expandField', size: 'limit' },
	target: (item) => `Event '${String(item.parameter('uid', ''))}'`,
	prepare(item, request) {
		request.qs = {
			field: optionValue(item, 'expandField', FIELDS, 'cookies'),
			uid: requiredText(item, 'uid'),
		};
	},
	output(item, records) {
		const uid = requiredText(item, 'uid');
		return records.map((record) => ({ ...record, event_uid: uid }));
	},
};
