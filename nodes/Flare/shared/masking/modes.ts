/**
 * How a leaked or monitored secret appears in the output (docs/api-contract.md, "Masking"): the
 * item's Leaked Value Output.
 */
import { createHash } from 'crypto';

import { jsonWithin } from '../body';

export type LeakedValueOutput = 'masked' | 'full' | 'sha256' | 'omit';

/** The choices of Leaked Value Output, as the form offers them. */
export const LEAKED_VALUE_OUTPUTS: readonly LeakedValueOutput[] = [
	'masked',
	'sha256',
	'omit',
	'full',
];

/** The mask: the same width whatever the value, so that it says nothing of the length. */
export const MASK = '********';
/** Values at least this long keep their first and last characters around the mask. */
const REVEAL_FROM_LENGTH = 12;
/** A UTF-16 surrogate: the string has characters made of two code units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Masks a leaked value: eight stars; for a string of 12 characters or more, its first and last
 * characters around them. A value that is not a string is masked whole; null stays null.
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
export function digestOf(value: unknown): unknown {
	if (value === null || value === undefined) return value;
	const text = typeof value === 'string' ? value : jsonWithin(value);
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A secret value as the mode gives it (Omit is the caller's). */
export function protectedValue(value: unknown, mode: Exclude<LeakedValueOutput, 'full'>): unknown {
	return mode === 'sha256' ? digestOf(value) : maskValue(value);
}
