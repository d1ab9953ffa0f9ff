/** Small building blocks shared by the resource and request schemas. */
import { z } from 'zod';

/** Date-time with an offset (`Z` or `+00:00`), as the API sends `imported_at`, `assigned_at`, ... */
export const DateTimeWithOffset = z.string().datetime({ offset: true });

/** Date-time a client may send: with an offset, or without one (read as UTC). */
export const DateTimeInput = z.string().datetime({ offset: true, local: true });

/** Date-time without an offset, as events carry them (`2025-01-01T00:00:00`). */
export const NaiveDateTime = z
	.string()
	.regex(
		/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/,
		'Input should be a date-time without offset',
	);

export const Uuid = z.string().uuid();

/** Milliseconds since the epoch of a date-time accepted by `DateTimeInput` (no offset = UTC). */
export function dateTimeToMs(value: string): number {
	const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
	return Date.parse(hasOffset ? value : `${value}Z`);
}
