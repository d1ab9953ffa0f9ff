import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How leaked secrets (`hash` fields) appear in the output. */
export type LeakedValueOutput = 'masked' | 'full' | 'sha256' | 'omit';

/** A UTF-16 surrogate: the string has characters made of two code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** Runs of `*` by length, shared by every masked value of that length. */
const stars: string[] = [];
const starsOf = (length: number) =>
	length > 64 ? '*'.repeat(length) : (stars[length] ??= '*'.repeat(length));

/** Keeps the first and last character: enough to recognise a value, not to use it. */
export function maskValue(value: string): string {
	// Most values have no surrogate pair: then code units are characters, and no array is needed
	// (this runs for every record of a walk, a million times for a large Return All).
	if (!SURROGATE.test(value)) {
		const length = value.length;
		if (length <= 2) return starsOf(length);
		return value[0] + starsOf(length - 2) + value[length - 1];
	}
	const characters = Array.from(value);
	if (characters.length <= 2) return '*'.repeat(characters.length);
	return characters[0] + '*'.repeat(characters.length - 2) + characters[characters.length - 1];
}

/** Applies the chosen output to the `hash` field of a record, in place. */
function protectHash(record: IDataObject, mode: LeakedValueOutput): void {
	if (!('hash' in record) || mode === 'full') return;
	const value = record.hash;
	if (mode === 'omit') {
		delete record.hash;
	} else if (typeof value === 'string') {
		record.hash =
			mode === 'sha256'
				? createHash('sha256').update(value, 'utf8').digest('hex')
				: maskValue(value);
	}
}

/** Applies the chosen output to every `hash` field of a credential or an identity (its passwords). */
export function protectLeakedValues(record: IDataObject, mode: LeakedValueOutput): IDataObject {
	protectHash(record, mode);
	if (Array.isArray(record.passwords)) {
		for (const password of record.passwords as IDataObject[]) protectHash(password, mode);
	}
	return record;
}

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

/** One flat item per leaked password of an identity (at most 10 fields). */
export function simplifyIdentity(identity: IDataObject): IDataObject[] {
	return ((identity.passwords as IDataObject[] | undefined) ?? []).map((password) => ({
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
