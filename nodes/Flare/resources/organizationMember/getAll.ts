import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, returnAllOrLimit, updateDisplayOptions } from '../../shared/descriptions';
import { unexpectedAnswer } from '../../shared/failure';
import {
	isObject,
	listUnder,
	nextCursor,
	type FlareOperation,
	type FlareResponse,
} from '../../shared/operation';
import { MAX_NAME_LENGTH, urlText } from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { ORGANIZATION_ADMIN_ONLY, organizationOf } from '../tenant/organization';

/** The notice of every Organization Member operation. */
export const MEMBERS_NEEDS =
	"For an organization administrator's API key: the members of the key's organization.";

const fields: INodeProperties[] = [
	notice('memberGetAllNotice', MEMBERS_NEEDS),
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the members that match',
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. jane@acme.com',
				description:
					"Text Flare searches the members for (its q, which Flare's docs do not describe), e.g. a name or an e-mail address",
			},
		],
	},
];

/** The members of a page (`members`), each an object; anything else fails, saying what came. */
function membersOf(response: FlareResponse): IDataObject[] {
	const list = listUnder(response, 'members', 'a list of members');
	if (!list.every(isObject)) {
		throw unexpectedAnswer(
			response.statusCode,
			"Flare's answer holds members that are not objects",
		);
	}
	return list;
}

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['organizationMember'], operation: ['getAll'] } },
	fields,
);

/**
 * The members of the API key's organization (`GET …/v2/organizations/{organization_id}/members`,
 * v2 OpenAPI: `size` (20 by default), `from`, `q`; answer `OrganizationMemberPage {members}`): one item
 * per member, `{user: {id, name, surname, email, is_disabled, …}, tenant_count}`. Flare's schema has
 * no `next`: the node follows one when Flare gives it, as its other organization lists do
 * (docs/api-contract.md, "Tenant and member administration").
 */
export const getAllOperation: FlareOperation = {
	action: 'list the members of the organization',
	method: 'GET',
	path: '/{segment}/v2/organizations/{organization_id}/members',
	tier: 'basic',
	paging: {
		maxPageSize: 100,
		documentedPageSize: 20,
		next: nextCursor,
		key: (record) => (isObject(record.user) ? record.user.id : undefined),
		records: membersOf,
	},
	outputsTenants: true,
	forbidden: ORGANIZATION_ADMIN_ONLY,
	target: () => "The API key's organization",
	properties: fields,
	apiFields: { size: 'limit', q: 'filters.search' },
	async prepare(item, request) {
		request.qs = isGiven(item, 'filters.search')
			? { q: urlText(item, 'filters.search', MAX_NAME_LENGTH) }
			: {};
		request.pathParameters.organization_id = await organizationOf(item);
	},
	output: (_item, records) => records,
};
