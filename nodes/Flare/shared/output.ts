import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** How leaked and monitored secrets appear in the output (docs/api-contract.md, "Masking"). */
export type LeakedValueOutput = 'masked' | 'full' | 'sha256' | 'omit';

/** The choices of Leaked Value Output, as the form offers them. */
export const LEAKED_VALUE_OUTPUTS: readonly LeakedValueOutput[] = [
	'masked',
	'sha256',
	'omit',
	'full',
];

/** The mask: the same width whatever the value, so that it says nothing of the length. */
const MASK = '********';
/** Values at least this long keep their first and last characters around the mask. */
const REVEAL_FROM_LENGTH = 12;
/** A UTF-16 surrogate: the string has characters made of two code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * What a key's value is, wherever the key appears (docs/api-contract.md, "Masking", lists each with
 * its source): a secret (leaked passwords and password hashes, monitored secrets, the tokens and keys
 * of Flare's integration settings), or free text written by whoever posted the event (or by an
 * analyst), which may quote secrets. Every string under `highlights` is free text too.
 */
const SECRET = 1;
const FREE_TEXT = 2;
/**
 * `value`: a secret in a cookie (an entry of a `cookies` list, an object with a `host_key`, or a
 * leaked cookie of the ASTP cookie search, which names its stealer log in `event_uid`).
 */
const COOKIE_VALUE = 3;
const KEY_KINDS = new Map<string, typeof SECRET | typeof FREE_TEXT | typeof COOKIE_VALUE>([
	['value', COOKIE_VALUE],
	...[
		'hash',
		'password',
		'secret',
		'api_key',
		'api_token',
		'entra_secret',
		'shared_key',
		'token',
		'access_token',
		'refresh_token',
		'session_token',
		'private_key',
		'client_secret',
	].map((key) => [key, SECRET] as const),
	...[
		'content',
		'content_preview',
		'extracted_content',
		'title',
		'title_en',
		'topic_title',
		'parent_title',
		'parent_title_en',
		'first_post_preview',
		'description',
		'description_en',
		'description_fr',
		'body',
		'about',
		'message',
		'text',
		'snippets',
		'summary',
		'highlights',
	].map((key) => [key, FREE_TEXT] as const),
]);

/** A list of cookies (a stealer log's): the `value` of each is a session secret. */
const COOKIE_LIST = 'cookies';

/** Secret values shorter than this are not looked for in free text: they would match ordinary words. */
const MIN_FREE_TEXT_SECRET_LENGTH = 6;

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

/** What a walk of one record found: its secret values, and where its free text is. */
interface Found {
	mode: Exclude<LeakedValueOutput, 'full'>;
	/** Secret values long enough to look for in free text. */
	values?: string[];
	/** Each free-text string: the object or list holding it, and its key or index. */
	texts?: Array<[IDataObject | unknown[], string | number]>;
}

/** Applies the mode to the secret `object[key]`, in place, and notes its value. */
function protectSecret(object: IDataObject, key: string, found: Found): void {
	const value = object[key];
	if (typeof value === 'string' && value.length >= MIN_FREE_TEXT_SECRET_LENGTH) {
		(found.values ??= []).push(value);
	}
	if (found.mode === 'omit') delete object[key];
	else object[key] = (found.mode === 'sha256' ? digestOf(value) : maskValue(value)) as string;
}

/**
 * Walks an object: its secrets get the mode; its free-text strings are noted. A cookie's `value` is
 * a secret: an entry of a `cookies` list, or any object with a `host_key` (a stealer log's cookie) or
 * an `event_uid` (a leaked cookie of the ASTP search).
 */
function walkObject(object: IDataObject, found: Found, inCookieList: boolean, freeText: boolean) {
	// A record may have a million siblings (a Return All): no array of keys is made per object.
	// Records are parsed JSON: plain objects, without inherited keys.
	for (const key in object) {
		const kind = KEY_KINDS.get(key);
		if (
			kind === SECRET ||
			(kind === COOKIE_VALUE &&
				(inCookieList || object.host_key !== undefined || object.event_uid !== undefined))
		) {
			protectSecret(object, key, found);
			continue;
		}
		const value = object[key];
		if (typeof value === 'string') {
			if (freeText || kind === FREE_TEXT) (found.texts ??= []).push([object, key]);
		} else if (value !== null && typeof value === 'object') {
			walkValue(value as IDataObject, key, found, freeText || kind === FREE_TEXT);
		}
	}
}

/** Walks the value of `key`: an object, or a list whose entries are walked alike. */
function walkValue(value: IDataObject | unknown[], key: string, found: Found, freeText: boolean) {
	if (!Array.isArray(value)) {
		walkObject(value, found, false, freeText);
		return;
	}
	for (let index = 0; index < value.length; index++) {
		const entry = value[index];
		if (typeof entry === 'string') {
			if (freeText) (found.texts ??= []).push([value, index]);
		} else if (entry !== null && typeof entry === 'object') {
			if (Array.isArray(entry)) walkValue(entry, key, found, freeText);
			else walkObject(entry as IDataObject, found, key === COOKIE_LIST, freeText);
		}
	}
}

