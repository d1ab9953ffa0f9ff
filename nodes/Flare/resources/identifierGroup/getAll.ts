import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import { unexpectedAnswer } from '../../shared/failure';
import {
	isObject,
	listUnder,
	type FlareOperation,
	type FlareResponse,
} from '../../shared/operation';

const fields: INodeProperties[] = [];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['getAll'] } },
	fields,
);

/**
 * The groups of an answer: Flare lists them all in one answer, under `assets_groups` (v2 OpenAPI;
 * docs/api-contract.md, "Response and onboarding endpoints"). Anything else is not read as "no
 * groups": it fails, saying what came.
 */
function groupsOf(response: FlareResponse): IDataObject[] {
	const list = listUnder(response, 'assets_groups', 'a list of identifier groups');
	if (!list.every(isObject)) {
		throw unexpectedAnswer(
			response.statusCode,
			"Flare's answer holds identifier groups that are not objects",
		);
	}
	return list;
}

/** The identifier groups of the tenant, one item each. */
export const getAllOperation: FlareOperation = {
	action: 'list identifier groups',
	method: 'GET',
	path: '/{segment}/v2/assets/groups/',
	tier: 'basic',
	properties: fields,
	output: (_item, _records, response) => groupsOf(response),
};
