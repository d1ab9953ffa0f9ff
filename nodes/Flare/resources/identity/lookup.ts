import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOutput, notice, returnAllOrLimit, simplify } from '../../shared/descriptions';
import type { FlareOperation, Paging } from '../../shared/operation';
import { passwordsOf, simplifyIdentity } from '../../shared/output';

/** Fields and behaviour shared by the two deprecated identity lookups (by password, by keyword). */
export const identityLookupFields: INodeProperties[] = [
	notice(
		'identityDeprecatedNotice',
		'Deprecated by Flare: replaced by the ASTP credential search (/astp/v2/credentials/_search), which is Leaked Credential → Search ASTP. Needs the ASTP feature.',
	),
	...returnAllOrLimit,
	simplify,
	leakedValueOutput,
];

const passwordIds = (identity: IDataObject) =>
	passwordsOf(identity)
		.map((password) => Number(password.id))
		.filter(Number.isFinite);

/**
 * Identity lookups page by credential id (docs/api-contract.md): `from` is the largest password id of
 * the page, exclusive; an empty page ends the walk. An identity is the same record again only with
 * the same passwords (one identity's passwords may continue on the next page).
 */
export const byPasswordId: Paging = {
	maxPageSize: 10_000,
	next(_body, records) {
		// A loop, not Math.max(...ids): a page of 10,000 identities may hold more ids than a call's arguments.
		let last: number | undefined;
		for (const record of records) for (const id of passwordIds(record)) if (last === undefined || id > last) last = id;
		return last;
	},
	key: (identity) => `${String(identity.name)}|${passwordIds(identity).join(',')}`,
};

export function identityLookup(
	definition: Pick<FlareOperation, 'action' | 'path' | 'properties' | 'apiFields' | 'prepare'>,
): FlareOperation {
	return {
		...definition,
		entitlement: 'ASTP',
		method: 'GET',
		tier: 'basic',
		paging: byPasswordId,
		apiFields: { ...definition.apiFields, size: 'limit' },
		output: (item, records) =>
			item.parameter<boolean>('simplify', true) ? records.flatMap(simplifyIdentity) : records,
	};
}
