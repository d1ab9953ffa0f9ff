import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';

const fields: INodeProperties[] = [
	notice(
		'tenantIdNotice',
		"Each tenant's ID is what the Tenant ID field of the Flare API credential takes, to work in that tenant.",
	),
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['getAll'] } },
	fields,
);

/** The tenants the API key's user can work in: one item per tenant, `{ id, name }`. */
export const getAllOperation: FlareOperation = {
	action: 'list tenants',
	method: 'GET',
	path: '/{segment}/v2/me/tenants',
	tier: 'basic',
	properties: fields,
	// Flare answers `{ tenants: [...] }`, not a page of items.
	output: (_item, records) =>
		records.flatMap((record) =>
			Array.isArray(record.tenants) ? (record.tenants as IDataObject[]) : [],
		),
};
