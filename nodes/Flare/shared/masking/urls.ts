/**
 * URLs, in free text and in URL fields (docs/api-contract.md, "Masking", rule 4):
 *
 *   ftp://backup:hunter2@files.acme.com/        https://jane@acme.com:p@ss@host/   (to the last `@`)
 *   https://acme.com/reset?token=…&lang=en      ?redirect=https://sso/cb?token=…   ?next=%2Fcb%3Ftoken%3D…
 *   jdbc:mysql://db/app?user=jane&password=…    jdbc:sqlserver://db;user=jane;password=…
 *   jdbc:oracle:thin:jane/…@db:1521:app         mongodb+srv://jane:…@cluster.acme.com
 *   https://hooks.slack.com/services/…          https://discord.com/api/webhooks/…
 *   https://acme.webhook.office.com/webhookb2/… (incoming webhooks: whoever has the path can post)
 *   https://acme.com/login:jane:hunter2         android://…@com.app/:jane:hunter2  (stealer logs' URL:login:password)
 *   https://api.telegram.org/bot123456789:AA…/sendMessage                           (shapes.ts)
 *
 * The password of the userinfo; the values of query, fragment and `;` parameters whose name is a
 * secret's, also inside another parameter's value, as it is or percent-encoded; the path after an
 * incoming webhook's prefix; the password of a `URL:login:password` line; tokens of known shapes.
 */
import { isBlank, isDigit, isNameCode, isQuote, PIPE } from './chars';
import { loginAndPassword } from './credentials';
import { hasDot, isComboHost, isHostName, isPort } from './hosts';
import { SECRET_NAME, nameKind } from './names';
import type { Ranges, Reader } from './reader';
import { tokenShape } from './shapes';

/** Whether the run `at`…`end` starts a URL: a scheme and `://`, or `jdbc:…://`, `jdbc:oracle:`. */
export function isUrlStart(plain: string, at: number, end: number): boolean {
	if (plain.startsWith('://', end)) return end - at <= 32;
	if (end - at !== 4 || plain.slice(at, end).toLowerCase() !== 'jdbc') return false;
	const sub = end + 1;
	let subEnd = sub;
	while (subEnd - sub <= 16 && isNameCode(plain.charCodeAt(subEnd))) subEnd++;
	return plain.startsWith('://', subEnd) || plain.startsWith('oracle:', sub);
}

/** A URL of free text that starts at `at`: masks what it holds, and returns its end. */
export function url(reader: Reader, at: number): number {
	const { plain, lineEnd, pipeRow } = reader;
	// A URL ends at a blank, at the quote that opened it (`curl 'https://…'`) or that closes the
	// string it is in (`"url": "https://…"`), and at the `>` or `|` of a link `<https://…|text>`;
	// any other quote is a character of it (the password of `https://site/login:jane:Ab3"Zq`).
	const opening = plain.charCodeAt(at - 1);
	const quote = isQuote(opening) ? opening : -1;
	const angled = opening === 0x3c;
	let end = at;
	for (; end < lineEnd; end++) {
		const code = plain.charCodeAt(end);
		if (isBlank(code) || code === quote || (isQuote(code) && reader.endsString(end))) break;
		if ((angled && (code === 0x3e || code === PIPE)) || (pipeRow && code === PIPE)) break;
	}
	urlRanges(plain, at, end, reader.ranges);
	reader.forgetWords();
	return end;
}

/** What to mask in the URL `text.slice(start, end)` (a URL field, or a URL of free text). */
export function urlRanges(text: string, start: number, end: number, ranges: Ranges): void {
	const scheme = text.slice(start, Math.min(end, start + 40)).indexOf('://');
	if (text.startsWith('jdbc:oracle:', start)) oracle(text, start, end, ranges);
	if (scheme !== -1) authority(text, start + scheme + 3, end, ranges, false);
	// A network-path reference (`//host/…`, RFC 3986 §4.2) has an authority, userinfo included; a
	// URL field may hold no scheme at all: `host.com:jane:…`.
	else if (text.startsWith('//', start)) authority(text, start + 2, end, ranges, false);
	else if (!text.startsWith('jdbc:', start)) authority(text, start, end, ranges, true);
	secretParameters(text, start, end, ranges);
	shapesIn(text, scheme === -1 ? start : start + scheme + 3, end, ranges);
}

/**
 * A URL's authority at `from` and what follows it: the userinfo's password (from its first `:` to
 * the authority's last `@`), the password of a stealer log's `URL:login:password` (after the path,
 * or after the host when the password holds a `/`, `?` or `#`; `site:login@mail.com:password` too),
 * an incoming webhook's path. Without a scheme (a URL field), no userinfo is read (`acct:jane@host`,
 * `host:jane@mail.com:…`), and a path only after a host and its port (`magnet:?…`, `urn:isbn:…`).
 */
