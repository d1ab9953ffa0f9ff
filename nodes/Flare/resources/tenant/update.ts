import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, targetTenantLocator, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { answerOf, asNodeError } from '../../shared/runner';
import {
	booleanValue,
	boundedText,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
	optionValue,
} from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { industryField, INDUSTRIES, MAX_DESCRIPTION_LENGTH } from './fields';
import { getOperation } from './get';
import { ORGANIZATION_ADMIN_ONLY, tenantOfAnswer } from './organization';

const fields: INodeProperties[] = [
	notice(
		'tenantUpdateNotice',
		"For an organization administrator's API key. Flare replaces the tenant's settings whole: the node reads them first, so those left out keep their values.",
	),
	targetTenantLocator('Tenant to update: pick it among the tenants of the organization, or enter its ID'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The settings to change; the others keep their current values',
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Monitoring of Acme, contract 2027-04',
				description: "The tenant's purpose",
			},
			{
				displayName: 'Global Search Limit',
				name: 'globalSearchCallsLimit',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					"How many global searches the tenant may make (Flare's global_search_calls_limit: \"the number of API calls allowed for the tenant\")",
			},
			industryField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme Corporation',
				description: 'Name of the tenant',
			},
			{
				displayName: 'Number of Employees',
				name: 'numberOfEmployees',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Number of employees of the organization the tenant monitors',
			},
			{
				displayName: 'Prevent Global Search',
				name: 'preventGlobalSearch',
				type: 'boolean',
				default: false,
				description: 'Whether the tenant may not make global searches at all',
			},
		],
	},
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['update'] } },
	fields,
);

/** A whole number of at least 0 (a count or a limit). */
function count(item: FlareItem, name: string): number {
	const value = item.parameter<unknown>(name, 0);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1) {
		throw parameterError(
			item,
			name,
			`must be a whole number of at least 0, not ${JSON.stringify(value) ?? String(value)}`,
		);
	}
	return value;
}

/** The changes asked for, checked before anything is sent. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	if (isGiven(item, 'updateFields.name')) {
		changes.name = boundedText(item, 'updateFields.name', MAX_NAME_LENGTH);
	}
	if (isGiven(item, 'updateFields.description')) {
		changes.description = boundedText(item, 'updateFields.description', MAX_DESCRIPTION_LENGTH);
	}
	if (isGiven(item, 'updateFields.industry')) {
		changes.industry = optionValue(item, 'updateFields.industry', INDUSTRIES, 'global');
	}
	if (isGiven(item, 'updateFields.numberOfEmployees')) {
		changes.number_of_employees = count(item, 'updateFields.numberOfEmployees');
	}
	if (isGiven(item, 'updateFields.globalSearchCallsLimit')) {
		changes.global_search_calls_limit = count(item, 'updateFields.globalSearchCallsLimit');
	}
	if (isGiven(item, 'updateFields.preventGlobalSearch')) {
		changes.prevent_global_search = booleanValue(item, 'updateFields.preventGlobalSearch');
	}
	if (Object.keys(changes).length === 0) {
		throw parameterError(
			item,
			'updateFields',
			'has nothing to change',
			'Add a field to change under Update Fields.',
		);
	}
	return changes;
}

/** The fields Flare's update requires (v2 OpenAPI `TenantData`), by the form field that sets each. */
const REQUIRED: Record<string, string> = {
	name: 'updateFields.name',
	description: 'updateFields.description',
	industry: 'updateFields.industry',
	number_of_employees: 'updateFields.numberOfEmployees',
};

/**
 * The optional fields of `TenantData` sent back as read, when the read shows them with their type:
 * `prevent_global_search` is in Flare's `Tenant` (v2 OpenAPI line 6067), the limit is not, but is kept
 * if a read gives it. Left out, Flare might reset them, as it replaces the settings whole.
 */
const KEPT_AS_READ: Record<string, 'boolean' | 'number'> = {
	prevent_global_search: 'boolean',
	global_search_calls_limit: 'number',
};

/** The tenant as Flare has it now. */
async function currentTenant(item: FlareItem): Promise<IDataObject> {
	const answer = await answerOf(item, getOperation);
	try {
		return tenantOfAnswer(answer)[0];
	} catch (error) {
		throw asNodeError(item, getOperation, error);
	}
}

/**
 * Flare's update replaces the tenant's settings (`PUT /{segment}/v2/tenants/{tenant_id}`, v2 OpenAPI
 * `TenantData`: name, description, industry and number of employees required), so the node reads the
 * tenant first and sends its settings back with the changes, Prevent Global Search and the global-
 * search limit too where the read shows them; updates of one tenant run one at a time in the n8n
 * process (records.ts) (docs/api-contract.md).
 */
export const updateOperation: FlareOperation = {
	action: 'update the tenant',
	method: 'PUT',
	path: '/{segment}/v2/tenants/{tenant_id}',
	tier: 'basic',
	write: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: {
		tenant_id: 'targetTenantId',
		...Object.fromEntries(Object.entries(REQUIRED)),
		global_search_calls_limit: 'updateFields.globalSearchCallsLimit',
		prevent_global_search: 'updateFields.preventGlobalSearch',
	},
	target: (item) => `Tenant ${locatorLabel(item, 'targetTenantId')}`,
	record: (item) => `tenant:${locatorInteger(item, 'targetTenantId')}`,
	async prepare(item, request) {
		const id = locatorInteger(item, 'targetTenantId');
		request.pathParameters.tenant_id = id;
		const changes = changesOf(item);
		const current = await currentTenant(item);
		const body: IDataObject = {};
		for (const [key, name] of Object.entries(REQUIRED)) {
			const value = changes[key] ?? current[key];
			if (value === undefined || value === null) {
				throw parameterError(
					item,
					name,
					`must be set: Flare's update of a tenant needs it, and its read of tenant ${id} does not give it`,
					`Add '${item.displayName(name)}' under Update Fields.`,
				);
			}
			body[key] = value;
		}
		for (const [key, type] of Object.entries(KEPT_AS_READ)) {
			if (typeof current[key] === type) body[key] = current[key];
		}
		request.body = { ...body, ...changes };
	},
	output: (_item, _records, response) => tenantOfAnswer(response),
};
