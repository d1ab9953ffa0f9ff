import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { searchOperation, shortList } from '../Flare/resources/leakedCookie/search';
import { jsonWithin } from '../Flare/shared/body';
import { leakedValueOutput, notice, updateDisplayOptions } from '../Flare/shared/descriptions';
import type { FlareItem } from '../Flare/shared/item';
import { domainName } from '../Flare/shared/validation';
import { backfillOption } from './backfill';
import { MAX_RECORDS_PER_POLL, type Watch } from './watch';
import { digest, instantOf } from './state';

/**
 * Trigger kind "New Leaked Cookie": ASTP's leaked cookies of one domain, by import time, as Flare's
 * cookie-monitoring guide and template read them (docs/api-contract.md, "Flare Trigger").
 */
export const newLeakedCookieFields: INodeProperties[] = updateDisplayOptions(
	{ show: { event: ['newLeakedCookie'] } },
	[
		notice(
			'cookieTriggerNotice',
			'Needs the ASTP (Account & Session Takeover Prevention) feature, with cookie monitoring enabled for your tenant by Flare Support. Each cookie is emitted once, as one item, its value masked unless Leaked Value Output says otherwise.',
		),
		{
			displayName: 'Domain',
			name: 'domain',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. app.example.com',
			description:
				'Exact domain whose leaked cookies to watch, without scheme or path; its subdomains are not included (add a trigger per domain). Browsers store the cookies that a domain shares with its subdomains with a leading dot, e.g. .example.com: watch that one too.',
		},
		{
			displayName: 'Cookie Names',
			name: 'names',
			type: 'string',
			default: '',
			placeholder: 'e.g. session, PHPSESSID',
			description:
				"Only cookies of these names (at most 10), separated by commas, e.g. your app's session cookies; empty: every cookie of the domain",
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				backfillOption('cookies', 'imported'),
				{
					displayName: 'Include Expired Cookies',
					name: 'includeExpired',
					type: 'boolean',
					default: false,
					description:
						"Whether to emit cookies whose expiry date had passed when the trigger found them. Off: only those that may still open a session (no expiry date, or one to come), as in Flare's cookie-monitoring template.",
				},
				leakedValueOutput,
			],
		},
	],
);

/** What identifies a leaked cookie: a digest of its `uuid` (else of the cookie), so that keys stay short (state.ts). */
export function cookieKey(record: IDataObject): string {
	if (typeof record.uuid === 'string' && record.uuid !== '') return `k:${digest(record.uuid)}`;
	return `d:${digest(jsonWithin(record))}`;
}

/**
 * Cookies read per page. The search costs no quota and takes up to 2,000, but the page the trigger
 * resumes at is read again at each poll and its keys are kept to skip it (poll.ts `MAX_LAST_PAGE`,
 * 50 with those of the page before): pages of 25 leave room for both. At Flare's Basic pace that is
 * 100 cookies a second, and a poll reads at most 1,000.
 */
export const COOKIE_PAGE_SIZE = 25;

/**
 * `imported_after` for an arrival at or after `gte`: Flare's docs say "after", so the node asks from
 * one microsecond before, which keeps a cookie imported at `gte` itself (docs/api-contract.md, "Flare
 * Trigger").
 */
export function importedAfter(gte: string): string {
	const ms = instantOf(gte);
	return `${new Date(ms - 1).toISOString().slice(0, -1)}999Z`;
}

/** Whether a cookie may still open a session at `now`: no expiry date, or one still to come. */
export function notExpired(record: IDataObject, now: number): boolean {
	const expires = instantOf(record.expires_at);
	return record.expires_at === null || record.expires_at === undefined || !(expires <= now);
}

/** The leaked cookies of the domain that Flare imports, by `imported_at`. */
export function newLeakedCookieWatch(item: FlareItem): Watch {
	const domain = domainName(item, 'domain', { leadingDot: true });
	const names = shortList(item, 'names');
	const includeExpired = item.parameter<unknown>('options.includeExpired', false) === true;
	const query = { domain, ...(names.length ? { names } : {}) };
	return {
		operation: searchOperation,
		// Include Expired Cookies filters what is found, not the search: the search goes on.
		asked: query,
		body: (gte) => ({ ...query, imported_after: importedAfter(gte), order: 'asc' }),
		newest: { ...query, order: 'desc' },
		keyOf: cookieKey,
		arrivedAt: (record) => record.imported_at,
		pageSize: COOKIE_PAGE_SIZE,
		maxRecords: MAX_RECORDS_PER_POLL,
		...(includeExpired ? {} : { wanted: notExpired }),
		output: async (record) => record,
	};
}