function authority(
	text: string,
	from: number,
	end: number,
	ranges: Ranges,
	schemeless: boolean,
): void {
	// One pass over the authority: where its colons and `@`s are (every search stays inside it).
	let authorityEnd = from;
	let [firstColon, secondColon, atAfterColon, lastAt, colonAfterAt] = [-1, -1, -1, -1, -1];
	for (; authorityEnd < end; authorityEnd++) {
		const code = text.charCodeAt(authorityEnd);
		if (code === 0x2f || code === 0x3f || code === 0x23) break;
		if (code === 0x40) {
			[lastAt, colonAfterAt] = [authorityEnd, -1];
			if (firstColon !== -1 && atAfterColon === -1) atAfterColon = authorityEnd;
		} else if (code === 0x3a) {
			if (firstColon === -1) firstColon = authorityEnd;
			else if (secondColon === -1) secondColon = authorityEnd;
			if (lastAt !== -1 && colonAfterAt === -1) colonAfterAt = authorityEnd;
		}
	}
	const userinfo = !schemeless && lastAt !== -1 && firstColon !== -1 && firstColon < lastAt;
	if (userinfo) ranges.push(firstColon + 1, lastAt);
	const pathAfterHost =
		!schemeless ||
		(isHostName(text, from, firstColon === -1 ? authorityEnd : firstColon) &&
			(firstColon === -1 || isPort(text, firstColon + 1, authorityEnd)));
	const inPath =
		authorityEnd < end && pathAfterHost && loginAndPassword(text, authorityEnd, end, ranges);
	if (inPath || firstColon === -1) return webhook(text, from, end, ranges);
	let found = false;
	if (hasDot(text, from, firstColon)) {
		// `site:login:password` after the host: a userinfo's `@` may be the password's
		// (`site:jane:P@ss`), unless a host follows it (`jane.doe:pa:ss@db.acme.com:5432` is a
		// userinfo); a "login" holding an `@` before a port is a userinfo too (`jane:pw@acme.com:8443`).
		const combo =
			!userinfo ||
			(secondColon !== -1 &&
				secondColon < lastAt &&
				!isHostAndPort(text, lastAt + 1, authorityEnd, end));
		const atInLogin = secondColon !== -1 && atAfterColon !== -1 && atAfterColon < secondColon;
		found =
			combo &&
			(!atInLogin || notPortAfter(text, secondColon, authorityEnd)) &&
			loginAndPassword(text, firstColon, end, ranges);
	}
	// The password after an e-mail address: `site:jane@mail.com:password`, or without a scheme
	// `jane@mail.com:password` (not a port, nor a path: `git@github.com:org/repo.git`).
	const email = userinfo || (schemeless && lastAt !== -1 && authorityEnd === end);
	if (!found && email && colonAfterAt !== -1 && colonAfterAt + 1 < end) {
		if (hasDot(text, lastAt + 1, colonAfterAt) && notPortAfter(text, colonAfterAt, end))
			ranges.push(colonAfterAt + 1, end);
	}
	webhook(text, from, end, ranges);
}

/**
 * Whether `at`…`authorityEnd` is a host (a dotted name, an IPv4 address, `localhost`) that a port or
 * a path follows: `…@db.acme.com:5432/app` is a userinfo's host, `…:P@ss.word` at the end a password.
 */
function isHostAndPort(text: string, at: number, authorityEnd: number, end: number): boolean {
	let colon = at;
	while (colon < authorityEnd && text.charCodeAt(colon) !== 0x3a) colon++;
	if (!isComboHost(text, at, colon)) return false;
	return colon === authorityEnd ? authorityEnd < end : isPort(text, colon + 1, authorityEnd);
}

/**
 * Whether what follows the colon at `colon` is no port (-1: there is none). A port is up to five
 * digits before the end, a path, a query or a fragment (`:8443/…`, `:6379?…`, `:/…`), before a `;`
 * parameter (`:8443;jsessionid=…`) or another host of a list (`:27017,db2.acme.com…`): a password may
 * start with digits and a `;` or a `,` (`:4711;Zq9…`).
 */
function notPortAfter(text: string, colon: number, end: number): boolean {
	if (colon === -1) return true;
	let digits = colon + 1;
	while (digits < end && digits - colon <= 5 && isDigit(text.charCodeAt(digits))) digits++;
	if (digits >= end) return false;
	const code = text.charCodeAt(digits);
	if (code === 0x2f || code === 0x3f || code === 0x23) return false;
	if (code === 0x3b) return !isParameterAt(text, digits + 1, end);
	if (code === 0x2c) return !isListedHostAt(text, digits + 1, end);
	return true;
}

/** Whether a `name=` parameter starts at `at` (a name of at most 64 characters). */
function isParameterAt(text: string, at: number, end: number): boolean {
	let index = at;
	while (index < end && index - at < 64 && isNameCode(text.charCodeAt(index))) index++;
	return index > at && text.charCodeAt(index) === 0x3d;
}

