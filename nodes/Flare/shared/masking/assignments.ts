/**
 * A secret's name, a separator, then its value (docs/api-contract.md, "Masking", rule 2), in every
 * notation that writes a name and a value side by side:
 *
 *   DB_PASSWORD=hunter2            export TOKEN=…            password := "…"     'password' => '…'
 *   Password: correct horse        "apiKey": "…"             {\"pwd\": \"…\"}     $cfg['password'] = '…'
 *   - **Password:** hunter2        [b]Pass:[/b] hunter2      api key = …         Пароль: …
 *   Authorization: Bearer …        X-Api-Key: …              Cookie: sid=…; csrftoken=…
 *   Server=db;User Id=sa;Password=…;                         define('DB_PASSWORD', '…')
 *   <add key="Password" value="…"/>  {"name": "Authorization", "value": "…"}   | Password | … |
 *   Password<TAB>…                 Password - …              <password>…</password>
 *
 * The name is the rule's (names.ts), of one word or of up to three (`API Key`, `mot de passe`); the
 * separator `=`, `:`, `:=`, `=>`, `==`, their full-width forms, a `,` between quoted name and value
 * (a call or a tuple), and at a line's head also a tab, a table's cell border or a dash. The value:
 * in quotes, to its closing quote on the line (of the same level of escaping); after a label (a name
 * at the line's head and `:`, a tab, a cell border or a dash, or `=` with blanks around it, as INI
 * files write it), the rest of the line, to a comment, a `;`, a cell's end or another name and
 * separator; else up to a blank, a quote, `;`, or a comma before a blank or another name. An
 * authorization scheme (`Bearer`, `Basic`, `token`…) before it is kept. A label without a value on
 * its line takes the next line that is no label (`Password:` then `  hunter2`). Not masked: an
 * e-mail address (a login: "logins for password: jane@acme.com") and placeholders (`null`, `****`).
 */
import { EMAIL, PIPE, TAB, isBlank, isNameCode, isQuote } from './chars';
import { NOT_SECRET_NAME, SECRETS_NAME, nameKind } from './names';
import type { Reader } from './reader';
import { privateKey } from './shapes';
import { isUrlStart, url } from './urls';

/** How a name meets its value. */
const EQUALS = 1;
const COLON = 2;
/** `'name', 'value'`: a call or a tuple. */
const COMMA = 3;
/** At a line's head: a tab, a cell border (`| Password | … |`), a dash (`Password - …`). */
const TABBED = 4;
const CELL = 5;
const DASH = 6;

interface Separator {
	kind: number;
	/** Where the value may start. */
	valueAt: number;
	/** `=` with blanks on both sides (`password = …`, as INI files write it). */
	spaced: boolean;
}

