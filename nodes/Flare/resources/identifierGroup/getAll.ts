import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';

const fields: INodeProperties[] = [];

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['identifierGroup'], operation: ['getAll'] } },
	fields,
);

/**
 * The identifier groups of the tenant, one item each. Flare lists them all in one answer, under
 * `assets_groups` (v2 OpenAPI; docs/api-contract.md, "Identifier groups").
 */
export const getAllOperation: FlareOperation = {
	action: 'list identifier groups',
	method: 'GET',
	path: '/{segment}/v2/assets/groups/',
	tier: 'basic',
	properties: fields,
	output: (_item, records) =>
		records.flatMap((record) =>
			Array.isArray(record.assets_groups)
				? (record.assets_groups as unknown[]).filter(
						(group): group is IDataObject => !!group && typeof group === 'object',
					)
				: [],
		),
};
