import { parameterError } from './errors';
import type { FlareItem } from './item';

/**
 * Reads and checks parameters before anything is sent. Each reader takes the parameter's name; its
 * errors name the parameter by its display name (from the operation's form) and the item, and it
 * accepts what expressions commonly produce (numbers for text fields, numeric strings for numbers,
 * arrays for lists).
 */

const DOMAIN =
	/^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
const EMAIL_LOCAL_PART = /^[^\s@]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A credential hash as Flare gives them: 32 hexadecimal digits (docs/api-contract.md, "Input bounds"). */
const CREDENTIAL_HASH = /^[0-9a-f]{32}$/i;

/**
 * Longest free text the node sends as a search or as what an identifier watches: the only bound
 * Flare documents for such a text, `query_string`'s (v4 OpenAPI `maxLength`; docs/api-contract.md,
 * "Input bounds").
 */
export const MAX_SEARCH_TEXT_LENGTH = 10_000;
/** Longest identifier name (a decision: Flare documents none; docs/api-contract.md, "Input bounds"). */
export const MAX_NAME_LENGTH = 255;

function raw(item: FlareItem, name: string): unknown {
	return item.parameter(name, '');
}

/** A non-empty text value, trimmed unless `keepSpaces`. */
export function requiredText(item: FlareItem, name: string, keepSpaces = false): string {
	return textValue(item, raw(item, name), name, keepSpaces);
}

/** Non-empty text from a value (a number is fine, an object or a boolean is not). */
function textValue(item: FlareItem, value: unknown, name: string, keepSpaces = false): string {
	if (
		value === null ||
		value === undefined ||
		typeof value === 'object' ||
		typeof value === 'boolean'
	) {
		throw parameterError(
			item,
			name,
			'must be text',
			`Enter a value for '${item.displayName(name)}'.`,
		);
	}
	const text = keepSpaces ? String(value) : String(value).trim();
	if (text.trim() === '')
		throw parameterError(
			item,
			name,
			'is required',
			`Enter a value for '${item.displayName(name)}'.`,
		);
	return text;
}

/** A non-empty text value of at most `max` characters, trimmed unless `keepSpaces`. */
export function boundedText(
	item: FlareItem,
	name: string,
	max: number,
	keepSpaces = false,
): string {
	const value = requiredText(item, name, keepSpaces);
	if (value.length > max) {
		throw parameterError(item, name, `is too long: ${value.length} characters, at most ${max}`);
	}
	return value;
}

/**
 * {@link boundedText} that can go in a URL (no lone surrogate), checked where an operation reads Flare
 * before its own request (the runner checks the rest when it builds the request).
 */
export function urlText(item: FlareItem, name: string, max: number): string {
	const value = boundedText(item, name, max);
	urlEncoded(item, name, value);
	return value;
}

/** `text` encoded for a URL, or the error naming `name` when it holds a lone surrogate. */
export function urlEncoded(item: FlareItem, name: string, text: string): string {
	try {
		return encodeURIComponent(text);
	} catch {
		throw parameterError(item, name, 'contains characters that cannot be sent (an incomplete Unicode surrogate pair)');
	}
}

/** A GUID, as Microsoft Entra (Azure) tenant IDs are, in lowercase. */
export function guid(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	if (!UUID.test(value)) {
		throw parameterError(
			item,
			name,
			`is not a GUID: "${value.slice(0, 100)}"`,
			'Enter the tenant ID shown in Microsoft Entra, e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47.',
		);
	}
	return value.toLowerCase();
}

/**
 * A domain name, in lowercase. With `leadingDot`, one starting with a dot is taken too: a cookie's
 * domain as browsers store the cookies of a domain and its subdomains (`.example.com`).
 */
export function domainName(item: FlareItem, name: string, { leadingDot = false } = {}): string {
	const value = requiredText(item, name).toLowerCase().replace(/\.$/, '');
	const dotted = leadingDot && value.startsWith('.');
	if (!DOMAIN.test(dotted ? value.slice(1) : value)) {
		throw parameterError(
			item,
			name,
			`is not a domain name: "${value}"`,
			'Enter a domain such as example.com, without scheme or path.',
		);
	}
	return value;
}

export function emailAddress(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	const at = value.lastIndexOf('@');
	if (at < 1 || !EMAIL_LOCAL_PART.test(value.slice(0, at)) || !DOMAIN.test(value.slice(at + 1))) {
		throw parameterError(
			item,
			name,
			`is not an e-mail address: "${value}"`,
			'Enter an address such as jane@example.com.',
		);
	}
	return value;
}

/** A positive whole number, from a number or a numeric string. */
export function positiveInteger(item: FlareItem, name: string): number {
	return toPositiveInteger(item, raw(item, name), name);
}

function toPositiveInteger(item: FlareItem, value: unknown, name: string): number {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
		throw parameterError(
			item,
			name,
			`must be a positive whole number, not "${String(value)}"`,
			'Use the numeric ID shown in Flare, e.g. 7001.',
		);
	}
	return Number(text);
}

/** Whole numbers from a comma-separated text or an array (from an expression). */
export function positiveIntegerList(item: FlareItem, name: string): number[] {
	const value = raw(item, name);
	const entries = Array.isArray(value)
		? value
		: typeof value === 'number'
			? [value]
			: String(value ?? '')
					.split(',')
					.map((entry) => entry.trim())
					.filter((entry) => entry !== '');
	if (entries.length === 0) {
		throw parameterError(
			item,
			name,
			'needs at least one ID',
			'Enter IDs separated by commas, e.g. 7001, 7002.',
		);
	}
	return [...new Set(entries.map((entry) => toPositiveInteger(item, entry, name)))];
}

