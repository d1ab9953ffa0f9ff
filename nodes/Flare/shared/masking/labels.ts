/**
 * Labels of several words at a line's head (docs/api-contract.md, "Masking", rule 2): a phrase whose
 * first or first two words name a secret, then `:` (`Password for the VPN:`, `VPN password for
 * jane:`, `Password 2:`, `Пароль от почты:`), and its value: the rest of the line, read on as any
 * text (a title's: `Password dump: curl -u admin:…`), none where another label follows at once
 * (`Password dump: Analyst: …`), masked where it stands only. Also an element's text
 * (`<password>…</password>`).
 *
 *   Password for the VPN: correct horse     Password dump: Analyst: Password: …
 *   Password 1: … Password (new): …         Token dump: 'password' => …
 */
import { PIPE, isBlank, isQuote } from './chars';
import { readValue } from './assignments';
import { NOT_SECRET_NAME, SECRET_NAME, nameKind } from './names';
import type { Reader } from './reader';

/** Words that make a label's phrase prose rather than a secret's label (`Password reset instructions:`). */
const PROSE_WORDS =
	/(?:^|[\s(])(?:reset|policy|policies|requirements?|rules?|manager|strength|expired|expires|expiry|changed?|history|complexity|length|forgot(?:ten)?|instructions?|spraying|reuse[ds]?|campaigns?|statements?|hygiene|breach(?:es)?)(?=$|[\s)])/i;
/** Words of the rule too wide to make a phrase a label (`Session 3: Introduction`, `Auth for the API: OAuth`). */
const WIDE_WORDS =
	/(?:^|[\s(])(?:session|sid|auth|authorization|cookie|signature|sig|credentials?|creds?|bearer)(?=$|[\s)])/i;
/** A label's phrase: words, digits and the marks labels hold (`Password (case-sensitive)`, `Password for jane@acme.com`). */
const LABEL_PHRASE = /^[\p{L}\p{N}][\p{L}\p{N} ()@.'’\-#/]{0,47}$/u;

/**
 * Whether the line's first words, from `from` to the `:` at `colon`, are a secret's label of several
 * words whose name is not the last (`Password for the VPN:`, `VPN password for jane:`, `Password 2:`,
 * `Пароль от почты:`): at most six words, of which the first or the first two name a secret.
 */
export function headLabel(reader: Reader, from: number, colon: number): boolean {
	const { plain } = reader;
	const next = plain.charCodeAt(colon + 1);
	if (next === 0x3a || next === 0x2f) return false;
	const end = reader.trimEnd(from, colon);
	if (end - from > 48) return false;
	const phrase = plain.slice(from, end);
	if (!LABEL_PHRASE.test(phrase) || PROSE_WORDS.test(phrase) || WIDE_WORDS.test(phrase)) return false;
	const words = phrase.split(/\s+/);
	return words.length <= 6 && nameKind(words.slice(0, 2).join(' ')) === SECRET_NAME;
}

/**
 * The value of a label read to the line's end: an element's text (`<password>…</password>`: view.ts),
 * or after a label of several words at a line's head (`phrase`: reader.ts), where it is also read on
 * as any text, so that a title naming a secret hides nothing after it (`Password dump: curl -u
 * admin:…`), and is none where another label follows at once (`Password dump: Analyst: …`,
 * `Token dump: 'password' => …`). Such a value is masked where it stands only: a title's words may be
 * prose (`Password spraying campaign: Microsoft accounts targeted`; RV-5 of the second review).
 */
export function labelValue(reader: Reader, at: number, phrase = false): number {
	if (!phrase) return readValue(reader, at, { rest: true, whole: true });
	const { plain } = reader;
	let next = reader.skipBlanks(at);
	// `Dump: | Password: | hunter2 |`: the cells of a row; `Dump: - Password: …`, a list's.
	const cell = plain.charCodeAt(next) === PIPE;
	if (cell) next++;
	else if (isListDash(plain.charCodeAt(next)) && isBlank(plain.charCodeAt(next + 1))) next += 2;
	if (wordLabelAhead(reader, next) || nameAhead(reader, next)) {
		if (cell) reader.pipeRow = true;
		reader.wordsMayLabel();
		return next;
	}
	// Once masked to its end, a label inside the value masks nothing more (each character read once).
	const start = reader.skipBlanks(at);
	if (start < reader.restUntil) return start;
	const found = reader.ranges.length;
	const end = readValue(reader, at, { rest: true });
	reader.unnoted.push(...reader.ranges.splice(found));
	const key = isQuote(plain.charCodeAt(start)) ? start + 1 : start;
	if (end <= start || end > reader.lineEnd || plain.startsWith('-----BEGIN ', key)) return end;
	reader.restUntil = end;
	reader.wordsMayLabel();
	return start;
}

const isListDash = (code: number) => code === 0x2d || code === 0x2a || code === 0x2022;

/** A label of one word (`Analyst:`, maybe in markup) then a blank, from `at`. */
function wordLabelAhead(reader: Reader, at: number): boolean {
	const { plain, lineEnd } = reader;
	const start = reader.skipBlanks(at);
	if (!/[\p{L}`*_]/u.test(plain.charAt(start))) return false;
	for (let index = start; index < lineEnd && index - start <= 48; index++) {
		const code = plain.charCodeAt(index);
		if (code === 0x3a || code === 0xff1a) {
			const next = plain.charCodeAt(index + 1);
			return index + 1 >= lineEnd || isBlank(next) || next === 0x60 || next === 0x2a;
		}
		if (!LABEL_CHAR.test(plain.charAt(index))) return false;
	}
	return false;
}

/**
 * A secret's name, maybe quoted, then a separator, from `at`: `=`, `:` before a blank, a dash or a
 * cell's border between blanks (`'password' => …`, `password: …`, `mot de passe - …`, `pass | …`).
 */
function nameAhead(reader: Reader, at: number): boolean {
	const { plain } = reader;
	let start = reader.skipBlanks(at);
	const quoted = isQuote(plain.charCodeAt(start));
	if (quoted) start++;
	// A name of up to four words (`mot de passe - …`).
	let end = start;
	for (let words = 0; words < 4; words++) {
		const wordEnd = reader.runEnd(end);
		if (wordEnd === end) return false;
		end = wordEnd;
		if (nameKind(plain.slice(start, end)) === NOT_SECRET_NAME) {
			if (!isBlank(plain.charCodeAt(end))) return false;
			end++;
			continue;
		}
		if (quoted && isQuote(plain.charCodeAt(end))) end++;
		const separator = reader.skipBlanks(end);
		const code = plain.charCodeAt(separator);
		const after = plain.charCodeAt(separator + 1);
		if (code === 0x3d) return true;
		if (code === 0x3a) return separator + 1 >= reader.lineEnd || isBlank(after);
		const spaced = separator > end && isBlank(after);
		return spaced && (code === 0x2d || code === 0x2013 || code === PIPE);
	}
	return false;
}
const LABEL_CHAR = /[\p{L}\p{N}()@.'’\-#/`*_]/u;
