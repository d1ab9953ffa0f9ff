/** The characters the masking's reader tells apart (view.ts, reader.ts and the families). */

export const LF = 0x0a;
export const CR = 0x0d;
export const TAB = 0x09;
export const SPACE = 0x20;
export const PIPE = 0x7c;
/** Ends the text and each tag's attributes in the plain view: no rule reads across it. */
export const SEGMENT = 0x00;
/** A line's end that markup made (`<br>`, `<p>`, `[code]`): a quoted value reads across it. */
export const SOFT = 0x0b;
/** Read as a label whose value follows: an element named like a secret (view.ts). */
export const LABEL = 0x02;

export const isDigit = (code: number) => code >= 48 && code <= 57;
export const isAsciiLetter = (code: number) => (code | 0x20) >= 97 && (code | 0x20) <= 122;
/** A space, a tab, or a no-break space (French typography writes one before `:`: `Mot de passe\u00a0:`). */
export const isBlank = (code: number) =>
	code === SPACE || code === TAB || code === 0xa0 || code === 0x202f;
export const isSpace = (code: number) => isBlank(code) || code === LF || code === CR;
/** A line's end in the plain view (a segment's end is one too, and markup's). */
export const isLineEnd = (code: number) =>
	code === LF || code === CR || code === SEGMENT || code === SOFT;
/** A line's end that a quoted value does not read across. */
export const isHardLineEnd = (code: number) => code === LF || code === CR || code === SEGMENT;

/** Punctuation and spaces beyond ASCII (general punctuation, CJK's, full-width forms). */
function isWideSeparator(code: number): boolean {
	return (
		(code >= 0x2000 && code <= 0x206f) ||
		(code >= 0x3000 && code <= 0x303f) ||
		(code >= 0xff00 && code <= 0xff20) ||
		code === 0xfeff ||
		code === 0xa0
	);
}

/** A letter or a digit, of any script. */
export function isWordCode(code: number): boolean {
	return isDigit(code) || isAsciiLetter(code) || (code >= 0xc0 && !isWideSeparator(code));
}

/** Characters of a name or a word: letters and digits of any script, `_`, `-`, `.`. */
export function isNameCode(code: number): boolean {
	return isWordCode(code) || code === 0x5f || code === 0x2d || code === 0x2e;
}

/** Quotes a value may stand in: `"`, `'`, a backtick, and typographic ones. */
export const isQuote = (code: number) =>
	code === 0x22 || code === 0x27 || code === 0x60 || code === 0x201c || code === 0x2018;
/** The quote that closes `code`. */
export const closingOf = (code: number) =>
	code === 0x201c ? 0x201d : code === 0x2018 ? 0x2019 : code;

/** An e-mail address, the login of most leaked credentials (as addresses are written, RFC 5321's dot-atoms). */
export const EMAIL = /^[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/;