/** Whether a host of a list starts at `at` (`db2.acme.com`, up to its `:`, `/`, `,`, `?` or the end). */
function isListedHostAt(text: string, at: number, end: number): boolean {
	let index = at;
	while (index < end && !HOST_LIST_END.has(text.charCodeAt(index))) index++;
	return isComboHost(text, at, index);
}

const HOST_LIST_END = new Set([0x3a, 0x2f, 0x2c, 0x3f, 0x23]);

/** Incoming-webhook URLs of Slack, Discord and Microsoft Teams: the path after the prefix. */
const WEBHOOK_PREFIXES = [
	'hooks.slack.com/services/',
	'hooks.slack.com/workflows/',
	'hooks.slack.com/triggers/',
	'discord.com/api/webhooks/',
	'discordapp.com/api/webhooks/',
	'canary.discord.com/api/webhooks/',
	'ptb.discord.com/api/webhooks/',
];
const TEAMS_WEBHOOK = /^[\w-]{1,64}\.webhook\.office\.com\/webhookb?2?\//i;

function webhook(text: string, authorityStart: number, end: number, ranges: Ranges): void {
	const head = text.slice(authorityStart, Math.min(end, authorityStart + 100));
	const lower = head.toLowerCase();
	let prefix = WEBHOOK_PREFIXES.find((candidate) => lower.startsWith(candidate))?.length ?? -1;
	if (prefix === -1) prefix = TEAMS_WEBHOOK.exec(head)?.[0].length ?? -1;
	if (prefix !== -1 && authorityStart + prefix < end) ranges.push(authorityStart + prefix, end);
}

/** `jdbc:oracle:thin:jane/hunter2@db:1521:app`: what is between the `/` and the `@`. */
function oracle(text: string, start: number, end: number, ranges: Ranges): void {
	const thin = text.slice(start, Math.min(end, start + 24)).indexOf(':thin:');
	if (thin === -1) return;
	let slash = -1;
	for (let index = start + thin + 6; index < end; index++) {
		const code = text.charCodeAt(index);
		if (code === 0x2f && slash === -1) slash = index;
		else if (code === 0x40) {
			if (slash !== -1) ranges.push(slash + 1, index);
			return;
		}
	}
}

/**
 * The name of a query, fragment or `;` parameter, also percent-encoded inside another parameter's
 * value (`?next=%2Fcb%3Ftoken%3D…`): its name, and `=` or `%3D`. Names are looked for everywhere
 * after the previous one's `=`, so that a parameter inside another's value is found too.
 */
const PARAMETER_NAME = /(?:[?&#;]|%3[FfBb]|%2[36])([^=&#;?%\s]{1,64})(=|%3[Dd])/g;
/** What ends a parameter's value: `&`, `#`, `;` or a space; encoded ones too after `%3D`. */
const VALUE_END = /[&#;\s]/g;
const ENCODED_VALUE_END = /[&#;\s]|%2[36]|%3[Bb]/g;

/** The values of parameters named like secrets (`?token=…`, `&password=…`, `;password=…`). */
function secretParameters(text: string, start: number, end: number, ranges: Ranges): void {
	const url = text.slice(start, end);
	if (!url.includes('=') && !/%3d/i.test(url)) return;
	// Where the values end, each found once: the values start further on at each match.
	let plainEnd = -1;
	let encodedEnd = -1;
	for (const match of url.matchAll(PARAMETER_NAME)) {
		const valueStart = match.index + match[0].length;
		// Inside the value of one found already (`?token=?token=…`): masked with it.
		if (valueStart < plainEnd || valueStart < encodedEnd) continue;
		if (nameKind(match[1]) !== SECRET_NAME) continue;
		if (match[2] === '=') {
			if (plainEnd < valueStart) plainEnd = endOf(url, VALUE_END, valueStart);
			ranges.push(start + valueStart, start + plainEnd);
		} else {
			if (encodedEnd < valueStart) encodedEnd = endOf(url, ENCODED_VALUE_END, valueStart);
			ranges.push(start + valueStart, start + encodedEnd);
		}
	}
}

/** Where `pattern` (global) next matches in `text` from `start`, or the text's length. */
export function endOf(text: string, pattern: RegExp, start: number): number {
	pattern.lastIndex = start;
	const match = pattern.exec(text);
	return match ? match.index : text.length;
}

/** Tokens of known shapes among the runs of name characters of `start`…`end` (a bot's token in a path). */
function shapesIn(text: string, start: number, end: number, ranges: Ranges): void {
	for (let at = start; at < end; ) {
		if (!isNameCode(text.charCodeAt(at))) {
			at++;
			continue;
		}
		let runEnd = at;
		while (runEnd < end && isNameCode(text.charCodeAt(runEnd))) runEnd++;
		const shape = tokenShape(text, at, runEnd, end);
		if (shape) ranges.push(shape[0], shape[1]);
		at = Math.max(runEnd, shape?.[1] ?? 0);
	}
}