/** Names of pairs: the name of a pair's value (`name="Password" value="…"`, `<add key=…>`). */
const PAIR_NAMES = new Set([
	'name',
	'key',
	'header',
	'id',
	'field',
	'property',
	'param',
	'parameter',
	'variable',
	'var',
	'setting',
	// `<input type="password" value="…">`, `{"type": "password", "value": "…"}`
	'type',
]);
/** Last words of names of several words (`API Key`, `Recovery phrase`, `mot de passe`, `Session ID`). */
const NAME_TAILS = new Set([
	'key',
	'keys',
	'phrase',
	'phrases',
	'code',
	'id',
	'passe',
	'khẩu',
	'sandi',
	'المرور',
	'السر',
	'string',
	'value',
	'word',
]);
/** Authorization schemes before a credential (RFC 9110 §11, GitHub's `token`, Discord's `Bot`). */
const SCHEMES = new Set([
	'bearer',
	'basic',
	'token',
	'digest',
	'bot',
	'apikey',
	'negotiate',
	'ntlm',
	'hmac',
	'oauth',
]);
/** Values that hold no secret: placeholders, and masks (ours among them). */
const PLACEHOLDER =
	/^(?:null|none|nil|undefined|empty|n\/a|unknown|hidden|redacted|\[(?:redacted|hidden|empty|none)\]|<(?:redacted|hidden|empty|none)>|\((?:redacted|hidden|empty|none)\)|\*+|x{3,}|X{3,}|•+|-+|\.+|#+)$/i;
/** Attributes of `Set-Cookie`, whose values are not secrets. */
const COOKIE_ATTRIBUTE =
	/^(?:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned)$/i;

interface ValueOptions {
	/** The rest of the line (a label), rather than one word. */
	rest?: boolean;
	/** What else ends the value: a tab (a tab-separated label). */
	tabbed?: boolean;
	/** A URL's parameter: `&` and `#` end it. */
	parameter?: boolean;
	/** Only a quoted value counts (a call's second argument). */
	quotedOnly?: boolean;
	/** A name in the plural: a count is no secret (`tokens: 3`), and its value is one word. */
	plural?: boolean;
	/** A value that is itself a secret's name is a list of names, not a secret (`["password", "token"]`). */
	notNames?: boolean;
	/** After `=`: `;` and another name and `=` end it (`Password=…;User Id=sa`). */
	pairs?: boolean;
	/** An element's text (`<password>… (old)</password>`): all of it, remarks and names included. */
	whole?: boolean;
}

/**
 * A name and separator at `at`…`end`: masks its value when the name is a secret's and returns where
 * reading goes on; -1 when no separator follows.
 */
export function assignmentAt(reader: Reader, at: number, end: number, head: boolean): number {
	const { plain } = reader;
	// A label of a few words at the line's head (`New Password:`, `API Key:`).
	const nameHead =
		head ||
		(reader.word1 !== -1 && (reader.word1Head || (reader.word2 !== -1 && reader.word2Head)));
	const separator = separatorAfter(reader, at, end, nameHead);
	if (!separator) return -1;
	const run = plain.slice(at, end);
	let kind = nameKind(run);
	if (kind === NOT_SECRET_NAME && reader.word1 !== -1 && NAME_TAILS.has(run.toLowerCase())) {
		kind = nameKind(plain.slice(reader.word1, end));
		if (kind === NOT_SECRET_NAME && reader.word2 !== -1)
			kind = nameKind(plain.slice(reader.word2, end));
	}
	const lower = run.length <= 16 ? run.toLowerCase() : '';
	// `name: DB_PASSWORD`, `key="Password"`, `<add key=…>`, but not `API Key: …` (a secret's name of several words).
	const pair =
		PAIR_NAMES.has(lower) &&
		(reader.word1 === -1 || nameKind(plain.slice(reader.word1, end)) === NOT_SECRET_NAME);
	reader.forgetWords();
	if (pair) return pairName(reader, separator, lower === 'key');
	if (kind === NOT_SECRET_NAME) return otherName(reader, at, lower, separator);
	if ((lower === 'cookie' || lower === 'set-cookie') && separator.kind === COLON) {
		return cookiePairs(reader, separator.valueAt);
	}
	const plural = kind === SECRETS_NAME;
	const before = plain.charCodeAt(at - 1);
	return readValue(reader, separator.valueAt, {
		rest:
			!plural &&
			nameHead &&
			(separator.kind >= COLON && separator.kind !== COMMA ? true : separator.spaced),
		tabbed: separator.kind === TABBED,
		parameter: before === 0x3f || before === 0x26,
		quotedOnly: separator.kind === COMMA,
		notNames: separator.kind === COMMA,
		pairs: separator.kind === EQUALS,
		plural,
	});
}


/**
 * A secret's name followed by a blank then its value, where a format writes it so: `.netrc`'s
 * `password …`, and `Bearer …` in a header written without its name. -1 when there is none.
 */
export function spacedValue(reader: Reader, at: number, end: number): number {
	const { plain } = reader;
	const length = end - at;
	// SQL: `IDENTIFIED BY '…'`, `WITH PASSWORD '…'` (a quoted value only).
	if (length === 2 && (plain.charCodeAt(at) | 0x20) === 0x62 && (plain.charCodeAt(at + 1) | 0x20) === 0x79) {
		const previous = reader.word1;
		return previous !== -1 && plain.slice(previous, previous + 11).toLowerCase() === 'identified '
			? readValue(reader, end, { quotedOnly: true })
			: -1;
	}
	const first = plain.charCodeAt(at) | 0x20;
	if ((length !== 6 && length !== 8) || (first !== 0x70 && first !== 0x62)) return -1;
	const word = plain.slice(at, end);
	const lower = word.toLowerCase();
	if (reader.netrc && (lower === 'password' || lower === 'passwd')) {
		return readValue(reader, end, {});
	}
	if (lower === 'password' && isQuote(plain.charCodeAt(reader.skipBlanks(end)))) {
		return readValue(reader, end, { quotedOnly: true });
	}
	if (word === 'Bearer' || word === 'bearer') {
		const start = reader.skipBlanks(end);
		const valueEnd = wordEnd(reader, start, {});
		// A credential, not a word ("Bearer tokens of the service account", "Bearer authentication").
		const value = plain.slice(start, valueEnd);
		if (
			value.length >= 8 &&
			(value.length >= 16 || /\d/.test(value)) &&
			nameKind(value) === NOT_SECRET_NAME
		) {
			reader.mask(start, valueEnd);
			return valueEnd;
		}
	}
	return -1;
}

/** The separator after the name `at`…`end`, if one follows. */
function separatorAfter(
	reader: Reader,
	at: number,
	end: number,
	head: boolean,
): Separator | undefined {
	const { plain } = reader;
	let index = end;
	let code = plain.charCodeAt(index);
	const quotedName = isQuote(plain.charCodeAt(at - 1)) && isQuote(code);
	if (isQuote(code)) {
		reader.passQuote(index);
		code = plain.charCodeAt(++index);
	}
	if (code === 0x5d) code = plain.charCodeAt(++index);
	const blanksFrom = index;
	let tabbed = false;
	while (index < reader.lineEnd && index - blanksFrom < 16 && isBlank(code)) {
		if (code === TAB) tabbed = true;
		code = plain.charCodeAt(++index);
	}
	const blankBefore = index > blanksFrom;
	const next = plain.charCodeAt(index + 1);
	const spacedAfter = (length: number) => isBlank(plain.charCodeAt(index + length));
	switch (code) {
		case 0x3a: // :
			if (next === 0x3a) return undefined;
			if (next === 0x3d)
				return { kind: EQUALS, valueAt: index + 2, spaced: blankBefore && spacedAfter(2) };
			if (next === 0x2f && plain.charCodeAt(index + 2) === 0x2f) return undefined;
			return { kind: COLON, valueAt: index + 1, spaced: false };
		case 0xff1a: // ：
			return { kind: COLON, valueAt: index + 1, spaced: false };
		case 0x3d: // =, ==, ===, =>
		case 0xff1d: {
			let length = 1;
			if (next === 0x3e) length = 2;
			else if (next === 0x3d) length = plain.charCodeAt(index + 2) === 0x3d ? 3 : 2;
			else if (next === 0x7e) return undefined;
			return { kind: EQUALS, valueAt: index + length, spaced: blankBefore && spacedAfter(length) };
		}
		case 0x2d: // ->, or a dash between blanks at a line's head
			if (next === 0x3e) return { kind: EQUALS, valueAt: index + 2, spaced: false };
			return head && blankBefore && isBlank(next)
				? { kind: DASH, valueAt: index + 1, spaced: false }
				: undefined;
		case 0x2013: // – —
		case 0x2014:
			return head && blankBefore && isBlank(next)
				? { kind: DASH, valueAt: index + 1, spaced: false }
				: undefined;
		case PIPE:
			return head && reader.pipeRow && !reader.headerRow
				? { kind: CELL, valueAt: index + 1, spaced: false }
				: undefined;
		case 0x2c: {
			// 'DB_PASSWORD', '…'
			if (!quotedName) return undefined;
			let value = index + 1;
			while (value < reader.lineEnd && value - index < 16 && isBlank(plain.charCodeAt(value)))
				value++;
			return isQuote(plain.charCodeAt(value))
				? { kind: COMMA, valueAt: value, spaced: false }
				: undefined;
		}
	}
	if (tabbed && head && !reader.table && index < reader.lineEnd)
		return { kind: TABBED, valueAt: index, spaced: false };
	return undefined;
}

/**
 * `name="Password"`, `"key": "Authorization"`: the value is a name; a `value` that follows within a
 * few lines is a secret. A `key` alone is a secret (`key: …`), as a JSON key `key` is.
 */
function pairName(reader: Reader, separator: Separator, isKey: boolean): number {
	const { plain } = reader;
	let start = reader.skipBlanks(separator.valueAt);
	let end: number;
	const quoted = isQuote(plain.charCodeAt(start));
	if (quoted) {
		const close = reader.closingQuote(start);
		if (close === -1) return start + 1;
		start++;
		end = close;
	} else {
		end = reader.runEnd(start);
		// A name stands alone: `name: DB_PASSWORD`, not `key: Hunter2Secret!`.
		const after = plain.charCodeAt(end);
		if (
			end < reader.lineEnd &&
			!isBlank(after) &&
			after !== 0x2c &&
			after !== 0x3b &&
			after !== 0x7d
		)
			end = -1;
	}
	if (end !== -1 && isSecretName(plain.slice(start, end))) {
		reader.pairUntil = end + 256;
		return end + (quoted ? 1 : 0);
	}
	if (isKey && (end === -1 || !valueFollows(plain, end + (quoted ? 1 : 0), reader.lineEnd))) {
		return readValue(reader, separator.valueAt, {});
	}
	return separator.valueAt;
}

/** Whether a `value` name follows soon after a pair's name (`key="X" value=…`, `"key": "X", "value": …`). */
function valueFollows(plain: string, at: number, lineEnd: number): boolean {
	const near = plain.slice(at, Math.min(lineEnd, at + 24));
	return /^\W{0,8}value\b/i.test(near);
}

/**
 * A name that is no secret's: a pair's `value` (after a name of a secret, or beside the fields of a
 * browser's cookie export: `hostOnly`, `httpOnly`, `sameSite`…), a PuTTY key's `Private-Lines`, or
 * nothing (-1: read on).
 */
function otherName(reader: Reader, at: number, lower: string, separator: Separator): number {
	if (COOKIE_FIELDS.has(lower)) reader.cookieFieldAt = at;
	if (lower === 'value' && (reader.pairUntil >= at || nearCookieField(reader, at))) {
		reader.pairUntil = -1;
		return readValue(reader, separator.valueAt, {});
	}
	if (lower === 'private-lines') {
		// PuTTY's key file: this many lines of the private key follow (PuTTY's manual, appendix C).
		const start = reader.skipBlanks(separator.valueAt);
		const digits = /^\d{1,5}/.exec(reader.plain.slice(start, start + 5));
		if (digits) reader.privateLines = Number(digits[0]);
	}
	return -1;
}

/** Fields of cookies exported by browsers and their extensions (EditThisCookie, Playwright's storage state). */
const COOKIE_FIELDS = new Set([
	'httponly',
	'samesite',
	'hostonly',
	'expirationdate',
	'host_key',
	'storeid',
]);
const COOKIE_FIELD = /httpOnly|sameSite|hostOnly|expirationDate|host_key|storeId/gi;
/** How near a cookie's field a `value` is one of its cookie's (an object's fields). */
const COOKIE_REACH = 256;

/** Whether a cookie's field is within reach of `at`, before or after it (found once per stretch of text). */
function nearCookieField(reader: Reader, at: number): boolean {
	if (at - reader.cookieFieldAt <= COOKIE_REACH) return true;
	if (reader.nextCookieFieldAt < at) {
		COOKIE_FIELD.lastIndex = at;
		const found = COOKIE_FIELD.exec(reader.plain);
		reader.nextCookieFieldAt = found ? found.index : Infinity;
	}
	return reader.nextCookieFieldAt - at <= COOKIE_REACH;
}

/** The pairs of a `Cookie:` or `Set-Cookie:` header: their values masked, their names and attributes kept. */
function cookiePairs(reader: Reader, from: number): number {
	const { plain } = reader;
	let at = reader.skipBlanks(from);
	let limit = reader.lineEnd;
	if (isQuote(plain.charCodeAt(at))) {
		const close = reader.closingQuote(at);
		if (close !== -1) limit = close;
		at++;
	}
	let pairs = 0;
	const start = at;
	while (at < limit) {
		while (at < limit && (isBlank(plain.charCodeAt(at)) || plain.charCodeAt(at) === 0x3b)) at++;
		const nameStart = at;
		while (at < limit && plain.charCodeAt(at) !== 0x3d && plain.charCodeAt(at) !== 0x3b) at++;
		if (at >= limit || plain.charCodeAt(at) !== 0x3d) continue;
		pairs++;
		const name = plain.slice(nameStart, at).trim();
		const valueStart = ++at;
		while (at < limit && plain.charCodeAt(at) !== 0x3b) at++;
		if (!COOKIE_ATTRIBUTE.test(name)) reader.mask(valueStart, reader.trimEnd(valueStart, at));
	}
	// A cookie's value alone (`"Cookie": "…"`).
	if (pairs === 0 && maybeSecret(reader, start, reader.trimEnd(start, limit)))
		reader.mask(start, reader.trimEnd(start, limit));
	return limit;
}

/** Reads the value that starts at `from` (after blanks), masks it when it may be a secret, and returns its end. */
export function readValue(reader: Reader, from: number, options: ValueOptions): number {
	const { plain } = reader;
	let at = reader.skipBlanks(from);
	// `| Password: | hunter2 |`: the value is the next cell (and the line a row, where it did not start so).
	if (plain.charCodeAt(at) === PIPE && options.rest && !isBlockScalar(reader, at)) {
		reader.pipeRow = true;
		at = reader.skipBlanks(at + 1);
	}
	if (at >= reader.lineEnd) {
		if (options.rest && !reader.headerRow) reader.labelPending = true;
		return at;
	}
	// A private key after its name (`"private_key": "-----BEGIN PRIVATE KEY-----\n…"`): its body.
	const keyAt = isQuote(plain.charCodeAt(at)) ? at + 1 : at;
	if (plain.startsWith('-----BEGIN ', keyAt)) return privateKey(reader, keyAt);
	// A link after a label (`Session: https://app.flare.io/#/…`) is read as a URL: its secrets only.
	if (isUrlStart(plain, keyAt, reader.runEnd(keyAt))) return url(reader, keyAt);
	if (isQuote(plain.charCodeAt(at))) {
		const close = reader.closingQuote(at);
		if (close !== -1) {
			const start = afterScheme(reader, at + 1, close);
			// `["password", "token", …]`: a list of names goes on after each.
			const after = plain.charCodeAt(reader.skipBlanks(close + 1));
			const listed = options.notNames && (after === 0x2c || after === 0x5d);
			if (accepts(reader, start, close, { ...options, notNames: listed }))
				reader.mask(start, close);
			return close + 1;
		}
		if (options.quotedOnly) return at + 1;
		at++;
	} else if (options.quotedOnly) return at;
	// `"cookies": [{…}]`, `"password": {…}`: a structure, read on (its own names say what it holds).
	const first = plain.charCodeAt(at);
	// YAML's block scalar (`password: |`, `key: >-`): the lines indented more than the label's.
	if (isBlockScalar(reader, at)) {
		reader.blockIndent = reader.skipBlanks(reader.lineStart) - reader.lineStart;
		return reader.lineEnd;
	}
	if (first === 0x5b || first === 0x7b) return at;
	at = afterScheme(reader, at, reader.lineEnd);
	const end = options.rest ? restEnd(reader, at, options) : wordEnd(reader, at, options);
	if (accepts(reader, at, end, options)) reader.mask(at, end);
	return Math.max(end, at);
}

/** Whether `at` starts YAML's block scalar indicator, alone on its line (`|`, `>-`, `|2`). */
function isBlockScalar(reader: Reader, at: number): boolean {
	const { plain } = reader;
	const first = plain.charCodeAt(at);
	if (first !== PIPE && first !== 0x3e) return false;
	let end = at + 1;
	while (end < reader.lineEnd && end - at <= 3 && !isBlank(plain.charCodeAt(end))) end++;
	return reader.skipBlanks(end) >= reader.lineEnd && /^[|>][-+]?\d?$/.test(plain.slice(at, end));
}

/** Past an authorization scheme and its blanks (`Bearer …`), when a credential follows it. */
function afterScheme(reader: Reader, at: number, limit: number): number {
	const { plain } = reader;
	let end = at;
	while (end < limit && end - at <= 9 && isNameCode(plain.charCodeAt(end))) end++;
	if (end === at || end - at > 9) return at;
	const scheme = plain.slice(at, end).toLowerCase();
	if (!SCHEMES.has(scheme)) return at;
	let value = end;
	while (value < limit && isBlank(plain.charCodeAt(value))) value++;
	// `Authorization: Basic` and nothing after (a preview cut there): a scheme, no credential; at a
	// line's end, the credential may be on the next (a folded header), unless that starts a label.
	if (value >= limit && STANDARD_SCHEMES.has(scheme)) {
		if (limit === reader.lineEnd) reader.labelPending = true;
		return limit;
	}
	if (!isBlank(plain.charCodeAt(end))) return at;
	return value < limit && !isQuote(plain.charCodeAt(value)) ? value : at;
}

/** The schemes of RFC 9110's registry among {@link SCHEMES}: never a value on their own. */
const STANDARD_SCHEMES = new Set(['bearer', 'basic', 'digest', 'negotiate', 'ntlm']);

/** A secret's name as a value writes it (`name="DB_PASSWORD"`): a name, not a password that holds `pw`. */
const NAME = /^[\p{L}_][\p{L}\p{N}_.\- ]{0,63}$/u;
const isSecretName = (value: string) => NAME.test(value) && nameKind(value) !== NOT_SECRET_NAME;

/** Whether a name and a separator start at `at` (`user=jane` after a comma or a blank). */
function pairStartsAt(reader: Reader, at: number): boolean {
	const { plain } = reader;
	if (!isNameCode(plain.charCodeAt(at))) return false;
	let end = reader.runEnd(at);
	// A name of up to three words (`User Id=`, `Initial Catalog=`, as connection strings write them).
	for (let words = 1; words < 3 && plain.charCodeAt(end) === 0x20 && isNameCode(plain.charCodeAt(end + 1)); words++) {
		end = reader.runEnd(end + 1);
	}
	if (end - at > 64) return false;
	if (isQuote(plain.charCodeAt(end))) end++;
	const code = plain.charCodeAt(end);
	if (code === 0x3d) return true;
	// `Server: db; Password: …`; but `a:x` may be a value's (`Bearer abc;a:x`).
	return code === 0x3a && (isBlank(plain.charCodeAt(end + 1)) || end + 1 >= reader.lineEnd);
}

/**
 * Whether a `;` at `at` ends a value: before a blank or the line's end, or (a value after `=`, as
 * connection strings write them: `Password=…;User Id=sa`) another name and `=`; inside a value it
 * is the value's (`xK9;Zq9Rt`, `-pAb;c=d`).
 */
function endsAtSemicolon(reader: Reader, at: number, options: ValueOptions): boolean {
	if (reader.plain.charCodeAt(at) !== 0x3b) return false;
	const next = at + 1;
	return (
		next >= reader.lineEnd ||
		isBlank(reader.plain.charCodeAt(next)) ||
		(options.pairs === true && pairStartsAt(reader, next))
	);
}

/** The end of a value of one word. */
function wordEnd(reader: Reader, at: number, options: ValueOptions): number {
	const { plain, lineEnd, pipeRow } = reader;
	let end = at;
	for (; end < lineEnd; end++) {
		const code = plain.charCodeAt(end);
		if (isBlank(code) || (isQuote(code) && reader.endsString(end)) || endsAtSemicolon(reader, end, options)) break;
		if (code === 0x2c) {
			const next = end + 1;
			if (
				next >= lineEnd ||
				isBlank(plain.charCodeAt(next)) ||
				plain.charCodeAt(next) === 0x2c ||
				pairStartsAt(reader, next)
			)
				break;
		}
		if (options.parameter && (code === 0x26 || code === 0x23)) break;
		if (pipeRow && code === PIPE) break;
	}
	return end;
}

/**
 * The end of a label's value: the rest of the line, but for a comment (` #`), a `;`, a remark
 * (` (`, ` - `, ` — `), a cell's end, a tab after a tab, and another name and separator.
 */
function restEnd(reader: Reader, at: number, options: ValueOptions): number {
	const { plain, lineEnd, pipeRow } = reader;
	let end = at;
	let last = at;
	/** Where the value's last word starts, and where the value ends before it. */
	let word = at;
	let beforeWord = at;
	while (end < lineEnd) {
		const code = plain.charCodeAt(end);
		if (endsAtSemicolon(reader, end, options) || (pipeRow && code === PIPE) || (options.tabbed && code === TAB)) break;
		// In a string (`"Password: correct horse"`): to its closing quote.
		if (isQuote(code) && reader.endsString(end)) break;
		if (isBlank(code)) {
			const next = reader.skipBlanks(end);
			const after = plain.charCodeAt(next);
			if (options.whole) {
				end = next;
				continue;
			}
			if (after === 0x28 && word > at && remarkEndsLabel(reader, next)) {
				// `Password (old): … Password (new): …`: the last word and its remark are a label.
				reader.labelMayStartAt = word;
				return beforeWord;
			}
			if (after === 0x23 || after === 0x28) break;
			if (
				(after === 0x2d || after === 0x2013 || after === 0x2014) &&
				isBlank(plain.charCodeAt(next + 1))
			)
				break;
			if (pairStartsAt(reader, next)) {
				// `Password 1: … Password 2: …`: the next words may be a label of several words.
				reader.labelMayStartAt = next;
				break;
			}
			beforeWord = last;
			word = next;
			end = next;
			continue;
		}
		if (code === 0x2c && pairStartsAt(reader, reader.skipBlanks(end + 1))) break;
		end++;
		last = end;
	}
	return last;
}

/** Whether the `(` at `at` closes within 24 characters, followed by `:` (`Password (new): …`). */
function remarkEndsLabel(reader: Reader, at: number): boolean {
	const { plain, lineEnd } = reader;
	for (let index = at + 1; index < lineEnd && index - at <= 24; index++) {
		if (plain.charCodeAt(index) === 0x29) return plain.charCodeAt(index + 1) === 0x3a;
	}
	return false;
}

/**
 * Whether `start`…`end` of `plain` may be a secret: not empty, not a placeholder, and (unless the
 * notation says it is a password, as a table's column does) not an e-mail address, a login.
 */
export function maybeSecret(reader: Reader, start: number, end: number, loginsToo = true): boolean {
	if (end <= start) return false;
	if (end - start > 64) return true;
	// Judged on the text as written: read through, `P~@x.~y` looks like an address.
	const value = reader.original(start, end);
	return !(loginsToo && EMAIL.test(value)) && !PLACEHOLDER.test(reader.plain.slice(start, end));
}

/** {@link maybeSecret}, and not a count of a plural, nor a name in a list of names. */
function accepts(reader: Reader, start: number, end: number, options: ValueOptions): boolean {
	if (!maybeSecret(reader, start, end)) return false;
	if (end - start > 64) return true;
	const value = reader.plain.slice(start, end);
	if (options.plural && /^\d+$/.test(value)) return false;
	return !(options.notNames && isSecretName(value));
}
