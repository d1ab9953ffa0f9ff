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
 * `value`: a secret in a cookie or beside a secret's name (an entry of a list named like secrets such
 * as `cookies`, an object with a `host_key` or whose `name` is a secret's, as HTTP headers are
 * written in name/value pairs, or a record of an operation whose records are all cookies: Leaked
 * Cookie → Search, Expand Stealer Log).
 */
const COOKIE_VALUE = 3;
const STRUCTURED = 4;
const URL_TEXT = 5;
/** A host, maybe with userinfo and no scheme (`user:password@host`). */
const NETLOC = 6;
/** Named like secrets in the plural (`passwords`, `tokens`): its strings are secrets, not its counts. */
const SECRET_LIST = 7;
type KeyKind =
	| typeof SECRET
	| typeof FREE_TEXT
	| typeof COOKIE_VALUE
	| typeof STRUCTURED
	| typeof URL_TEXT
	| typeof NETLOC
	| typeof SECRET_LIST;

// ---- names of secrets ----

/**
 * The one rule for names (docs/api-contract.md, "Masking"), for JSON keys, the names of assignments
 * in free text, URL parameters and header names alike: split into words at `_`, `-`, `.`, spaces,
 * camelCase and digits, lower-cased, a name is a secret's when one of its words is one of these…
 */
const SECRET_WORDS = new Set([
	'password',
	'passwd',
	'passphrase',
	'passcode',
	'pwd',
	'pass',
	'pw',
	'pin',
	'otp',
	'secret',
	'token',
	'jwt',
	'auth',
	'authorization',
	'cookie',
	'session',
	'sid',
	'credential',
	'signature',
	'sig',
]);
/** …or ends with one of these, written as one word (`dbpassword`, `csrftoken`, `PHPSESSID`, `apikey`)… */
const SECRET_WORD_ENDING =
	/(?:password|passwd|passphrase|secret|token|cookie|sessid|sessionid|apikey|accesskey|privatekey|secretkey)$/;
/** …or it has `key` after one of these words (`api_key`, `X-Api-Key`, `accessKey`, `private key`)… */
const KEY_QUALIFIERS = new Set([
	'api',
	'app',
	'access',
	'private',
	'shared',
	'signing',
	'encryption',
	'master',
	'client',
]);
/** …or it is, as a whole, `key` or `hash` (a leaked password's hash). */
const SECRET_WHOLE_NAMES = new Set(['key', 'hash']);
/**
 * Names of Flare's documented fields that say something about a secret without holding one
 * (docs/api-contract.md, "Masking", with their sources), as the rule's words write them.
 */
const NOT_SECRET_NAMES = new Set([
	'credential_hash',
	'known_password_id',
	'has_password',
	'has_pin',
	'password_type',
	'cookie_names',
	'auth_domains',
	'authorization_status',
	'authorization_request_status',
	'credential_count',
	'leaked_credential_count',
	'contains_secrets',
	'secrets_metadata',
	'number_of_leaked_secrets',
	'secret_detection_rule_id',
	'is_secret_detection_rule_match',
]);

/** What a name says of its value: nothing, a secret, or (a plural: `passwords`, `tokens`) secrets. */
const NOT_SECRET_NAME = 0;
const SECRET_NAME = 1;
const SECRETS_NAME = 2;
type NameKind = typeof NOT_SECRET_NAME | typeof SECRET_NAME | typeof SECRETS_NAME;

/** Every name the rule makes a secret's holds one of these (a fast test for the many that do not). */
const SECRET_NAME_HINT = /pass|pw|pin|otp|secret|token|jwt|auth|cookie|sess|sid|credential|sig|key|hash/i;
/** The kinds of names met in free text and URLs, as {@link KINDS} of keys. */
const NAME_KINDS = new Map<string, NameKind>();

/** What `name` says of its value (the rule: {@link SECRET_WORDS}). */
function nameKind(name: string): NameKind {
	if (!SECRET_NAME_HINT.test(name)) return NOT_SECRET_NAME;
	let kind = NAME_KINDS.get(name);
	if (kind === undefined) {
		kind = nameKindOf(name);
		if (NAME_KINDS.size < MAX_KINDS) NAME_KINDS.set(name, kind);
	}
	return kind;
}

