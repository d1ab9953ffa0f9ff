/**
 * A record walked at any depth (docs/api-contract.md, "Masking", "Secret names" and "Free text"):
 * the value of every key that names a secret gets the mode, whatever its type, and is noted to be
 * looked for in the record's strings; free text, URL fields and hosts are noted for text.ts, which
 * masks them once the walk has noted every secret. What a key holds, by its name:
 *
 *   password, api_key, Authorization, session_id     a secret (names.ts)
 *   passwords, tokens, cookies, api_keys             secrets: their strings, their objects' values
 *   {name: "Authorization", value: …}, {Key, Value}  a pair: its value is the secret
 *   id, uid, *_at, *_hash, username, domain, ip…     structured: kept as they are
 *   url, urls, *_url; host, netloc                   URLs and hosts
 *   anything else, and all under highlights          free text
 */
import type { IDataObject } from 'n8n-workflow';

import { digestOf, MASK, protectedValue, type LeakedValueOutput } from './modes';
import { NOT_SECRET_NAME, SECRET_NAME, SECRETS_NAME, nameKind } from './names';
import { maskStrings, noteValue, type Place, type Strings } from './text';

/**
 * What a key's value is, wherever the key appears (docs/api-contract.md, "Masking", lists each with
 * its source). A secret: the value of a key that names a secret ({@link nameKindOf}: passwords, leaked
 * hashes, monitored secrets, tokens, keys, cookies, sessions…), whatever its type. Secrets: a key
 * that names secrets in the plural (`passwords`, `tokens`): its strings are secrets, its objects are
 * read key by key. Structured: ids, uids, dates, digests, hash types, logins, domains, addresses,
 * kinds and severities, kept as they are. A URL: kept, but for the password of its userinfo and the
 * values of query parameters named like secrets. Any other string is free text (written by whoever
 * posted the event, by an analyst, or by Flare quoting either), which may quote secrets; so is every
 * string under `highlights`, whatever its key.
 */
const SECRET = 1;
const FREE_TEXT = 2;
/**
 * `value` (any case): a secret in a cookie or beside a secret's name (an entry of a list named like
 * secrets such as `cookies`, an object with a `host_key` or whose `name`, `key` or `header` is a
 * secret's, as HTTP headers, environments and tags are written in name/value pairs, or a record of an
 * operation whose records are all cookies: Leaked Cookie → Search, Expand Stealer Log).
 */
const COOKIE_VALUE = 3;
const STRUCTURED = 4;
const URL_TEXT = 5;
/** A host, maybe with userinfo and no scheme (`user:password@host`). */
const NETLOC = 6;
/** Named like secrets in the plural (`passwords`, `tokens`): its strings are secrets, not its counts. */
const SECRET_LIST = 7;
/** `key` (any case): a secret, but the name of a pair when a `value` sits beside it (`{key, value}`). */
const KEY_NAME = 8;
type KeyKind =
	| typeof SECRET
	| typeof FREE_TEXT
	| typeof COOKIE_VALUE
	| typeof STRUCTURED
	| typeof URL_TEXT
	| typeof NETLOC
	| typeof SECRET_LIST
	| typeof KEY_NAME;

/** Keys that are not secrets' names, by what they hold. */
const KEY_KINDS = new Map<string, KeyKind>([
	...[
		// An alert channel's Slack, Discord or Teams webhook URL: whoever has it can post there.
		'webhook_url',
		'teams_webhook_url',
	].map((key) => [key, SECRET] as const),
	...[
		'id',
		'ids',
		'uid',
		'uids',
		'uuid',
		'urn',
		'type',
		'types',
		'index',
		'severity',
		'severities',
		'categories',
		'hash_type',
		'identity_name',
		'email',
		'emails',
		'username',
		'usernames',
		'domain',
		'domains',
		'auth_domains',
		'reversed_domains',
		'identifier_domain',
		'ip',
		'ip_address',
		'ip_addresses',
		'ip_addresses_cidr',
		'ip_network',
		'source',
		'source_name',
		'category_name',
		'timestamp',
		'digest',
		'hwid',
		'host_key',
		'path',
		'country_code',
		'currency',
		'format_type',
		'action',
		'status',
		'verb',
	].map((key) => [key, STRUCTURED] as const),
	...['url', 'urls'].map((key) => [key, URL_TEXT] as const),
	...['host', 'netloc', 'external_netloc'].map((key) => [key, NETLOC] as const),
]);

