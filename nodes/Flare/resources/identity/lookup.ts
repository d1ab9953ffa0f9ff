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

export function identityLookup(action: string, fields: Record<string, string>, prepare: FlareOperation['prepare']): FlareOperation {
	return {
		action,
		entitlement: 'ASTP',
		tier: 'basic',
		paging: { style: 'idCursor', maxPageSize: 10_000 },
		fields: { ...fields, size: 'Limit' },
		prepare,
		output(records) {
			const mode = this.getNodeParameter('leakedValueOutput', 'masked') as LeakedValueOutput;
			const items: IDataObject[] = (this.getNodeParameter('simplify', true) as boolean)
				? records.flatMap(simplifyIdentity)
				: records.map((identity) => JSON.parse(JSON.stringify(identity)) as IDataObject);
			return items.map((item) => protectLeakedValues(item, mode));
		},
	};
}
