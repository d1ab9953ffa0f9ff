import type { INodeProperties } from 'n8n-workflow';

import {
	notice,
	returnAllOrLimit,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { credentialItems, queryFields, searchApiFields, searchBody, searchOptions } from './search';

const fields: INodeProperties[] = [
	notice(
		'astpSearchNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature on your Flare account. Unlike Search, it does not count toward the global search quota: it is paced as any other request (4 per second).',
	),
	...queryFields,
	...returnAllOrLimit,
	simplify,
	searchOptions,
];

export const searchAstpDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCredential'], operation: ['searchAstp'] } },
	fields,
);

/** The same search as Search, through ASTP: no quota, Basic rate tier, pages of up to 10,000. */
export const searchAstpOperation: FlareOperation = {
	action: 'search leaked credentials with ASTP',
	entitlement: 'ASTP',
	method: 'POST',
	path: '/astp/v2/credentials/_search',
	tier: 'basic',
	paging: { maxPageSize: 10_000, next: nextCursor, key: (record) => record.id },
	narrow: 'e.g. set Imported From/To under Options',
	properties: fields,
	apiFields: searchApiFields,
	prepare(item, request) {
		request.body = searchBody(item);
	},
	output: (item, records) => credentialItems(item, records),
};
