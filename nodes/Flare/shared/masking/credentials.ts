/**
 * Credential lines (docs/api-contract.md, "Masking", rule 3), as combo lists and stealer logs write
 * them; the login is kept, the password masked:
 *
 *   jane@acme.com:hunter2          jane@acme.com|hunter2          jane@acme.com;hunter2
 *   https://acme.com/login:jane:hunter2      acme.com:jane@acme.com:hunter2      localhost:5432:db:jane:hunter2
 *   jane:hunter2   (a line of its own: a login that starts with a letter, so that times are no logins)
 *   acme.local/admin:hunter2@10.0.0.5   (Impacket's target: domain/login:password@host)
 *
 * The password runs to a blank (or to the quote that opened the line), and takes the colons it
 * holds (`jane@acme.com:pa:ss`). Not a password: a path (`jane@host.com:/backup`, scp's), an
 * e-mail address (`jane@acme.com;bob@acme.com`, a list of addresses).
 */
import { EMAIL, isBlank, isDigit, isLineEnd, isNameCode, isQuote } from './chars';
import { hasDot, isComboHost } from './hosts';
import type { Ranges, Reader } from './reader';

/** Another label after a combo's separator (`jane@acme.com|Phone: 555-0100`): a word or two, `:` and a blank. */
const LABEL_AFTER = /^\p{L}[\p{L}\d]*(?: \p{L}+)?:[ \t]/u;
/** A username: a letter, then letters, digits and `._+-`. */
const USERNAME = /^[A-Za-z][\w.+-]*$/;

/** An e-mail address whose local part ends at `end` (the `@`): masks the password after it, if any. */
export function email(reader: Reader, at: number, end: number): number {
	const { plain } = reader;
	let domainEnd = reader.runEnd(end + 1);
	while (domainEnd > end + 1 && plain.charCodeAt(domainEnd - 1) === 0x2e) domainEnd--;
	const domain = plain.slice(end + 1, domainEnd);
	if (!/\.[A-Za-z]{2,}$/.test(domain)) return end + 1;
	const separator = plain.charCodeAt(domainEnd);
	if (separator !== 0x3a && separator !== 0x7c && separator !== 0x3b) return domainEnd;
	const start = domainEnd + 1;
	const first = plain.charCodeAt(start);
	if (
		start >= reader.lineEnd ||
		isBlank(first) ||
		first === 0x2f ||
		first === 0x5c ||
		first === 0x3a ||
		// `jane@acme.com|Phone: 555-0100`: another label follows, not a password.
		(separator !== 0x3a && LABEL_AFTER.test(plain.slice(start, start + 34)))
	)
		return domainEnd;
	const opening = plain.charCodeAt(at - 1);
	const passwordEnd = passwordEndFrom(reader, start, isQuote(opening) ? opening : -1);
	// `jane@acme.com;bob@acme.com`: a list of addresses.
	if (passwordEnd - start > 80 || !EMAIL.test(reader.original(start, passwordEnd)))
		reader.mask(start, passwordEnd);
	return passwordEnd;
}

/**
 * Impacket's target, `domain/login:password@host`, whose login is `at`…`end` (after the `/`): masks
 * the password, to the last `@` of the argument; -1 when it is no such target.
 */
export function domainTarget(reader: Reader, at: number, end: number): number {
	const { plain } = reader;
	if (at < reader.targetFailUntil) return -1;
	let domain = at - 1;
	while (domain > reader.lineStart && isNameCode(plain.charCodeAt(domain - 1))) domain--;
	const before = plain.charCodeAt(domain - 1);
	if (domain === at - 1 || (domain > reader.lineStart && !isBlank(before) && !isQuote(before))) return -1;
	const chunkEnd = passwordEndFrom(reader, end + 1, isQuote(before) ? before : -1);
	let atSign = -1;
	for (let index = end + 2; index < chunkEnd; index++) if (plain.charCodeAt(index) === 0x40) atSign = index;
	if (atSign === -1 || !isNameCode(plain.charCodeAt(atSign + 1))) {
		reader.targetFailUntil = chunkEnd;
		return -1;
	}
	reader.mask(end + 1, atSign);
	return chunkEnd;
}

