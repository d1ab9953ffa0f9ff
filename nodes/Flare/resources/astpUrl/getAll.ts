import type { INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { credentialHash } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'astpUrlNotice',
		'Needs the ASTP (Account & Session Takeover Prevention) feature on your Flare account.',
	),
	{
		displayName: 'Credential Hash',
		name: 'credentialHash',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 43804850e72d054f3648660557330630',
		description:
			'The credential_hash of a leaked credential, as returned by Leaked Credential → Search',
	},
	...returnAllOrLimit,
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['astpUrl'], operation: ['getAll'] } },
	fields,
);

export const getAllOperation: FlareOperation = {
	action: 'get the URLs of a credential',
	entitlement: 'ASTP',
	method: 'POST',
	path: '/astp/urls/by_credential_hash',
	tier: 'basic',
	paging: { maxPageSize: 5_000, next: nextCursor, key: (record) => record.url },
	properties: fields,
	apiFields: { credential_hash: 'credentialHash', size: 'limit' },
	prepare(item, request) {
		request.body = { credential_hash: credentialHash(item, 'credentialHash') };
	},
	output: (_item, records) => records,
};
