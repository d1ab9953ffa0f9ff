import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	identifierLocator,
	leakedValueOptions,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import { isObject, type FlareOperation } from '../../shared/operation';
import { unchangedSince } from '../../shared/records';
import { answerOf, asNodeError } from '../../shared/runner';
import {
	booleanValue,
	boundedText,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
} from '../../shared/validation';
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
			'Whether to replace what the identifier watches (its type and value); otherwise it stays as it is. A secret identifier needs it: its secret is entered again, never written back as read.',
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
	leakedValueOptions,
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['identifier'], operation: ['update'] } },
	fields,
);

/** The changes asked for, checked before anything is sent. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	if (item.parameter<unknown>('replaceData', false) === true) changes.data = identifierData(item);
	if (isGiven(item, 'updateFields.name')) {
		changes.name = boundedText(item, 'updateFields.name', MAX_NAME_LENGTH);
	}
	if (isGiven(item, 'updateFields.categories')) {
		changes.categories = categories(item, 'updateFields.categories');
	}
	if (isGiven(item, 'updateFields.severities')) {
		changes.severities = severities(item, 'updateFields.severities');
	}
	Object.assign(changes, groupOf(item, 'updateFields.groupId'));
	if (isGiven(item, 'updateFields.isDisabled')) {
		changes.is_disabled = booleanValue(item, 'updateFields.isDisabled');
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

const isTextList = (value: unknown) =>
	Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/**
 * What is wrong with a read identifier for the update to send it back, or undefined: the fields the
 * PUT requires (`data`, `categories`, `emerging_categories`, `severities`), and the ones it carries
 * over (`name`, `group_id`, `is_disabled`), each of the type Flare documents (v4 OpenAPI
 * `PublicIdentifierResponse`).
 */
function shapeProblem(record: unknown): string | undefined {
	if (!isObject(record)) return `is ${describeShape(record)}, not an identifier`;
	if (!isObject(record.data)) return "has no 'data'";
	if (typeof record.data.type !== 'string') return "has no 'data.type'";
	for (const field of ['categories', 'emerging_categories', 'severities']) {
		if (record[field] === undefined) return `has no '${field}'`;
		if (!isTextList(record[field])) return `has a '${field}' that is not a list of texts`;
	}
	const optional: Array<[string, (value: unknown) => boolean]> = [
		['name', (value) => typeof value === 'string'],
		['group_id', (value) => Number.isInteger(value)],
		['is_disabled', (value) => typeof value === 'boolean'],
	];
	for (const [field, valid] of optional) {
		const value = record[field];
		if (value !== undefined && value !== null && !valid(value))
			return `has a '${field}' of the wrong type`;
	}
	return undefined;
}

/** The identifier as Flare has it now, checked (`shapeProblem`). */
async function currentIdentifier(item: FlareItem, id: number): Promise<IDataObject> {
	const answer = await answerOf(item, getOperation);
	const problem = shapeProblem(answer.body);
	if (problem !== undefined) {
		// A failure of the read, before anything is written.
		const what = `Flare's answer to the read of identifier ${id} ${problem}, so nothing was written`;
		throw asNodeError(item, getOperation, unexpectedAnswer(answer?.statusCode ?? 200, what));
	}
	return answer!.body as IDataObject;
}

/** What the update writes back of a read, with its `updated_at`: any change to them is a conflict. */
function versionOf(record: IDataObject): string {
	const {
		updated_at,
		data,
		name,
		categories,
		emerging_categories,
		severities,
		group_id,
		is_disabled,
	} = record;
	return JSON.stringify([
		updated_at,
		data,
		name,
		categories,
		emerging_categories,
		severities,
		group_id,
		is_disabled,
	]);
}

/**
 * Flare's update replaces the identifier whole (data, categories, emerging categories and severities
 * are required), so the node reads the identifier first and sends it back with the changes: fields
 * left out keep their current values (docs/api-contract.md, "Updating an identifier"). Updates of one
 * identifier run one at a time in the n8n process; to narrow the window in which a change made
 * elsewhere would be overwritten, it reads the identifier again just before the write and writes
 * nothing if it changed (records.ts). A secret identifier's value is never written back as read:
 * Flare does not say whether it reads it back in clear.
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
	record: (item) => `identifier:${locatorInteger(item, 'identifierId')}`,
	async prepare(item, request) {
		const id = locatorInteger(item, 'identifierId');
		request.pathParameters.identifier_id = id;
		const changes = changesOf(item);
		const current = await currentIdentifier(item, id);
		if ((current.data as IDataObject).type === 'secret' && changes.data === undefined) {
			throw parameterError(
				item,
				'replaceData',
				`must be on to update identifier ${id}, a secret`,
				"Flare's docs do not say whether a secret is read back in clear, so the node never writes back the secret it read. Turn on Replace What It Watches and enter the secret again.",
			);
		}
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
		const reread = async () => await currentIdentifier(item, id);
		await unchangedSince(item, `Identifier ${id}`, current, reread, versionOf);
	},
	output: (_item, records) => records,
};
