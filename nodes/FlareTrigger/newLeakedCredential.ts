import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	queryFields,
	searchOperation,
	searchQuery,
} from '../Flare/resources/leakedCredential/search';
import { jsonWithin } from '../Flare/shared/body';
import {
	leakedValueOutput,
	notice,
	simplify,
	updateDisplayOptions,
} from '../Flare/shared/descriptions';
import type { FlareItem } from '../Flare/shared/item';
import { backfillOption } from './backfill';
import { MAX_RECORDS_PER_POLL, type Watch } from './watch';
import { digest } from './state';

/** Trigger kind "New Leaked Credential": the global credential search (docs/api-contract.md, "Flare Trigger"). */
export const leakedCredentialFields: INodeProperties[] = updateDisplayOptions(
	{ show: { event: ['newLeakedCredential'] } },
	[
		notice(
			'triggerQuotaNotice',
			"Each poll runs global searches, which count toward your organization's monthly quota (Flare counts the searches of one query within 10 minutes as one, per 100 results). Measured, with up to 1,000 new credentials a day: polling every 15 minutes uses about 2,900 searches a month, every 5 minutes about 4,100, every minute about 4,300. Each credential is emitted once, as one item.",
		),
		...queryFields,
		simplify,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [backfillOption('credentials', 'imported'), leakedValueOutput],
		},
	],
);

/**
 * What identifies a credential: its id; else a digest of its `credential_hash`; else a digest of what
 * describes it, so that a credential without an id is still emitted once. Keys stay short (state.ts).
 */
export function credentialKey(record: IDataObject): string {
	if (typeof record.id === 'number' || (typeof record.id === 'string' && record.id !== '')) {
		return String(record.id);
	}
	if (typeof record.credential_hash === 'string' && record.credential_hash !== '') {
		return `c:${digest(record.credential_hash)}`;
	}
	const described = [
		record.identity_name,
		record.source_id,
		record.imported_at,
		record.domain,
		record.hash,
	];
	return `d:${digest(jsonWithin(described))}`;
}

/**
 * Results a poll asks for per page. A poll usually finds few; and if Flare counts the results asked
 * for, ten one-minute polls and a sweep ask for fewer than 100 within its 10 minutes: one unit.
 */
export const CREDENTIAL_PAGE_SIZE = 5;

/** The matching credentials Flare imports, by `imported_at`. */
export function leakedCredentialWatch(item: FlareItem): Watch {
	const query = searchQuery(item);
	return {
		operation: searchOperation,
		asked: query,
		body: (gte) => ({ query, filters: { imported_at: { gte } }, order: 'asc' }),
		newest: { query, order: 'desc' },
		keyOf: credentialKey,
		arrivedAt: (record) => record.imported_at,
		pageSize: CREDENTIAL_PAGE_SIZE,
		maxRecords: MAX_RECORDS_PER_POLL,
		output: async (record, response) => searchOperation.output(item, [record], response)[0],
	};
}
