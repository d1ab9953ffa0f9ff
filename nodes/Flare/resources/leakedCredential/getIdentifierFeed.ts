import type { INodeProperties } from 'n8n-workflow';

import {
	identifierLocator,
	leakedValueOptions,
	returnAllOrLimit,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { simplifyTenantCredential } from './getTenantFeed';

const fields: INodeProperties[] = [
	identifierLocator(
		'Identifier whose leaked credentials to list: pick it by name, or enter its numeric ID',
	),
	...returnAllOrLimit,
	simplify,
	leakedValueOptions,
];

export const getIdentifierFeedDescription = updateDisplayOptions(
	{ show: { resource: ['leakedCredential'], operation: ['getIdentifierFeed'] } },
	fields,
);

/**
 * The leaked credentials that match one identifier, with the tenant's remediated and ignored states
 * (`GET …/v3/identifiers/{id}/feed/credentials`, the records of Get Tenant Feed).
 */
export const getIdentifierFeedOperation: FlareOperation = {
	action: 'get the leaked credentials of the identifier',
	method: 'GET',
	path: '/{segment}/v3/identifiers/{identifier_id}/feed/credentials',
	tier: 'basic',
	paging: {
		maxPageSize: 100,
		documentedPageSize: 20,
		next: nextCursor,
		key: (record) => record.id,
	},
	properties: fields,
	apiFields: { identifier_id: 'identifierId', size: 'limit' },
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
	},
	output: (item, records) =>
		item.parameter<boolean>('simplify', true) ? records.map(simplifyTenantCredential) : records,
};