/** Where a password that starts at `start` ends: a blank, the line's end, or the quote `quote`. */
function passwordEndFrom(reader: Reader, start: number, quote: number): number {
	const { plain, lineEnd } = reader;
	let end = start;
	while (end < lineEnd) {
		const code = plain.charCodeAt(end);
		if (isBlank(code) || code === quote) break;
		end++;
	}
	return end;
}

/**
 * A host without scheme at `at`…`end`, then `:login:password` (a port and a path may come between):
 * masks the password; -1 when it is no such line.
 */
export function hostCombo(reader: Reader, at: number, end: number): number {
	const { plain } = reader;
	// A chunk found to hold no combo holds none from a later host either (it has fewer colons).
	if (at < reader.comboFailUntil || !hasDot(plain, at, end) || !isComboHost(plain, at, end)) return -1;
	const opening = plain.charCodeAt(at - 1);
	const chunkEnd = passwordEndFrom(reader, end, isQuote(opening) ? opening : -1);
	if (loginAndPassword(plain, end, chunkEnd, reader.ranges)) return chunkEnd;
	reader.comboFailUntil = chunkEnd;
	return -1;
}

/** The first `:` in `from`…`to`, or -1. */
function colonIn(plain: string, from: number, to: number): number {
	for (let index = from; index < to; index++) if (plain.charCodeAt(index) === 0x3a) return index;
	return -1;
}

/**
 * In `from`…`to` (after a host or a URL's path): `[:port][/path]:login:password`; masks the
 * password (everything after the login's colon) and says whether it found one.
 */
export function loginAndPassword(plain: string, from: number, to: number, ranges: Ranges): boolean {
	let first = colonIn(plain, from, to);
	if (first === -1) return false;
	// A port: digits before a `/`, or before the login's colon.
	let digits = first + 1;
	while (digits < to && isDigit(plain.charCodeAt(digits))) digits++;
	if (digits > first + 1 && digits < to) {
		const after = plain.charCodeAt(digits);
		if (after === 0x2f) first = colonIn(plain, digits, to);
		else if (after === 0x3a && colonIn(plain, digits + 1, to) !== -1) first = digits;
		if (first === -1) return false;
	}
	const second = colonIn(plain, first + 1, to);
	if (second === -1 || second >= to - 1) return false;
	const login = plain.slice(first + 1, second);
	if (login === '' || login.includes('/')) return false;
	ranges.push(second + 1, to);
	return true;
}

/** A line of its own that is `login:password` (at the line's head, from `at`). */
export function credentialLine(reader: Reader, at: number): void {
	const { plain, lineEnd } = reader;
	const end = reader.trimEnd(at, lineEnd);
	let colon = -1;
	for (let index = at; index < end; index++) {
		const code = plain.charCodeAt(index);
		if (isBlank(code) || isLineEnd(code)) return;
		if (code === 0x3a && colon === -1) colon = index;
	}
	if (colon === -1 || colon === end - 1 || colon - at > 64) return;
	const next = plain.charCodeAt(colon + 1);
	if (next === 0x2f || next === 0x5c || next === 0x3a) return;
	// `jdbc:mysql://…`, `git:git@…`: a scheme, not a password.
	if (/^[\w+.-]{1,16}:\/\//.test(plain.slice(colon + 1, colon + 20))) return;
	if (!USERNAME.test(plain.slice(at, colon))) return;
	// `Classification:Confidential`: a word, masked here but not looked for elsewhere in the record.
	if (WORD.test(plain.slice(colon + 1, end))) reader.unnoted.push(colon + 1, end);
	else reader.mask(colon + 1, end);
}

/** Letters only. */
const WORD = /^\p{L}+$/u;
