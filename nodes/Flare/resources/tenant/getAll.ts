import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import { isObject, type FlareOperation, type FlareResponse } from '../../shared/operation';

const fields: INodeProperties[] = [
	notice(
		'tenantIdNotice',
		"Each tenant's ID is what the Tenant field of the Flare node and trigger takes (or the credential's Tenant ID), to work in that tenant.",
	),
];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['getAll'] } },
	fields,
);

/**
 * The tenants of an answer: `{ tenants: [...] }` (as the Splunk app reads it) or a bare array, each
 * tenant an object (docs/api-contract.md, "Inventory and credential endpoints"). Anything else is
 * not read as "no tenants": it fails, saying what came.
 */
export function tenantsOf({ body, statusCode }: FlareResponse): IDataObject[] {
	const list = isObject(body) ? body.tenants : body;
	if (!Array.isArray(list)) {
		const what = !isObject(body)
			? describeShape(body)
			: body.tenants === undefined
				? "an object without 'tenants'"
				: `an object whose 'tenants' is ${describeShape(body.tenants)}`;
		throw unexpectedAnswer(statusCode, `Flare answered with ${what}, not a list of tenants`);
	}
	if (!list.every(isObject)) {
		throw unexpectedAnswer(statusCode, "Flare's answer holds tenants that are not objects");
	}
	return list;
}

/** The tenants the API key's user can work in: one item per tenant, `{ id, name }`. */
export const getAllOperation: FlareOperation = {
	action: 'list tenants',
	method: 'GET',
	path: '/{segment}/v2/me/tenants',
	tier: 'basic',
	outputsTenants: true,
	properties: fields,
	output: (_item, _records, response) => tenantsOf(response),
};
