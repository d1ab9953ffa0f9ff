import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { boundedText, MAX_NAME_LENGTH, optionValue } from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { industryField, INDUSTRIES, MAX_DESCRIPTION_LENGTH } from './fields';
import { ORGANIZATION_ADMIN_ONLY, organizationOf, tenantOfAnswer } from './organization';

const fields: INodeProperties[] = [
	notice(
		'tenantCreateNotice',
		"For an organization administrator's API key. The new tenant is in the key's organization; its ID is what the Tenant field takes, e.g. to add identifiers to it next.",
	),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Corporation',
		description: 'Name of the new tenant, e.g. the client it monitors',
	},
	industryField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'More about the new tenant',
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Monitoring of Acme, contract 2027-04',
				description: "The tenant's purpose",
			},
		],
	},
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['create'] } },
	fields,
);

/**
 * A new tenant of the API key's organization (`POST …/v2/organizations/{organization_id}/tenants`,
 * v2 OpenAPI `NewTenantInfo {name, description, industry}`; the organization from `GET
 * /tokens/test`): the tenant as Flare answers it (`Tenant`).
 */
export const createOperation: FlareOperation = {
	action: 'create the tenant',
	method: 'POST',
	path: '/{segment}/v2/organizations/{organization_id}/tenants',
	tier: 'basic',
	write: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	target: () => "The API key's organization",
	properties: fields,
	apiFields: { name: 'name', industry: 'industry', description: 'additionalFields.description' },
	async prepare(item, request) {
		const body = {
			name: boundedText(item, 'name', MAX_NAME_LENGTH),
			industry: optionValue(item, 'industry', INDUSTRIES, 'global'),
			...(isGiven(item, 'additionalFields.description')
				? {
						description: boundedText(
							item,
							'additionalFields.description',
							MAX_DESCRIPTION_LENGTH,
						),
					}
				: {}),
		};
		request.pathParameters.organization_id = await organizationOf(item);
		request.body = body;
	},
	output: (_item, _records, response) => tenantOfAnswer(response),
};