export function uuid(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	if (!UUID.test(value)) {
		throw parameterError(
			item,
			name,
			`is not a UUID: "${value}"`,
			'Use the UUID shown in Flare, e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10.',
		);
	}
	return value.toLowerCase();
}

/** A credential hash: 32 hexadecimal digits, in lowercase. */
export function credentialHash(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	if (!CREDENTIAL_HASH.test(value)) {
		throw parameterError(
			item,
			name,
			/^[0-9a-f]+$/i.test(value)
				? `must be 32 hexadecimal digits, not ${value.length}`
				: 'must be a hexadecimal digest',
			'Use the credential_hash field of a leaked credential, e.g. from a search.',
		);
	}
	return value.toLowerCase();
}

/** A keyword where `*` may stand only at the start or only at the end. */
export function wildcardKeyword(item: FlareItem, name: string): string {
	const value = requiredText(item, name);
	const inner = value.replace(/^\*/, '').replace(/\*$/, '');
	const wildcards = value.length - inner.length;
	if (inner.includes('*') || wildcards > 1 || inner === '') {
		throw parameterError(
			item,
			name,
			`has a misplaced wildcard: "${value}"`,
			'A * may stand only at the start (e.g. *@example.com) or only at the end (e.g. john.doe*).',
		);
	}
	return value;
}

/** An ISO 8601 date-time (or empty when optional), returned as ISO with offset. */
export function dateTime(item: FlareItem, name: string): string | undefined {
	const value = raw(item, name);
	if (value === '' || value === null || value === undefined) return undefined;
	const text =
		typeof value === 'object' && 'toISO' in (value as object)
			? String((value as { toISO(): string }).toISO())
			: String(value);
	const time = Date.parse(text);
	// ISO 8601 (and Flare) know the years 0000 to 9999 only; JavaScript dates go much further.
	const iso = Number.isNaN(time) ? '' : new Date(time).toISOString();
	if (!/^\d{4}-/.test(iso)) {
		throw parameterError(
			item,
			name,
			`is not a date and time: "${text}"`,
			'Use ISO 8601, e.g. 2025-01-31T00:00:00Z.',
		);
	}
	return iso;
}

/** A boolean parameter (an expression may produce anything else). */
export function booleanValue(item: FlareItem, name: string, fallback = false): boolean {
	const value = item.parameter<unknown>(name, fallback);
	if (typeof value !== 'boolean') throw parameterError(item, name, 'must be true or false');
	return value;
}

/** One of the listed values of an options parameter (an expression may produce anything). */
export function optionValue<T extends string>(
	item: FlareItem,
	name: string,
	allowed: readonly T[],
	fallback: T,
): T {
	const value = item.parameter<unknown>(name, fallback);
	if (!allowed.includes(value as T)) {
		throw parameterError(
			item,
			name,
			`has an unknown value: ${JSON.stringify(value) ?? String(value)}`,
			`Use one of: ${allowed.join(', ')}.`,
		);
	}
	return value as T;
}

/** Listed values of a multi-options parameter: an array, each value once (none when empty). */
export function optionValues<T extends string>(
	item: FlareItem,
	name: string,
	allowed: readonly T[],
): T[] {
	const value = item.parameter<unknown>(name, []);
	const list = value === '' || value === null || value === undefined ? [] : value;
	const unknown = Array.isArray(list)
		? list.filter((entry) => !allowed.includes(entry as T))
		: [list];
	if (unknown.length > 0) {
		throw parameterError(
			item,
			name,
			`has an unknown value: ${JSON.stringify(unknown[0]) ?? String(unknown[0])}`,
			`Use a list of: ${allowed.join(', ')}.`,
		);
	}
	return [...new Set(list as T[])];
}

// ---- resource locators ----
// A locator's value is read with `FlareItem.locator()`: the same for "From List" and "By ID", and for
// the plain string or number that workflows saved before the parameter became a locator.

/** The value of a resource locator as non-empty, trimmed text (e.g. a source ID). */
export function locatorText(item: FlareItem, name: string): string {
	return textValue(item, item.locator(name), name);
}

/** The value of a resource locator as a positive whole number (e.g. an identifier ID). */
export function locatorInteger(item: FlareItem, name: string): number {
	return toPositiveInteger(item, item.locator(name), name);
}

/**
 * The value of an optional resource locator as a positive whole number (e.g. the identifier group
 * of a collection), or undefined when it is left empty.
 */
export function optionalLocatorInteger(item: FlareItem, name: string): number | undefined {
	const value = item.locator(name);
	if (value === null || value === undefined || String(value).trim() === '') return undefined;
	return toPositiveInteger(item, value, name);
}

/** The value of a resource locator as a lowercase UUID (e.g. a matching policy). */
export function locatorUuid(
	item: FlareItem,
	name: string,
	hint = 'Use the UUID shown in Flare, e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10.',
): string {
	const value = locatorText(item, name);
	if (!UUID.test(value)) {
		throw parameterError(item, name, `is not a UUID: "${value}"`, hint);
	}
	return value.toLowerCase();
}

/** A locator's value for messages (e.g. "Identifier 7001 was not found"), never failing. */
export function locatorLabel(item: FlareItem, name: string): string {
	try {
		const value = item.locator(name);
		return typeof value === 'object' && value !== null ? '' : String(value ?? '').trim();
	} catch {
		return '';
	}
}

/** Whether a collection option holds a value to use (left out, null or empty text: it does not). */
export function isGiven(item: FlareItem, name: string): boolean {
	const value = item.parameter<unknown>(name, null);
	return (
		value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '')
	);
}
