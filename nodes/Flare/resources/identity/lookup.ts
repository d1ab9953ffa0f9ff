import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOutput, notice, returnAllOrLimit, simplify } from '../../shared/descriptions';
import { protectLeakedValues, simplifyIdentity, type LeakedValueOutput } from '../../shared/output';
import type { FlareOperation } from '../../shared/pagination';

/** Fields and behaviour shared by the two deprecated identity lookups (by password, by keyword). */
export const identityLookupFields: INodeProperties[] = [
	notice(
		'identityDeprecatedNotice',
		'Deprecated by Flare: replaced by the ASTP credential search (/astp/v2/credentials/_search). Needs the ASTP feature. Leaked Credential → Search finds the same credentials through the global search.',
	),
	...returnAllOrLimit,
	simplify,
	leakedValueOutput,
];

export function identityLookup(
	action: string,
	path: string,
	fields: Record<string, string>,
	prepare: FlareOperation['prepare'],
): FlareOperation {
	return {
		action,
		entitlement: 'ASTP',
		method: 'GET',
		path,
		tier: 'basic',
		paging: { style: 'idCursor', maxPageSize: 10_000 },
		fields: { ...fields, size: 'Limit' },
		prepare,
		output(item, records) {
			const mode = item.parameter<LeakedValueOutput>('leakedValueOutput', 'masked');
			const results: IDataObject[] = item.parameter<boolean>('simplify', true)
				? records.flatMap(simplifyIdentity)
				: records.map((identity) => JSON.parse(JSON.stringify(identity)) as IDataObject);
			return results.map((result) => protectLeakedValues(result, mode));
		},
	};
}
