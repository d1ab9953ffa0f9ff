import type { INodeProperties } from 'n8n-workflow';

import { leakedValueOptions, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { maskValue } from '../../shared/masking';
import { boundedText, MAX_NAME_LENGTH } from '../../shared/validation';
import {
	categories,
	categoriesField,
	dataFields,
	groupIdField,
	groupOf,
	identifierData,
	isGiven,
	severities,
	severitiesField,
} from './data';

const fields: INodeProperties[] = [
	...dataFields,
	{ ...categoriesField, required: true },
	severitiesField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Optional settings of the new identifier',
		options: [
			groupIdField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Main website',
				description:
					'Name shown in Flare. By default Flare may name it by what it watches; for a secret, the node sends "Secret" and the first and last characters of the secret instead.',
			},
		],
	},
	leakedValueOptions,
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['create'] } },
	fields,
);

/** Flare's fields (as in a 422 `loc`) and the parameters they come from, for Create and Update. */
export const identifierApiFields: Record<string, string> = {
	data: 'identifierType',
	type: 'identifierType',
	fqdn: 'fqdn',
	keyword: 'keyword',
	ip: 'ip',
	bin: 'bin',
	tenant_id: 'azureTenantId',
	search_query: 'searchQuery',
	repo_owner: 'repoOwner',
	repo_name: 'repoName',
	secret: 'secret',
	attributes: 'identityAttributes',
};

/**
 * The name of a secret identifier created without one: Flare may name an identifier by what it
 * watches, which would show the secret wherever the identifier is named (docs/api-contract.md,
 * "Masking").
 */
function secretIdentifierName(secret: string): string {
	return `Secret ${maskValue(secret.trim()) as string}`;
}

export const createOperation: FlareOperation = {
	action: 'create the identifier',
	method: 'POST',
	path: '/{segment}/v4/identifiers/',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		...identifierApiFields,
		categories: 'categories',
		severities: 'severities',
		name: 'additionalFields.name',
		group_id: 'additionalFields.groupId',
	},
	prepare(item, request) {
		const data = identifierData(item);
		request.body = {
			data,
			...(isGiven(item, 'additionalFields.name')
				? { name: boundedText(item, 'additionalFields.name', MAX_NAME_LENGTH) }
				: data.type === 'secret'
					? { name: secretIdentifierName(data.secret as string) }
					: {}),
			categories: categories(item, 'categories'),
			// Not offered in the form: Flare documents no values for them.
			emerging_categories: [],
			severities: severities(item, 'severities'),
			...groupOf(item, 'additionalFields.groupId'),
		};
	},
	output: (_item, records) => records,
};
