import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { memberLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import {
	isObject,
	recordUnder,
	type FlareOperation,
	type FlareResponse,
} from '../../shared/operation';
import { readBackError, shown } from '../../shared/records';
import { answerOf, asNodeError } from '../../shared/runner';
import {
	boundedText,
	emailAddress,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
} from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { ORGANIZATION_ADMIN_ONLY, organizationOf } from '../tenant/organization';
import { getOperation } from './get';
import { MEMBERS_NEEDS } from './getAll';

const fields: INodeProperties[] = [
	notice(
		'memberUpdateNotice',
		`${MEMBERS_NEEDS} The node reads the member first and sends back their name, surname and e-mail with the changes; it sends no permissions, and fails the item if Flare's answer shows a disabled member enabled again.`,
	),
	memberLocator('Member to update: pick them by name, or enter their user ID'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The details to change; the others keep their current values',
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				placeholder: 'e.g. jane.doe@acme.com',
				description: "The member's e-mail address",
			},
			{
				displayName: 'First Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Jane',
				description: "The member's first name (Flare's name)",
			},
			{
				displayName: 'Last Name',
				name: 'surname',
				type: 'string',
				default: '',
				placeholder: 'e.g. Doe',
				description: "The member's last name (Flare's surname)",
			},
		],
	},
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['organizationMember'], operation: ['update'] } },
	fields,
);

/** The changes asked for, checked before anything is sent. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	for (const name of ['name', 'surname']) {
		if (isGiven(item, `updateFields.${name}`)) {
			changes[name] = boundedText(item, `updateFields.${name}`, MAX_NAME_LENGTH);
		}
	}
	if (isGiven(item, 'updateFields.email')) changes.email = emailAddress(item, 'updateFields.email');
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

/** Whether each item's member was disabled when read (undefined: the read did not say). */
const disabledWhenRead = new WeakMap<FlareItem, boolean | undefined>();

/** The `user` of a `{member: {user, …}}` answer; anything else fails, saying what came. */
function userOf(response: FlareResponse): IDataObject {
	const [member] = recordUnder(response, 'member', 'a member');
	if (!isObject(member.user)) {
		throw unexpectedAnswer(
			response.statusCode,
			`Flare answered with a member whose 'user' is ${describeShape(member.user)}, not the member's details`,
		);
	}
	return member.user;
}

/** The member's user as Flare has it now. */
async function currentUser(item: FlareItem): Promise<IDataObject> {
	const answer = await answerOf(item, getOperation);
	try {
		return userOf(answer);
	} catch (error) {
		throw asNodeError(item, getOperation, error);
	}
}

/**
 * Fails the item when Flare's answer to the update shows a member who was disabled when read enabled
 * again, or does not show their state: Flare's `OrganizationMember` body has `is_disabled` (v2 OpenAPI
 * line 6182), which the node does not send, and its docs do not say whether the update keeps it.
 */
function checkState(item: FlareItem, [member]: IDataObject[]): void {
	const before = disabledWhenRead.get(item);
	const after = isObject(member?.user) ? member.user.is_disabled : undefined;
	if (before === undefined || after === before || (before === false && after === undefined)) return;
	const id = locatorInteger(item, 'userId');
	const now = after === undefined ? 'does not show whether they are still disabled' : `shows them ${after ? 'disabled' : 'enabled'}`;
	throw readBackError(
		item,
		`Member ${id} was updated, but Flare's answer ${now}`,
		`They were ${before ? 'disabled' : 'enabled'} when read, just before the update (is_disabled ${String(before)}; Flare's answer: ${shown(after)}). Flare's docs do not say whether an update keeps a member's state: check them in Flare, and ${before ? 'disable them again (Organization Member → Disable)' : 'enable them again (Organization Member → Enable)'} if needed.`,
	);
}

/**
 * Changes a member's name, surname or e-mail (`PUT …/organizations/{organization_id}/members/{user_id}`,
 * v2 OpenAPI body `OrganizationMember`, nothing required). Flare does not say whether fields left
 * out are kept, so the node reads the member first and sends back their name, surname and e-mail
 * with the changes, never their permissions; updates of one member, and their Enable and Disable, run
 * one at a time in the n8n process (records.ts). The member as Flare answers it, which must show them
 * as disabled as they were (`checkState`).
 */
export const updateOperation: FlareOperation = {
	action: 'update the member',
	method: 'PUT',
	path: '/{segment}/v2/organizations/{organization_id}/members/{user_id}',
	tier: 'basic',
	write: true,
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	properties: fields,
	apiFields: {
		user_id: 'userId',
		name: 'updateFields.name',
		surname: 'updateFields.surname',
		email: 'updateFields.email',
	},
	target: (item) => `Member ${locatorLabel(item, 'userId')}`,
	record: (item) => `member:${locatorInteger(item, 'userId')}`,
	async prepare(item, request) {
		request.pathParameters.user_id = locatorInteger(item, 'userId');
		const changes = changesOf(item);
		request.pathParameters.organization_id = await organizationOf(item);
		const current = await currentUser(item);
		const disabled = current.is_disabled;
		disabledWhenRead.set(item, typeof disabled === 'boolean' ? disabled : undefined);
		const kept: IDataObject = {};
		for (const key of ['name', 'surname', 'email']) {
			if (typeof current[key] === 'string') kept[key] = current[key];
		}
		request.body = { ...kept, ...changes };
	},
	output: (_item, _records, response) => recordUnder(response, 'member', 'a member'),
	readBack: async (item, outputs) => checkState(item, outputs),
};