/** Endings of structured keys: ids, dates, digests and kinds (`source_id`, `imported_at`, `content_hash`…). */
const STRUCTURED_ENDING = /_(?:id|ids|uid|uids|uuid|at|utc|hash|digest|type)$/;
/** Endings of URL keys (`flare_url`, `browser_url`, `related_urls`…). */
const URL_ENDING = /_urls?$/;

/** The kinds of keys, learnt as they are met (Flare's records have few distinct keys). */
const KINDS = new Map<string, KeyKind>();
/** Keys come from Flare's answers: a hostile one with endless distinct keys fills no memory. */
const MAX_KINDS = 10_000;

/** The kind of a key: its name decides first, then the table, then its ending. */
function kindOf(key: string): KeyKind {
	const known = KINDS.get(key);
	if (known !== undefined) return known;
	const name = nameKind(key);
	const lower = key.length <= 5 ? key.toLowerCase() : '';
	const kind =
		lower === 'key'
			? KEY_NAME
			: lower === 'value'
				? COOKIE_VALUE
				: name === SECRET_NAME
					? SECRET
					: name === SECRETS_NAME
						? SECRET_LIST
						: (KEY_KINDS.get(key) ??
							(STRUCTURED_ENDING.test(key)
								? STRUCTURED
								: URL_ENDING.test(key)
									? URL_TEXT
									: FREE_TEXT));
	if (KINDS.size < MAX_KINDS) KINDS.set(key, kind);
	return kind;
}

/** Flare's highlights: every string under it is free text, whatever its key. */
const HIGHLIGHTS = 'highlights';

/** What a walk of one record found: its secret values, and where its free text and URLs are. */
interface Found extends Strings {
	mode: Exclude<LeakedValueOutput, 'full'>;
}

/** Notes a secret value, in the forms in which it is looked for (text.ts). */
const note = (text: string, found: Found) => noteValue(text, (found.values ??= []));

/** Whether a key names a secret whose value is noted (a secret's name, `key`, or a `value`). */
function namesNotedSecret(key: string): boolean {
	const kind = kindOf(key);
	return kind === SECRET || kind === SECRET_LIST || kind === KEY_NAME || kind === COOKIE_VALUE;
}

/**
 * Notes a secret value to look for in the record's free text: a string, a number's digits, the
 * strings and numbers of a list, and of an object those under a secret's name or a `value` (a
 * cookie's domain or a header's name is not a secret, whatever name it sits under); at most
 * {@link MAX_NOTED_LEAVES} of them.
 */
function noteSecret(value: unknown, found: Found): void {
	if (typeof value === 'string') note(value, found);
	else if (typeof value === 'number' && Number.isFinite(value)) note(String(value), found);
	else if (value !== null && typeof value === 'object') {
		// Each entry with whether it is a secret: a list's entries are, an object's by their names.
		const pending: Array<[unknown, boolean]> = [[value, true]];
		for (let noted = 0; pending.length > 0 && noted < MAX_NOTED_LEAVES; ) {
			const [next, secret] = pending.pop()!;
			if (typeof next === 'string' || typeof next === 'number') {
				if (!secret) continue;
				noteSecret(next, found);
				noted++;
			} else if (Array.isArray(next)) {
				for (const entry of next) pending.push([entry, secret]);
			} else if (next !== null && typeof next === 'object') {
				for (const key in next) {
					pending.push([(next as IDataObject)[key], namesNotedSecret(key)]);
				}
			}
		}
	}
}

/** The parts of one secret (a list or an object under a secret's name) looked for in free text. */
const MAX_NOTED_LEAVES = 100;

/** Applies the mode to the secret `object[key]`, in place, and notes its value. */
function protectSecret(object: IDataObject, key: string, found: Found): void {
	const value = object[key];
	noteSecret(value, found);
	if (found.mode === 'omit') delete object[key];
	else object[key] = protectedValue(value, found.mode) as string;
}

