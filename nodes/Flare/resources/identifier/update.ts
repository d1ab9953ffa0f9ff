import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifierLocator, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { callFlare } from '../../shared/runner';
import { locatorInteger, locatorLabel, requiredText } from '../../shared/validation';
import { identifierApiFields } from './create';
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
import { getOperation } from './get';

const fields: INodeProperties[] = [
	identifierLocator('Identifier to update: pick it by name, or enter its numeric ID'),
	{
		displayName: 'Replace What It Watches',
		name: 'replaceData',
		type: 'boolean',
		default: false,
		description:
			'Whether to replace what the identifier watches (its type and value); otherwise it stays as it is',
	},
	...updateDisplayOptions({ show: { replaceData: [true] } }, dataFields),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The settings to change; the others keep their current values',
		options: [
			categoriesField,
			{
				displayName: 'Disabled',
				name: 'isDisabled',
				type: 'boolean',
				default: false,
				description: 'Whether the identifier is disabled: Flare stops matching events for it',
			},
			groupIdField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Main website',
				description: 'Name shown in Flare',
			},
			severitiesField,
		],
	},
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['update'] } },
	fields,
);

/** The changes asked for, checked before anything is sent. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	if (item.parameter<unknown>('replaceData', false) === true) changes.data = identifierData(item);
	if (isGiven(item, 'updateFields.name')) changes.name = requiredText(item, 'updateFields.name');
	if (isGiven(item, 'updateFields.categories')) {
		changes.categories = categories(item, 'updateFields.categories');
	}
	if (isGiven(item, 'updateFields.severities')) {
		changes.severities = severities(item, 'updateFields.severities');
	}
	Object.assign(changes, groupOf(item, 'updateFields.groupId'));
	if (isGiven(item, 'updateFields.isDisabled')) {
		const disabled = item.parameter<unknown>('updateFields.isDisabled');
		if (typeof disabled !== 'boolean') {
			throw parameterError(item, 'updateFields.isDisabled', 'must be true or false');
		}
		changes.is_disabled = disabled;
	}
	if (Object.keys(changes).length === 0) {
		throw parameterError(
			item,
			'updateFields',
			'has nothing to change',
			'Add a field to change under Update Fields, or turn on Replace What It Watches.',
		);
	}
	return changes;
}

/** The identifier as Flare has it now. */
async function currentIdentifier(item: FlareItem): Promise<IDataObject> {
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
 * Flare's update replaces the identifier whole (data, categories, emerging categories and severities
 * are required), so the node reads the identifier first and sends it back with the changes: fields
 * left out keep their current values.
 */
export const updateOperation: FlareOperation = {
	action: 'update the identifier',
	method: 'PUT',
	path: '/{segment}/v4/identifiers/{identifier_id}',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		...identifierApiFields,
		identifier_id: 'identifierId',
		categories: 'updateFields.categories',
		severities: 'updateFields.severities',
		name: 'updateFields.name',
		group_id: 'updateFields.groupId',
		is_disabled: 'updateFields.isDisabled',
	},
	target: (item) => `Identifier ${locatorLabel(item, 'identifierId')}`,
	async prepare(item, request) {
		request.pathParameters.identifier_id = locatorInteger(item, 'identifierId');
		const changes = changesOf(item);
		const current = await currentIdentifier(item);
		request.body = {
			data: current.data,
			name: current.name,
			categories: current.categories,
			emerging_categories: current.emerging_categories,
			severities: current.severities,
			group_id: current.group_id,
			is_disabled: current.is_disabled,
			...changes,
		};
	},
	output: (_item, records) => records,
};