/** Flare marks what matched in highlights with `<mark>` and `</mark>`. */
const MARK_TAG = /<\/?mark>/g;
const LEADING_MARK_TAGS = /^(?:<\/?mark>)*/;
const A_MARK_TAG = /<\/?mark>/;
/** An e-mail address, the login of most leaked credentials. */
const EMAIL = /^[^\s@:<>]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
/** A username: a letter, then letters, digits and `._+-` (times and dates start with a digit). */
const USERNAME = /^[A-Za-z][\w.+-]*$/;
/**
 * A secret assigned to a name that says what it is, as source code, configuration and pastes write
 * it: `DB_PASSWORD=…`, `"api_key": "…"`, `Password: …`, `Authorization: Bearer …`. The name starts a
 * word and does not go on with a letter (`passport`, `tokens` are not secrets); a value that is an
 * e-mail address is a login, not a secret.
 */
const SECRET_ASSIGNMENT =
	/((?<![\w.-])(?:[\w.-]*[_.-])?(?:password|passwd|passphrase|pwd|pass|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|authorization)(?![a-z])[\w.-]*["']?\s*[:=]\s*["']?(?:bearer\s+)?)([^\s"',;<]+)/gi;
/** A run of non-space characters with a colon: a candidate credential line, or a part of one. */
const WITH_COLON = /\S*:\S*/g;

/**
 * The password of a credential line masked, the login kept (docs/api-contract.md, "Masking"):
 * `e-mail:password` anywhere, `url:login:password` anywhere, `login:password` as a line of its own;
 * highlight tags (`<mark>`) around any part are allowed, and kept.
 */
function maskCredentialLines(text: string): string {
	return text.replace(WITH_COLON, (token: string, offset: number) => {
		const colon = token.lastIndexOf(':');
		const before = token.slice(0, colon).replace(MARK_TAG, '');
		const login = before.slice(before.lastIndexOf(':') + 1);
		// The password: after the last colon and any highlight tags, up to the next tag.
		const password = token.slice(colon + 1);
		const start = LEADING_MARK_TAGS.exec(password)![0].length;
		const length = password.slice(start).search(A_MARK_TAG);
		const core = password.slice(start, length === -1 ? undefined : start + length);
		if (core === '' || core.startsWith('//') || core === MASK) return token;
		const credential =
			EMAIL.test(login) ||
			(USERNAME.test(login) && (before.includes(':') || isOwnLine(text, offset, token.length)));
		if (!credential) return token;
		return `${token.slice(0, colon + 1 + start)}${MASK}${password.slice(start + core.length)}`;
	});
}

/** Whether `text` has nothing but spaces around the `length` characters at `offset`, up to the line ends. */
function isOwnLine(text: string, offset: number, length: number): boolean {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	const lineEnd = text.indexOf('\n', offset + length);
	const after = lineEnd === -1 ? text.slice(offset + length) : text.slice(offset + length, lineEnd);
	return text.slice(lineStart, offset).trim() === '' && after.trim() === '';
}

/**
 * Free text with the record's secret values, the values of secret assignments and the passwords of
 * credential lines masked.
 */
function maskFreeText(text: string, values: string[]): string {
	let masked = text;
	for (const value of values) if (masked.includes(value)) masked = masked.split(value).join(MASK);
	// An e-mail address after such a name is a login ("logins for password: jane@acme.com").
	masked = masked.replace(SECRET_ASSIGNMENT, (match: string, name: string, value: string) =>
		value === MASK || EMAIL.test(value) ? match : name + MASK,
	);
	return masked.includes(':') ? maskCredentialLines(masked) : masked;
}

/**
 * Protects the leaked and monitored secrets of a record, at any depth and in place, and returns it
 * (docs/api-contract.md, "Masking"): the value of every secret field (by its key: passwords, leaked
 * hashes, monitored secrets, tokens; a cookie's value) gets the mode; in every mode but Full, free
 * text (content, titles, descriptions, highlights…) has the record's own secret values, the values of
 * secret assignments and the passwords of credential lines masked. Full leaves the record as it is.
 */
export function protectLeakedValues(record: IDataObject, mode: LeakedValueOutput): IDataObject {
	if (mode === 'full') return record;
	const found: Found = { mode };
	walkObject(record, found, false, false);
	for (const [holder, key] of found.texts ?? []) {
		const text = (holder as Record<string | number, string>)[key];
		(holder as Record<string | number, string>)[key] = maskFreeText(text, found.values ?? []);
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
