import type { INodeProperties } from 'n8n-workflow';

import { memberLocator, notice, updateDisplayOptions } from '../../shared/descriptions';
import { unexpectedAnswer } from '../../shared/failure';
import { recordOfAnswer, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { ORGANIZATION_ADMIN_ONLY, organizationOf } from '../tenant/organization';
import { MEMBERS_NEEDS } from './getAll';

/**
 * Enable and Disable: `POST …/members/{user_id}/enable` or `/disable` (no body; answer `EnableState
 * {is_disabled}`): one item `{userId, is_disabled}`, the state Flare answers, which must be the one
 * asked for.
 */
function stateChange(operation: 'enable' | 'disable'): {
	description: INodeProperties[];
	operation: FlareOperation;
} {
	const fields: INodeProperties[] = [
		notice(
			`member${operation === 'enable' ? 'Enable' : 'Disable'}Notice`,
			operation === 'disable'
				? `${MEMBERS_NEEDS} A disabled member can no longer sign in to Flare, e.g. a leaver; Enable gives the access back.`
				: MEMBERS_NEEDS,
		),
		memberLocator(`Member to ${operation}: pick them by name, or enter their user ID`),
	];
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['organizationMember'], operation: [operation] } },
			fields,
		),
		operation: {
			action: `${operation} the member`,
			method: 'POST',
			path: `/{segment}/v2/organizations/{organization_id}/members/{user_id}/${operation}`,
			tier: 'basic',
			write: true,
			outputsTenants: true,
			forbidden: ORGANIZATION_ADMIN_ONLY,
			properties: fields,
			apiFields: { user_id: 'userId' },
			target: (item) => `Member ${locatorLabel(item, 'userId')}`,
			// Under the lock of Update (records.ts): an update reads the state it then checks.
			record: (item) => `member:${locatorInteger(item, 'userId')}`,
			async prepare(item, request) {
				request.pathParameters.user_id = locatorInteger(item, 'userId');
				request.pathParameters.organization_id = await organizationOf(item);
			},
			output: (item, _records, response) => {
				const [{ is_disabled }] = recordOfAnswer(response, ['is_disabled'], "the member's state");
				// An offboarding relies on it: an answer that does not show the new state fails the item.
				if (is_disabled !== (operation === 'disable')) {
					throw unexpectedAnswer(
						response.statusCode,
						`Flare answered that member ${locatorInteger(item, 'userId')} has is_disabled ${JSON.stringify(is_disabled)}`,
					);
				}
				return [{ userId: locatorInteger(item, 'userId'), is_disabled }];
			},
		},
	};
}

export const enable = stateChange('enable');
export const disable = stateChange('disable');
