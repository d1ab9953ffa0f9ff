import { parameterError } from './errors';
import type { FlareItem } from './item';

/**
 * Reads and checks parameters before anything is sent. Each reader names the parameter by its
 * display name and the item in its error, and accepts what expressions commonly produce (numbers
 * for text fields, numeric strings for numbers, arrays for lists).
 */

const DOMAIN =
	/^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
const EMAIL_LOCAL_PART = /^[^\s@]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;

function raw(item: FlareItem, name: string): unknown {
	return item.parameter(name, '');
}

/** A non-empty text value, trimmed unless `keepSpaces`. */
export function requiredText(
	item: FlareItem,
	name: string,
	displayName: string,
	keepSpaces = false,
): string {
	const value = raw(item, name);
	if (
		value === null ||
		value === undefined ||
		typeof value === 'object' ||
		typeof value === 'boolean'
	) {
		throw parameterError(item, displayName, 'must be text', `Enter a value for '${displayName}'.`);
	}
	const text = keepSpaces ? String(value) : String(value).trim();
	if (text.trim() === '')
		throw parameterError(item, displayName, 'is required', `Enter a value for '${displayName}'.`);
	return text;
}

export function domainName(item: FlareItem, name: string, displayName: string): string {
	const value = requiredText(item, name, displayName).toLowerCase().replace(/\.$/, '');
	if (!DOMAIN.test(value)) {
		throw parameterError(
			item,
			displayName,
			`is not a domain name: "${value}"`,
			'Enter a domain such as example.com, without scheme or path.',
		);
	}
	return value;
}

export function emailAddress(item: FlareItem, name: string, displayName: string): string {
	const value = requiredText(item, name, displayName);
	const at = value.lastIndexOf('@');
	if (at < 1 || !EMAIL_LOCAL_PART.test(value.slice(0, at)) || !DOMAIN.test(value.slice(at + 1))) {
		throw parameterError(
			item,
			displayName,
			`is not an e-mail address: "${value}"`,
			'Enter an address such as jane@example.com.',
		);
	}
	return value;
}

/** A positive whole number, from a number or a numeric string. */
export function positiveInteger(item: FlareItem, name: string, displayName: string): number {
	return toPositiveInteger(item, raw(item, name), displayName);
}

function toPositiveInteger(item: FlareItem, value: unknown, displayName: string): number {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
		throw parameterError(
			item,
			displayName,
			`must be a positive whole number, not "${String(value)}"`,
			'Use the numeric ID shown in Flare, e.g. 7001.',
		);
	}
	return Number(text);
}

/** Whole numbers from a comma-separated text or an array (from an expression). */
export function positiveIntegerList(item: FlareItem, name: string, displayName: string): number[] {
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
			displayName,
			'needs at least one ID',
			'Enter IDs separated by commas, e.g. 7001, 7002.',
		);
	}
	return [...new Set(entries.map((entry) => toPositiveInteger(item, entry, displayName)))];
}

export function uuid(item: FlareItem, name: string, displayName: string): string {
	const value = requiredText(item, name, displayName);
	if (!UUID.test(value)) {
		throw parameterError(
			item,
			displayName,
			`is not a UUID: "${value}"`,
			'Use the UUID shown in Flare, e.g. 1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10.',
		);
	}
	return value.toLowerCase();
}

export function hexDigest(item: FlareItem, name: string, displayName: string): string {
	const value = requiredText(item, name, displayName);
	if (!HEX.test(value)) {
		throw parameterError(
			item,
			displayName,
			'must be a hexadecimal digest',
			'Use the credential_hash field of a leaked credential, e.g. from a search.',
		);
	}
	return value.toLowerCase();
}

/** A keyword where `*` may stand only at the start or only at the end. */
export function wildcardKeyword(item: FlareItem, name: string, displayName: string): string {
	const value = requiredText(item, name, displayName);
	const inner = value.replace(/^\*/, '').replace(/\*$/, '');
	const wildcards = value.length - inner.length;
	if (inner.includes('*') || wildcards > 1 || inner === '') {
		throw parameterError(
			item,
			displayName,
			`has a misplaced wildcard: "${value}"`,
			'A * may stand only at the start (e.g. *@example.com) or only at the end (e.g. john.doe*).',
		);
	}
	return value;
}

/** An ISO 8601 date-time (or empty when optional), returned as ISO with offset. */
export function dateTime(item: FlareItem, name: string, displayName: string): string | undefined {
	const value = raw(item, name);
	if (value === '' || value === null || value === undefined) return undefined;
	const text =
		typeof value === 'object' && 'toISO' in (value as object)
			? String((value as { toISO(): string }).toISO())
			: String(value);
	const time = Date.parse(text);
	if (Number.isNaN(time)) {
		throw parameterError(
			item,
			displayName,
			`is not a date and time: "${text}"`,
			'Use ISO 8601, e.g. 2025-01-31T00:00:00Z.',
		);
	}
	return new Date(time).toISOString();
}
