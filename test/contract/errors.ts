/** Error bodies (contract-decisions.md "Errors") and the 422 validation shape (spec §7). */
import { z, type ZodError, type ZodIssue } from 'zod';

/** `{error: {code, message}}`, used for 401, 403, 404 and 429. */
export const ErrorEnvelope = z.object({
	error: z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const ValidationErrorItem = z.object({
	loc: z.array(z.union([z.string(), z.number()])),
	msg: z.string(),
	type: z.string(),
	input: z.unknown().optional(),
	ctx: z.record(z.unknown()).optional(),
});
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

/** 422 body: `{detail: [{loc, msg, type, input?, ctx?}]}`. */
export const ValidationErrorEnvelope = z.object({ detail: z.array(ValidationErrorItem) });
export type ValidationErrorEnvelope = z.infer<typeof ValidationErrorEnvelope>;

export type ErrorLocation = 'body' | 'query' | 'path';

/** The value found at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: Array<string | number>): unknown {
	let value = input;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string | number, unknown>)[key];
	}
	return value;
}

/** A pydantic-like error `type` for a zod issue. */
function issueType(issue: ZodIssue, value: unknown): string {
	switch (issue.code) {
		case 'invalid_type':
			return value === undefined ? 'missing' : `${issue.expected}_type`;
		case 'too_small':
			return issue.type === 'number' ? 'greater_than_equal' : 'too_short';
		case 'too_big':
			return issue.type === 'number' ? 'less_than_equal' : 'too_long';
		case 'invalid_enum_value':
		case 'invalid_literal':
			return 'enum';
		case 'invalid_union_discriminator':
			return 'union_tag_invalid';
		case 'invalid_string':
			return `${String(issue.validation)}_parsing`;
		case 'unrecognized_keys':
			return 'extra_forbidden';
		case 'custom':
			return typeof issue.params?.type === 'string' ? issue.params.type : 'value_error';
		default:
			return 'value_error';
	}
}

/**
 * The `detail` array of a 422 response for a zod error. `loc` is `[location, ...path]`; `input` is the
 * offending value when the raw input is given. Unknown keys give one entry each, as pydantic does.
 */
export function validationDetail(
	error: ZodError,
	location: ErrorLocation,
	input?: unknown,
): ValidationErrorItem[] {
	const detail: ValidationErrorItem[] = [];
	for (const issue of error.issues) {
		if (issue.code === 'unrecognized_keys') {
			for (const key of issue.keys) {
				const path = [...issue.path, key];
				detail.push({
					loc: [location, ...path],
					msg: 'Extra inputs are not permitted',
					type: 'extra_forbidden',
					input: valueAt(input, path),
				});
			}
			continue;
		}
		const value = valueAt(input, issue.path);
		const missing = issue.code === 'invalid_type' && value === undefined;
		detail.push({
			loc: [location, ...issue.path],
			msg: missing ? 'Field required' : issue.message,
			type: issueType(issue, value),
			input: value,
		});
	}
	return detail;
}
