/** Output shaping: Simplify's flat items of credentials and identities (masking: masking/). */
import type { IDataObject } from 'n8n-workflow';

const sourceName = (record: IDataObject) =>
	((record.source as IDataObject | undefined)?.name ?? null) as string | null;

/** The most useful fields of a credential search result, flattened (at most 10). */
export function simplifyCredential(record: IDataObject): IDataObject {
	const simplified: IDataObject = {
		id: record.id,
		identity_name: record.identity_name,
		hash: record.hash,
		hash_type: record.hash_type ?? null,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: sourceName(record),
		credential_hash: record.credential_hash ?? null,
	};
	if (record.auth_domains !== undefined) simplified.auth_domains = record.auth_domains;
	return simplified;
}

/** The leaked passwords of an identity: the objects of its `passwords` list (none when it has none). */
export function passwordsOf(identity: IDataObject): IDataObject[] {
	const passwords = Array.isArray(identity.passwords) ? (identity.passwords as unknown[]) : [];
	return passwords.filter(
		(password): password is IDataObject =>
			typeof password === 'object' && password !== null && !Array.isArray(password),
	);
}

/** One flat item per leaked password of an identity (at most 10 fields). */
export function simplifyIdentity(identity: IDataObject): IDataObject[] {
	return passwordsOf(identity).map((password) => ({
		identity_name: identity.name,
		id: password.id,
		hash: password.hash,
		hash_type: password.hash_type ?? null,
		domain: password.domain ?? null,
		imported_at: password.imported_at,
		source_id: password.source_id,
		source_name: sourceName(password),
		credential_hash: password.credential_hash ?? null,
	}));
}