/**
 * Records are walked this deep at most: what lies deeper is masked whole, as a secret is (not
 * noted), so that an answer nested thousands deep is masked rather than failing (review of issue 30,
 * R5). Flare's records are a few levels deep.
 */
const MAX_DEPTH = 100;

/** The value at `place`, past {@link MAX_DEPTH}: masked whole (Omit: left out, or null in a list). */
function protectTooDeep([holder, key]: Place, found: Found): void {
	const value = (holder as Record<string | number, unknown>)[key];
	if (found.mode === 'omit') {
		if (Array.isArray(holder)) holder[key as number] = null;
		else delete holder[key as string];
	} else {
		(holder as Record<string | number, unknown>)[key] =
			found.mode === 'sha256' ? digestOf(value) : MASK;
	}
}

/** Notes the string at `place` as free text or a URL; structured strings are left alone. */
function noteString(kind: KeyKind, place: Place, found: Found): void {
	if (kind === FREE_TEXT) (found.texts ??= []).push(place);
	else if (kind === URL_TEXT) (found.urls ??= []).push(place);
	else if (kind === NETLOC) (found.netlocs ??= []).push(place);
}

/** The keys that name the other half of a pair (`{name, value}`, `{Key, Value}`, `{header, value}`). */
const PAIR_NAME_KEYS = ['name', 'Name', 'NAME', 'key', 'Key', 'KEY', 'header', 'Header', 'HEADER'];

/** Whether `name` is a secret's name as a pair writes it: one word (no space), named by the rule. */
function isPairName(name: unknown): name is string {
	return (
		typeof name === 'string' &&
		name.length <= 64 &&
		!/\s/.test(name) &&
		nameKind(name) !== NOT_SECRET_NAME
	);
}

/**
 * Whether an object pairs a secret's name with its `value` (`{"name": "Authorization", "value":
 * "Bearer …"}`, AWS tags' `{Key, Value}`); a matching policy, named in words, is not such a pair.
 */
function namesSecret(object: IDataObject): boolean {
	for (const key of PAIR_NAME_KEYS) if (isPairName(object[key])) return true;
	return false;
}

/** Whether an object has a `value` (any case) beside its other keys: then its `key` is a name. */
const hasPairValue = (object: IDataObject) =>
	object.value !== undefined || object.Value !== undefined || object.VALUE !== undefined;

/** How an object's fields are read: by their names; `value` a secret; every string a secret. */
const BY_NAME = 0;
const VALUE_SECRET = 1;
const STRINGS_SECRET = 2;
type Reading = typeof BY_NAME | typeof VALUE_SECRET | typeof STRINGS_SECRET;

/**
 * Walks an object: its secrets get the mode; its free text and URLs are noted. A `value` (any case) is
 * a secret in an entry of a list named like secrets (`cookies`), beside a `host_key` (Flare's cookie
 * shape) or a secret's name (`name`, `key`, `header`), or in a record its operation says is a cookie
 * (`reading` VALUE_SECRET). Under a name of secrets in the plural whose value is an object (`secrets`,
 * `credentials`), every string that is not structured is a secret (`reading` STRINGS_SECRET). Under
 * `highlights` every string that is not a secret is free text.
 */
