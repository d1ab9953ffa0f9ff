import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { matchingPolicyLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import { isObject, type FlareOperation } from '../../shared/operation';
import { unchangedSince } from '../../shared/records';
import { answerOf, asNodeError } from '../../shared/runner';
import { locatorLabel, locatorUuid, requiredText } from '../../shared/validation';
import { getOperation } from './get';
import {
	POLICY_TYPES,
	policyApiFields,
	policyOfAnswer,
	policyValueChanges,
	policyValuesGiven,
	policyValueUpdateFields,
} from './policy';

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

/** What keeps a read policy from being sent back (its name, type and value), if anything. */
function shapeProblem(record: unknown): string | undefined {
	if (!isObject(record)) return `is ${describeShape(record)}, not a matching policy`;
	if (typeof record.name !== 'string') return "has no 'name'";
	if (!POLICY_TYPES.includes(record.policy_type as (typeof POLICY_TYPES)[number])) {
		return "has no 'policy_type' of the five documented";
	}
	if (!isObject(record.value)) return "has no 'value'";
	return undefined;
}

/** What the update writes back of a read policy, with its `updated_at`: a change is a conflict. */
const policyVersion = ({ name, policy_type, value, updated_at }: IDataObject) =>
	JSON.stringify([name, policy_type, value, updated_at]);

/** The policy as Flare has it now, checked (`shapeProblem`). */
async function currentPolicy(item: FlareItem, uuid: string): Promise<IDataObject> {
	const answer = await answerOf(item, getOperation);
	const problem = shapeProblem(answer.body);
	if (problem !== undefined) {
		// A failure of the read, before anything is written.
		const what = `Flare's answer to the read of matching policy ${uuid} ${problem}, so nothing was written`;
		throw asNodeError(item, getOperation, unexpectedAnswer(answer?.statusCode ?? 200, what));
	}
	return answer!.body as IDataObject;
}

/**
 * Flare's update replaces the name and the value (both required), so the node reads the policy
 * first and sends it back with the changes, as Identifier → Update does (docs/api-contract.md,
 * "Updating a matching policy"): updates of one policy run one at a time in the n8n process, and the
 * policy is read again just before the write, which does not happen if it changed (records.ts).
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
	record: (item) => `matchingPolicy:${locatorUuid(item, 'policyUuid')}`,
	async prepare(item, request) {
		const uuid = locatorUuid(item, 'policyUuid');
		request.pathParameters.policy_uuid = uuid;
		const name =
			item.parameter<unknown>('updateFields.name', null) === null
				? undefined
				: requiredText(item, 'updateFields.name');
		// Every value is checked before the read; whether it fits the policy's type, after it.
		const given = policyValuesGiven(item, 'updateFields.');
		if (name === undefined && Object.keys(given).length === 0) {
			throw parameterError(
				item,
				'updateFields',
				'has nothing to change',
				'Add a field to change under Update Fields.',
			);
		}
		const current = await currentPolicy(item, uuid);
		const value = policyValueChanges(item, String(current.policy_type), 'updateFields.', given);
		request.body = {
			name: name ?? current.name,
			value: { ...(current.value as IDataObject | undefined), ...value },
		};
		const reread = async () => await currentPolicy(item, uuid);
		await unchangedSince(item, `Matching policy ${uuid}`, current, reread, policyVersion);
	},
	output: (_item, _records, response) => policyOfAnswer(response),
};
