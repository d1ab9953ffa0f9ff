/**
 * Planted leaked values. Every leaked or monitored secret the fake serves (a credential's password or
 * hash, an identity's passwords, the passwords and session cookies of full events, a source-code
 * secret, the credential lines, URLs with userinfo, authorization headers and cookie headers that free
 * text quotes, a `secret` identifier's secret and the name it gets by default) carries the marker at
 * both ends, which nothing else the fake serves holds. The leaked-value scan (test/harness/collect.ts,
 * test/e2e/secrets.ts) looks for the marker, and for its base64 and hex forms, in every output of this
 * package's nodes: a value masked whole keeps at most its first and last characters (`P********D`)
 * and a digest none, so the marker survives only where some of the value is still in clear, at its
 * start, at its end or encoded. Values under secret names, in every spelling of the masking's rule,
 * are planted too (secret-names.ts), numbers among them.
 */
import { createHash } from 'crypto';

/** The marker: mixed case, so that no word, hex digest or UUID holds it. */
export const PLANTED_MARKER = 'PlAnTeD';

/** `value`, planted: the marker at both ends (`hunter2` → `PlAnTeD~hunter2~PlAnTeD`). */
export function planted(value: string): string {
	return `${PLANTED_MARKER}~${value}~${PLANTED_MARKER}`;
}

/**
 * A number can hold no marker: a planted number is 15 digits that start with these nine (a PIN, a
 * numeric password), which nothing else the fake serves has, bounded by characters other than digits.
 */
export const PLANTED_NUMBER_PREFIX = '731009137';

/** A planted number derived from `seed`: {@link PLANTED_NUMBER_PREFIX} and 6 digits. */
export function plantedNumber(seed: string): number {
	const digits = parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16) % 1_000_000;
	return Number(`${PLANTED_NUMBER_PREFIX}${String(digits).padStart(6, '0')}`);
}

/** A planted secret derived from `seed` (e.g. a uid): `prefix` and 20 hex characters. */
export function plantedSecret(prefix: string, seed: string): string {
	return planted(`${prefix}${createHash('sha1').update(seed).digest('hex').slice(0, 20)}`);
}

/**
 * The marker as base64 writes it wherever it starts in the encoded bytes (three alignments; standard
 * and URL-safe alphabets): the characters that depend on the marker alone.
 */
function base64Forms(marker: string): string[] {
	const bytes = Buffer.from(marker, 'utf8');
	const forms = [0, 1, 2].map((offset) => {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
	});
	return [...new Set([...forms, ...forms.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_'))])];
}

/** Every form in which a planted value is recognised: the marker, its base64 and its hex. */
export const PLANTED_FORMS: readonly string[] = [
	PLANTED_MARKER,
	...base64Forms(PLANTED_MARKER),
	Buffer.from(PLANTED_MARKER).toString('hex'),
	Buffer.from(PLANTED_MARKER).toString('hex').toUpperCase(),
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A planted number, written out. */
const PLANTED_NUMBER = `(?<![0-9])${PLANTED_NUMBER_PREFIX}[0-9]{6}(?![0-9])`;

/**
 * Finds a planted value in clear as one (both markers), or else any planted form, or a planted number
 * (global: for `matchAll`).
 */
export const PLANTED_FORMS_PATTERN = new RegExp(
	[
		`${PLANTED_MARKER}~[^~]{0,256}~${PLANTED_MARKER}`,
		...PLANTED_FORMS.map(escapeRegExp),
		PLANTED_NUMBER,
	].join('|'),
	'g',
);

/** Whether `text` holds a planted value, in clear or encoded, or a planted number. */
export function holdsPlanted(text: string): boolean {
	return PLANTED_FORMS.some((form) => text.includes(form)) || new RegExp(PLANTED_NUMBER).test(text);
}