function walkObject(
	object: IDataObject,
	found: Found,
	reading: Reading,
	highlights: boolean,
	depth: number,
) {
	// A record may have a million siblings (a Return All): no array of keys is made per object.
	// Records are parsed JSON: plain objects, without inherited keys.
	for (const key in object) {
		let kind = kindOf(key);
		if (kind === KEY_NAME) kind = hasPairValue(object) ? STRUCTURED : SECRET;
		if (kind === COOKIE_VALUE) {
			const value = object[key];
			if (
				reading !== BY_NAME ||
				object.host_key !== undefined ||
				// A matching policy's `value` is an object: it is read field by field.
				((value === null || typeof value !== 'object' || Array.isArray(value)) &&
					namesSecret(object))
			) {
				protectSecret(object, key, found);
				continue;
			}
			kind = FREE_TEXT;
		}
		if (kind === SECRET) {
			protectSecret(object, key, found);
			continue;
		}
		if (reading === STRINGS_SECRET && kind !== STRUCTURED) kind = SECRET_LIST;
		const value = object[key];
		if (value !== null && typeof value === 'object' && depth >= MAX_DEPTH) {
			protectTooDeep([object, key], found);
			continue;
		}
		if (kind === SECRET_LIST) {
			// Its strings are secrets; a count (`credentials: 3`) or a flag is not.
			if (typeof value === 'string') protectSecret(object, key, found);
			else if (Array.isArray(value)) walkSecrets(value, found, highlights, depth + 1);
			else if (value !== null && typeof value === 'object') {
				walkObject(value as IDataObject, found, STRINGS_SECRET, highlights, depth + 1);
			}
			continue;
		}
		if (highlights) kind = FREE_TEXT;
		if (typeof value === 'string') noteString(kind, [object, key], found);
		else if (value !== null && typeof value === 'object') {
			walkValue(value as IDataObject, kind, found, highlights || key === HIGHLIGHTS, depth + 1);
		}
	}
}

/**
 * Walks the value of a key of kind `kind`: an object, or a list whose entries are walked alike. An
 * entry that is itself a pair `[name, value]` whose name is a secret's (headers as tuples) has its
 * value protected.
 */
function walkValue(
	value: IDataObject | unknown[],
	kind: KeyKind,
	found: Found,
	highlights: boolean,
	depth: number,
) {
	if (!Array.isArray(value)) {
		walkObject(value, found, BY_NAME, highlights, depth);
		return;
	}
	for (let index = 0; index < value.length; index++) {
		const entry = value[index];
		if (typeof entry === 'string') noteString(kind, [value, index], found);
		else if (entry !== null && typeof entry === 'object') {
			if (depth >= MAX_DEPTH) protectTooDeep([value, index], found);
			else if (!Array.isArray(entry)) {
				walkObject(entry as IDataObject, found, BY_NAME, highlights, depth + 1);
			} else {
				if (entry.length === 2 && isPairName(entry[0]) && nameKind(entry[0]) === SECRET_NAME) {
					noteSecret(entry[1], found);
					if (found.mode === 'omit') entry.length = 1;
					else entry[1] = protectedValue(entry[1], found.mode);
				}
				walkValue(entry, kind, found, highlights, depth + 1);
			}
		}
	}
}

/**
 * Walks a list named like secrets (`passwords`, `cookies`): its strings and numbers are secrets
 * (Omit leaves them out of the list), its objects are walked, their `value` a secret.
 */
function walkSecrets(list: unknown[], found: Found, highlights: boolean, depth: number) {
	let kept = 0;
	for (let index = 0; index < list.length; index++) {
		const entry = list[index];
		if (typeof entry === 'string' || typeof entry === 'number') {
			noteSecret(entry, found);
			if (found.mode === 'omit') continue;
			list[kept++] = protectedValue(entry, found.mode);
			continue;
		}
		if (entry !== null && typeof entry === 'object' && depth >= MAX_DEPTH) {
			protectTooDeep([list, index], found);
		} else if (Array.isArray(entry)) walkSecrets(entry, found, highlights, depth + 1);
		else if (entry !== null && typeof entry === 'object') {
			walkObject(entry as IDataObject, found, VALUE_SECRET, highlights, depth + 1);
		}
		list[kept++] = list[index];
	}
	list.length = kept;
}

/**
 * Protects the leaked and monitored secrets of `record` in place (the mode for its secret fields,
 * masking for its strings), with `given` (secrets the item was given) looked for as its own;
 * `isCookie`: every record of the operation is a cookie, whose `value` is a secret.
 */
export function protectRecord(
	record: IDataObject,
	mode: Exclude<LeakedValueOutput, 'full'>,
	given: readonly string[],
	isCookie: boolean,
): IDataObject {
	const found: Found = { mode };
	for (const value of given) note(value, found);
	walkObject(record, found, isCookie ? VALUE_SECRET : BY_NAME, false, 0);
	maskStrings(found);
	return record;
}
