import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How leaked secrets (`hash` fields) appear in the output. */
export type LeakedValueOutput = 'masked' | 'full' | 'sha256' | 'omit';

/** The mask: the same width whatever the value, so that it says nothing of the length. */
const MASK = '********';
/** Values at least this long keep their first and last characters around the mask. */
const REVEAL_FROM_LENGTH = 12;
/** A UTF-16 surrogate: the string has characters made of two code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Masks a leaked value (docs/api-contract.md, "Masking"): eight stars; for a string of 12 characters
 * or more, its first and last characters around them. A value that is not a string is masked whole;
 * null stays null (there is no value to hide).
 */
export function maskValue(value: unknown): unknown {
	if (value === null || value === undefined) return value;
	if (typeof value !== 'string') return MASK;
	// Most values have no surrogate pair: then code units are characters, and no array is needed
	// (this runs for every record of a walk, a million times for a large Return All).
	const characters = SURROGATE.test(value) ? Array.from(value) : value;
	const length = characters.length;
	return length < REVEAL_FROM_LENGTH ? MASK : characters[0] + MASK + characters[length - 1];
}

/** SHA-256 hex digest of a leaked value (of its JSON when it is not a string). */
function digestOf(value: unknown): unknown {
	if (value === null || value === undefined) return value;
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Applies the chosen output to the field `key` of a record, in place. */
function protectField(record: IDataObject, key: string, mode: LeakedValueOutput): void {
	if (!(key in record) || mode === 'full') return;
	if (mode === 'omit') delete record[key];
	else record[key] = (mode === 'sha256' ? digestOf(record[key]) : maskValue(record[key])) as string;
}

/** A leaked cookie (ASTP search, or a stealer log's cookies): its `value` is the session. */
const isCookie = (record: IDataObject) => 'value' in record && 'name' in record && 'path' in record;

/**
 * Applies the chosen output to the leaked values of a record: the `hash` of a credential or of an
 * identity's passwords, the `password` of a stealer log's credential, the `value` of a cookie.
 */
export function protectLeakedValues(record: IDataObject, mode: LeakedValueOutput): IDataObject {
	protectField(record, 'hash', mode);
	protectField(record, 'password', mode);
	if (isCookie(record)) protectField(record, 'value', mode);
	if (Array.isArray(record.passwords)) {
		for (const password of record.passwords as IDataObject[]) protectField(password, 'hash', mode);
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