/** The words of a name: split at `_ - .`, spaces, camelCase and digits, lower-cased. */
function wordsOf(name: string): string[] {
	return name
		.replace(/([a-z])(?=[A-Z0-9])|([0-9])(?=[A-Za-z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2$3 ')
		.toLowerCase()
		.split(/[\s_.-]+/)
		.filter((word) => word !== '');
}

/** Whether a word names a secret, alone or as the end of a word (`dbpassword`). */
const isSecretWord = (word: string) => SECRET_WORDS.has(word) || SECRET_WORD_ENDING.test(word);

/**
 * The rule: a documented field of {@link NOT_SECRET_NAMES} is no secret; a name with a secret word
 * ({@link SECRET_WORDS}, {@link SECRET_WORD_ENDING}, `key` after {@link KEY_QUALIFIERS}) or that is
 * {@link SECRET_WHOLE_NAMES} is a secret's; one with such a word in the plural (`passwords`,
 * `api_keys`) names secrets.
 */
function nameKindOf(name: string): NameKind {
	const words = wordsOf(name);
	const joined = words.join('_');
	if (NOT_SECRET_NAMES.has(joined)) return NOT_SECRET_NAME;
	if (SECRET_WHOLE_NAMES.has(joined)) return SECRET_NAME;
	let plural = false;
	for (let index = 0; index < words.length; index++) {
		const word = words[index];
		if (isSecretWord(word)) return SECRET_NAME;
		if ((word === 'key' || word === 'keys') && index > 0 && KEY_QUALIFIERS.has(words[index - 1])) {
			if (word === 'key') return SECRET_NAME;
			plural = true;
		} else if (word.endsWith('s') && isSecretWord(word.slice(0, -1))) plural = true;
	}
	return plural ? SECRETS_NAME : NOT_SECRET_NAME;
}

/** Keys that are not secrets' names, by what they hold. */
const KEY_KINDS = new Map<string, KeyKind>([
	['value', COOKIE_VALUE],
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
	const kind =
		name === SECRET_NAME
			? SECRET
			: name === SECRETS_NAME
				? SECRET_LIST
				: (KEY_KINDS.get(key) ??
					(STRUCTURED_ENDING.test(key) ? STRUCTURED : URL_ENDING.test(key) ? URL_TEXT : FREE_TEXT));
	if (KINDS.size < MAX_KINDS) KINDS.set(key, kind);
	return kind;
}

/** Flare's highlights: every string under it is free text, whatever its key. */
const HIGHLIGHTS = 'highlights';

/** Secret values shorter than this are looked for in free text only as the whole text: they would match ordinary words. */
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

/** Where a string is: the object or list holding it, and its key or index. */
type Place = [IDataObject | unknown[], string | number];

/** What a walk of one record found: its secret values, and where its free text and URLs are. */
interface Found {
	mode: Exclude<LeakedValueOutput, 'full'>;
	/** The record's secret values (strings), to look for in its free text. */
	values?: string[];
	texts?: Place[];
	urls?: Place[];
	netlocs?: Place[];
}

/** The forms in which a secret value is looked for: as is, and percent-encoded in a URL (`+` for a space too). */
function noteValue(text: string, found: Found): void {
	if (text === '') return;
	const values = (found.values ??= []);
	values.push(text);
	let encoded: string;
	try {
		encoded = encodeURIComponent(text);
	} catch {
		return; // a lone surrogate: no URL holds it encoded
	}
	if (encoded === text) return;
	values.push(encoded);
	if (encoded.includes('%20')) values.push(encoded.replace(/%20/g, '+'));
}

/**
 * Notes a secret value to look for in the record's free text: a string, a number's digits, and the
 * strings and numbers inside a list or an object (at most {@link MAX_NOTED_LEAVES} of them).
 */
function noteSecret(value: unknown, found: Found): void {
	if (typeof value === 'string') noteValue(value, found);
	else if (typeof value === 'number' && Number.isFinite(value)) noteValue(String(value), found);
	else if (value !== null && typeof value === 'object') {
		const pending: unknown[] = [value];
		for (let noted = 0; pending.length > 0 && noted < MAX_NOTED_LEAVES; ) {
			const next = pending.pop();
			if (typeof next === 'string' || typeof next === 'number') {
				noteSecret(next, found);
				noted++;
			} else if (next !== null && typeof next === 'object') {
				for (const entry of Object.values(next)) pending.push(entry);
			}
		}
	}
}

/** The parts of one secret (a list or an object under a secret's name) looked for in free text. */
const MAX_NOTED_LEAVES = 100;

/** A secret value as the mode gives it (Omit is the caller's). */
function protectedValue(value: unknown, mode: Found['mode']): unknown {
	return mode === 'sha256' ? digestOf(value) : maskValue(value);
}

/** Applies the mode to the secret `object[key]`, in place, and notes its value. */
function protectSecret(object: IDataObject, key: string, found: Found): void {
	const value = object[key];
	noteSecret(value, found);
	if (found.mode === 'omit') delete object[key];
	else object[key] = protectedValue(value, found.mode) as string;
}

/** Notes the string at `place` as free text or a URL; structured strings are left alone. */
function noteString(kind: KeyKind, place: Place, found: Found): void {
	if (kind === FREE_TEXT) (found.texts ??= []).push(place);
	else if (kind === URL_TEXT) (found.urls ??= []).push(place);
	else if (kind === NETLOC) (found.netlocs ??= []).push(place);
}

/**
 * Whether an object pairs a secret's name with its text `value` (`{"name": "Authorization", "value":
 * "Bearer …"}`); a matching policy's `value` is an object, whatever the policy is named.
 */
function namesSecret(object: IDataObject): boolean {
	const value = object.value;
	return (
		typeof object.name === 'string' &&
		(typeof value === 'string' || typeof value === 'number') &&
		nameKind(object.name) === SECRET_NAME
	);
}

/**
 * Walks an object: its secrets get the mode; its free text and URLs are noted. A `value` is a
 * secret in an entry of a list named like secrets (`cookies`), beside a `host_key` (Flare's cookie
 * shape) or a secret's name, or in a record its operation says is a cookie (`inSecretList`). Under
 * `highlights` every string that is not a secret is free text.
 */
function walkObject(object: IDataObject, found: Found, inSecretList: boolean, highlights: boolean) {
	// A record may have a million siblings (a Return All): no array of keys is made per object.
	// Records are parsed JSON: plain objects, without inherited keys.
	for (const key in object) {
		let kind = kindOf(key);
		if (kind === COOKIE_VALUE) {
			if (inSecretList || object.host_key !== undefined || namesSecret(object)) {
				protectSecret(object, key, found);
				continue;
			}
			kind = FREE_TEXT;
		}
		if (kind === SECRET) {
			protectSecret(object, key, found);
			continue;
		}
		const value = object[key];
		if (kind === SECRET_LIST) {
			// Its strings are secrets; a count (`credentials: 3`) or a flag is not.
			if (typeof value === 'string') protectSecret(object, key, found);
			else if (Array.isArray(value)) walkSecrets(value, found, highlights);
			else if (value !== null && typeof value === 'object') {
				walkObject(value as IDataObject, found, true, highlights);
			}
			continue;
		}
		if (highlights) kind = FREE_TEXT;
		if (typeof value === 'string') noteString(kind, [object, key], found);
		else if (value !== null && typeof value === 'object') {
			walkValue(value as IDataObject, key, kind, found, highlights || key === HIGHLIGHTS);
		}
	}
}

/** Walks the value of `key`: an object, or a list whose entries are walked alike. */
function walkValue(
	value: IDataObject | unknown[],
	key: string,
	kind: KeyKind,
	found: Found,
	highlights: boolean,
) {
	if (!Array.isArray(value)) {
		walkObject(value, found, false, highlights);
		return;
	}
	for (let index = 0; index < value.length; index++) {
		const entry = value[index];
		if (typeof entry === 'string') noteString(kind, [value, index], found);
		else if (entry !== null && typeof entry === 'object') {
			if (Array.isArray(entry)) walkValue(entry, key, kind, found, highlights);
			else walkObject(entry as IDataObject, found, false, highlights);
		}
	}
}

/**
 * Walks a list named like secrets (`passwords`, `cookies`): its strings and numbers are secrets
 * (Omit leaves them out of the list), its objects are walked, their `value` a secret.
 */
function walkSecrets(list: unknown[], found: Found, highlights: boolean) {
	let kept = 0;
	for (let index = 0; index < list.length; index++) {
		const entry = list[index];
		if (typeof entry === 'string' || typeof entry === 'number') {
			noteSecret(entry, found);
			if (found.mode === 'omit') continue;
			list[kept++] = protectedValue(entry, found.mode);
			continue;
		}
		if (Array.isArray(entry)) walkSecrets(entry, found, highlights);
		else if (entry !== null && typeof entry === 'object') {
			walkObject(entry as IDataObject, found, true, highlights);
		}
		list[kept++] = entry;
	}
	list.length = kept;
}

// ---- free text ----

/** Flare marks what matched in highlights with `<mark>` and `</mark>`. */
const MARK_TAG = /<\/?mark>/g;
const MARK_OPEN = '<mark>';
const MARK_CLOSE = '</mark>';
/** An e-mail address, the login of most leaked credentials. */
const EMAIL = /^[^\s@:<>/]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
/** A username: a letter, then letters, digits and `._+-` (times and dates start with a digit). */
const USERNAME = /^[A-Za-z][\w.+-]*$/;
/**
 * The name of an assignment, as source code, configuration and pastes write it: a whole word of at
 * most 64 characters, quotes (JSON's, also escaped inside another JSON string), then `=` or `:`.
 */
const ASSIGNED_NAME = /(?<![\w.-])([\w.-]{1,64})(?:\\?["'])?[ \t]{0,16}[:=]/g;
/**
 * What follows a secret's name: quotes, an authorization scheme, and the value, up to a space, a
 * quote, `;`, or a comma that a space or another assignment follows (`DB_PASSWORD=Winter,2025` is one
 * value; `token=abc, user=jane` and `token=abc,user=jane` end at the comma).
 */
const ASSIGNED_VALUE =
	/[ \t]{0,16}(?:\\?["'])?(?:(?:bearer|basic|token|digest)[ \t]+)?([^\s"'\\,;<]+(?:,(?![\s,]|[\w.-]{1,64}(?:\\?["'])?[ \t]{0,16}[:=])[^\s"'\\,;<]+)*)/iy;
/**
 * A maximal run of non-space characters with a colon: a candidate credential line, or a part of one.
 * It starts only where a run starts, so that each run is read once (a long run costs its length).
 */
const WITH_COLON = /(?<!\S)\S*:\S*/g;
/** The userinfo of a URL, `scheme://user:password@`: the password is the second group. */
const URL_USERINFO = /(?<![\w+.-])[a-z][\w+.-]{0,31}:\/\/([^\s/?#:]{0,256}):([^\s/?#]{1,1024})@/gi;
/** The userinfo of a host without scheme (a `netloc`): `user:password@host`. */
const NETLOC_USERINFO = /^([^\s/?#:@]{0,256}):([^\s/?#]{1,1024})@/;
/** A query (or fragment) parameter of a URL: its name and value. */
const QUERY_PARAMETER = /[?&#;]([^=&#;\s]{1,64})=([^&#;\s]+)/g;
/** A `Cookie:` or `Set-Cookie:` header: its pairs follow, up to the end of the line. */
const COOKIE_HEADER = /(?<![\w-])(?:set-)?cookie[ \t]{0,16}:[ \t]{0,16}([^\r\n]{1,8192})/gi;
/** The start of a `Cookie:` or `Set-Cookie:` header, as an assignment's name meets it. */
const COOKIE_HEADER_NAME = /^(?:set-)?cookie[ \t]*:$/i;
/** A pair of a cookie header, and the attributes of Set-Cookie, whose values are not secrets. */
const COOKIE_PAIR = /(?:^|;)[ \t]*([^=;\s]+)=([^;\r\n]+)/g;
const COOKIE_ATTRIBUTE = /^(?:path|domain|expires|max-age|samesite|secure|httponly|priority)$/i;

/** Ranges of a text to mask: [start, end) pairs, in any order, overlaps allowed. */
type Ranges = number[];

/** Above this many secret values, a text is read once for all of them rather than once for each. */
const FEW_VALUES = 8;

/** A state of the automaton that finds many values at once: the values read so far end here. */
interface ValueState {
	next: Map<number, ValueState>;
	/** The state of the longest proper suffix that is also a start of some value. */
	fail?: ValueState;
	/** The length of the longest value that ends here, or 0. */
	longest: number;
}

/** The Aho–Corasick automaton of `values`: built in time linear in their length. */
function automatonOf(values: readonly string[]): ValueState {
	const root: ValueState = { next: new Map(), longest: 0 };
	for (const value of values) {
		let state = root;
		for (let at = 0; at < value.length; at++) {
			const code = value.charCodeAt(at);
			let next = state.next.get(code);
			if (!next) state.next.set(code, (next = { next: new Map(), longest: 0 }));
			state = next;
		}
		state.longest = Math.max(state.longest, value.length);
	}
	// Breadth first, so that each state's suffix has its own before it.
	const queue: ValueState[] = [];
	for (const child of root.next.values()) {
		child.fail = root;
		queue.push(child);
	}
	for (let head = 0; head < queue.length; head++) {
		const state = queue[head];
		for (const [code, child] of state.next) {
			let fail = state.fail!;
			while (fail !== root && !fail.next.has(code)) fail = fail.fail!;
			child.fail = fail.next.get(code) ?? root;
			child.longest = Math.max(child.longest, child.fail.longest);
			queue.push(child);
		}
	}
	return root;
}

/**
 * The secret values of a record, to find in its free text: whole texts at once, and each occurrence
 * of a value of 6 characters or more in time linear in the text's length (many values at once by an
 * automaton, rather than each value searched for in turn).
 */
class SecretValues {
	private readonly whole: Set<string>;
	private readonly long: string[];
	private readonly automaton?: ValueState;

	constructor(values: readonly string[] = []) {
		this.whole = new Set(values);
		this.long = [...this.whole].filter((value) => value.length >= MIN_FREE_TEXT_SECRET_LENGTH);
		if (this.long.length > FEW_VALUES) this.automaton = automatonOf(this.long);
	}

	/** Whether `text` is, as a whole, one of the values. */
	has(text: string): boolean {
		return this.whole.has(text);
	}

	/**
	 * Every occurrence of the values of 6 characters or more in `text` (with many values, the longest
	 * that ends at each character: the shorter ones ending there lie inside it).
	 */
	find(text: string, ranges: Ranges): void {
		const root = this.automaton;
		if (!root) {
			for (const value of this.long) {
				for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
					ranges.push(at, at + value.length);
				}
			}
			return;
		}
		let state = root;
		for (let at = 0; at < text.length; at++) {
			const code = text.charCodeAt(at);
			let next = state.next.get(code);
			while (next === undefined && state !== root) {
				state = state.fail!;
				next = state.next.get(code);
			}
			state = next ?? root;
			if (state.longest > 0) ranges.push(at + 1 - state.longest, at + 1);
		}
	}
}

const NO_VALUES = new SecretValues();

/**
 * The values of secret assignments (`DB_PASSWORD=…`, `"api_key": "…"`, `Authorization: Basic …`):
 * only after a secret's name is a value read, so that each character is read a bounded number of times.
 */
function findAssignments(text: string, ranges: Ranges): void {
	const names = new RegExp(ASSIGNED_NAME);
	const values = new RegExp(ASSIGNED_VALUE);
	for (let name = names.exec(text); name; name = names.exec(text)) {
		if (nameKind(name[1]) !== SECRET_NAME) continue;
		// A `Cookie:` header: its pairs are masked one by one, their names kept (findCookieHeaders).
		if (COOKIE_HEADER_NAME.test(name[0])) continue;
		values.lastIndex = names.lastIndex;
		const value = values.exec(text);
		if (!value) continue;
		names.lastIndex = values.lastIndex;
		// An e-mail address after such a name is a login ("logins for password: jane@acme.com").
		if (value[1] === MASK || EMAIL.test(value[1])) continue;
		ranges.push(values.lastIndex - value[1].length, values.lastIndex);
	}
}

/** Whether only spaces or tabs are between `from` and the line's end, in direction `step`. */
function blankTo(text: string, from: number, step: 1 | -1): boolean {
	for (let at = from; at >= 0 && at < text.length; at += step) {
		const character = text[at];
		if (character === '\n' || character === '\r') return true;
		if (character !== ' ' && character !== '\t') return false;
	}
	return true;
}

/**
 * The password of a credential line, the login kept (docs/api-contract.md, "Masking"):
 * `e-mail:password` anywhere, `url:login:password` anywhere, `login:password` as a line of its own.
 */
function findCredentialLines(text: string, ranges: Ranges): void {
	for (const match of text.matchAll(WITH_COLON)) {
		const token = match[0];
		const colon = token.lastIndexOf(':');
		const password = token.slice(colon + 1);
		if (password === '' || password.startsWith('//') || password === MASK) continue;
		const before = token.slice(0, colon);
		const login = before.slice(before.lastIndexOf(':') + 1);
		const start = match.index;
		const credential =
			EMAIL.test(login) ||
			(USERNAME.test(login) &&
				(before.includes(':') ||
					(blankTo(text, start - 1, -1) && blankTo(text, start + token.length, 1))));
		if (credential) ranges.push(start + colon + 1, start + token.length);
	}
}

/** The password of the userinfo of every URL (`ftp://user:password@host`). */
function findUserinfo(text: string, ranges: Ranges): void {
	for (const match of text.matchAll(URL_USERINFO)) {
		const end = match.index + match[0].length - 1;
		ranges.push(end - match[2].length, end);
	}
}

/** The values of `Cookie:` and `Set-Cookie:` headers (their attributes kept). */
function findCookieHeaders(text: string, ranges: Ranges): void {
	for (const header of text.matchAll(COOKIE_HEADER)) {
		const offset = header.index + header[0].length - header[1].length;
		for (const pair of header[1].matchAll(COOKIE_PAIR)) {
			if (COOKIE_ATTRIBUTE.test(pair[1])) continue;
			const end = offset + pair.index + pair[0].length;
			ranges.push(end - pair[2].length, end);
		}
	}
}

/** The values of query and fragment parameters named like secrets (`?token=…`, `&password=…`). */
function findSecretParameters(url: string, ranges: Ranges): void {
	for (const match of url.matchAll(QUERY_PARAMETER)) {
		const [whole, name, value] = match;
		if (nameKind(name) !== SECRET_NAME) continue;
		const end = match.index + whole.length;
		ranges.push(end - value.length, end);
	}
}

/**
 * `text` with `ranges` (positions in `plain`, the text without its `<mark>` tags) replaced by the
 * mask. A range covers the tags inside it; those that open or close a mark outside it are kept after
 * the mask, so that marks stay balanced.
 */
function applyRanges(text: string, plain: string, ranges: Ranges): string {
	const pairs: Array<[number, number]> = [];
	for (let index = 0; index < ranges.length; index += 2)
		pairs.push([ranges[index], ranges[index + 1]]);
	pairs.sort((a, b) => a[0] - b[0]);
	// Where each character of `plain` is in `text` (only when `text` has tags).
	const tagged = plain.length !== text.length;
	const positions = tagged ? new Int32Array(plain.length) : undefined;
	if (positions) {
		for (let at = 0, index = 0; at < text.length && index < plain.length; ) {
			if (text.startsWith(MARK_OPEN, at)) at += MARK_OPEN.length;
			else if (text.startsWith(MARK_CLOSE, at)) at += MARK_CLOSE.length;
			else positions[index++] = at++;
		}
	}
	const at = (index: number) => (positions ? positions[index] : index);
	let result = '';
	let done = 0;
	for (let index = 0; index < pairs.length; ) {
		const start = pairs[index][0];
		let end = pairs[index][1];
		for (index++; index < pairs.length && pairs[index][0] <= end; index++) {
			end = Math.max(end, pairs[index][1]);
		}
		if (end <= start) continue;
		let from = at(start);
		let to = at(end - 1) + 1;
		let tags: string[] = [];
		if (tagged) {
			tags = unbalancedTags(text.slice(from, to));
			// A mark around part of the range and the characters next to it: the range takes it whole.
			while (
				tags[0] === MARK_CLOSE &&
				from > done &&
				text.startsWith(MARK_OPEN, from - MARK_OPEN.length)
			) {
				from -= MARK_OPEN.length;
				tags.shift();
			}
			while (tags[tags.length - 1] === MARK_OPEN && text.startsWith(MARK_CLOSE, to)) {
				to += MARK_CLOSE.length;
				tags.pop();
			}
		}
		result += text.slice(done, from) + MASK + tags.join('');
		done = to;
	}
	return result + text.slice(done);
}

/** The `<mark>` tags of `part` that its own tags do not balance, in order. */
function unbalancedTags(part: string): string[] {
	const kept: string[] = [];
	for (const [tag] of part.matchAll(MARK_TAG)) {
		if (tag === MARK_CLOSE && kept[kept.length - 1] === MARK_OPEN) kept.pop();
		else kept.push(tag);
	}
	return kept;
}

/**
 * Free text with the record's secret values, the values of secret assignments, the passwords of
 * credential lines and of URLs' userinfo, and the values of cookie headers masked. Flare's `<mark>`
 * tags are read through: a password the highlight splits is masked whole. A text that is a secret
 * value of the record as a whole is masked as that value is.
 */
export function maskFreeText(text: string, values: readonly string[] = []): string {
	return maskText(text, values.length ? new SecretValues(values) : NO_VALUES);
}

/** {@link maskFreeText}, with the record's values ready to look for. */
function maskText(text: string, values: SecretValues): string {
	const plain =
		text.includes(MARK_OPEN) || text.includes(MARK_CLOSE) ? text.replace(MARK_TAG, '') : text;
	if (values.has(text)) return maskValue(text) as string;
	const ranges: Ranges = [];
	values.find(plain, ranges);
	// Every other rule needs a colon or an equals sign.
	if (plain.includes(':') || plain.includes('=')) {
		findAssignments(plain, ranges);
		if (plain.includes(':')) {
			findCredentialLines(plain, ranges);
			if (plain.includes('://')) findUserinfo(plain, ranges);
			if (/cookie/i.test(plain)) findCookieHeaders(plain, ranges);
		}
	}
	return ranges.length === 0 ? text : applyRanges(text, plain, ranges);
}

/**
 * A URL with the password of its userinfo, the values of secret-named parameters and the record's
 * own secret values (wherever they are: a path, any parameter; as they are or percent-encoded) masked.
 */
function maskUrl(url: string, values: SecretValues): string {
	const ranges: Ranges = [];
	values.find(url, ranges);
	if (url.includes('@') && url.includes('://')) findUserinfo(url, ranges);
	if (url.includes('=')) findSecretParameters(url, ranges);
	return ranges.length === 0 ? url : applyRanges(url, url, ranges);
}

/** A host (`user:password@host`, a URL's netloc) with the password of its userinfo masked. */
function maskNetloc(netloc: string, values: SecretValues): string {
	const match = netloc.includes('@') ? NETLOC_USERINFO.exec(netloc) : null;
	if (!match) return maskUrl(netloc, values);
	return maskUrl(`${match[1]}:${MASK}${netloc.slice(match[0].length - 1)}`, values);
}

/** Masks the noted free text and URLs of a walk, in place. */
function maskNoted(found: Found): void {
	const values = found.values ? new SecretValues(found.values) : NO_VALUES;
	for (const [holder, key] of found.texts ?? []) {
		const strings = holder as Record<string | number, string>;
		strings[key] = maskText(strings[key], values);
	}
	for (const [holder, key] of found.urls ?? []) {
		const strings = holder as Record<string | number, string>;
		strings[key] = maskUrl(strings[key], values);
	}
	for (const [holder, key] of found.netlocs ?? []) {
		const strings = holder as Record<string | number, string>;
		strings[key] = maskNetloc(strings[key], values);
	}
}

/**
 * Protects the leaked and monitored secrets of a record, at any depth and in place, and returns it
 * (docs/api-contract.md, "Masking"): the value of every secret field (by what its key means:
 * passwords, leaked hashes, monitored secrets, tokens, keys, sessions; a cookie's value), whatever its
 * type, gets the mode; in every mode but Full, free
 * text (every string but the structured ones: ids, dates, logins, kinds…) has the record's own secret
 * values, the values of secret assignments and cookie headers and the passwords of credential lines
 * and URLs masked, and URLs the passwords of their userinfo and the values of secret-named
 * parameters. Full leaves the record as it is.
 */
export function protectLeakedValues(record: IDataObject, mode: LeakedValueOutput): IDataObject {
	return protectLeakedValuesWith(record, mode, []);
}

/**
 * {@link protectLeakedValues}, with secrets the item was given (e.g. the secret a search looks for)
 * masked in the record's free text as its own are; `isCookie`: the record is a leaked cookie, whose
 * `value` is a secret whatever its other fields.
 */
export function protectLeakedValuesWith(
	record: IDataObject,
	mode: LeakedValueOutput,
	given: readonly string[],
	isCookie = false,
): IDataObject {
	if (mode === 'full') return record;
	const found: Found = { mode };
	for (const value of given) noteValue(value, found);
	walkObject(record, found, isCookie, false);
	maskNoted(found);
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
