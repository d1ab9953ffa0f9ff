import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { callFlare } from '../../shared/runner';
import { locatorLabel, locatorUuid, requiredText } from '../../shared/validation';
import { getOperation } from './get';
import { policyApiFields, policyValueChanges, policyValueUpdateFields } from './policy';

const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Terms to ignore',
	description: 'Name of the matching policy, as shown in Flare',
};

const fields: INodeProperties[] = [
	notice('updatePolicyBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator('Matching policy to update: pick it by name, or enter its UUID'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'What to change; the rest keeps its current value. The type cannot change: only the fields of its type apply.',
		options: [...policyValueUpdateFields, nameField].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	},
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['update'] } },
	fields,
);

/** The policy as Flare has it now. */
async function currentPolicy(item: FlareItem): Promise<IDataObject> {
	let current: IDataObject | undefined;
	await callFlare(item, getOperation, {
		onPage(records) {
			current = records[0];
			return false;
		},
	});
	return current ?? {};
}

/**
 * Flare's update replaces the name and the value (both required), so the node reads the policy
 * first and sends it back with the changes, as Identifier → Update does (docs/api-contract.md,
 * "Updating a matching policy"). A change made in Flare in between is overwritten.
 */
export const updateOperation: FlareOperation = {
	action: 'update the matching policy',
	method: 'PUT',
	path: '/{segment}/v4/matching-policies/{policy_uuid}',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: { ...policyApiFields('updateFields.'), policy_uuid: 'policyUuid' },
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')}`,
	async prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
		const name =
			item.parameter<unknown>('updateFields.name', null) === null
				? undefined
				: requiredText(item, 'updateFields.name');
		const hasValueChange = Object.entries(policyApiFields('updateFields.')).some(
			([field, parameter]) => field !== 'name' && item.parameter<unknown>(parameter, null) !== null,
		);
		if (name === undefined && !hasValueChange) {
			throw parameterError(
				item,
				'updateFields',
				'has nothing to change',
				'Add a field to change under Update Fields.',
			);
		}
		const current = await currentPolicy(item);
		const value = policyValueChanges(item, String(current.policy_type), 'updateFields.');
		request.body = {
			name: name ?? current.name,
			value: { ...(current.value as IDataObject | undefined), ...value },
		};
	},
	output: (_item, records) => records,
};
