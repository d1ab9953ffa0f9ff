/**
 * What went wrong with one request, as facts safe to show (docs/api-contract.md, "Errors"): the
 * transport's and the page walker's {@link FlareRequestFailed}, read from whatever n8n's request helper
 * threw (its status, Flare's message from the body, `Retry-After`, a redirect's host), with the
 * server's texts redacted and masked; and what such a failure means (quota, refused cursor, a write
 * Flare may have applied, no answer). errors.ts turns one into the error a user reads.
 */
import type { IDataObject } from 'n8n-workflow';

import { isBodyStream, readText } from './body';
import { FlareSettingsError } from './connection';
import { maskFreeText } from './masking';

/** What went wrong with one request, reduced to facts that are safe to show (no headers, no secrets). */
export interface FlareFailure {
	/** HTTP status when Flare answered. */
	status?: number;
	/**
	 * Flare's error code (e.g. `QUOTA_EXCEEDED`), the network error code (e.g. `ECONNRESET`), or ours:
	 * `TIMEOUT`, `TOO_LARGE`, `CANCELLED`, `REDIRECT`, `TOKEN_EXCHANGE`, `RETRY_AFTER_TOO_LONG`,
	 * `REPEATED_CURSOR`, `NO_PROGRESS`, `QUOTA_USED_UP`, `UNEXPECTED_ANSWER` (`message` says what),
	 * `CREDENTIAL_CHANGED` (transport.ts: the credential was edited after the request was built).
	 */
	code?: string;
	/** Flare's own message, parsed in the decided order (or the token exchange's, written by us). */
	message?: string;
	/** Validation details of a 422. */
	details?: Array<{ loc: Array<string | number>; msg: string }>;
	/** Wait that Flare asked for, from `Retry-After` (may be zero or negative: a date in the past). */
	retryAfterMs?: number;
	/** Host a redirect pointed to. */
	location?: string;
	/** The answer was not valid JSON. */
	malformed?: boolean;
	/** How many times the request was sent. */
	attempts?: number;
	/** Where the answer was cut off, for `TOO_LARGE`. */
	maxBytes?: number;
	/** The Timeout of the request, for `TIMEOUT`. */
	timeoutMs?: number;
	/** Pages in a row without a new result, for `NO_PROGRESS`. */
	pages?: number;
	/** The page size of a page that failed, when the node chose it (Return All) rather than Limit. */
	pageSize?: number;
	/** For `TOKEN_EXCHANGE`: Flare refused the key for the tenant (token.ts `FlareTokenError`). */
	refused?: boolean;
}

/** A failed request, as the transport and the page walker throw it. */
export class FlareRequestFailed extends Error {
	constructor(readonly failure: FlareFailure) {
		super(failure.message ?? `Flare request failed (${failure.status ?? failure.code})`);
		this.name = 'FlareRequestFailed';
	}
}


function asObject(value: unknown): IDataObject | undefined {
	if (typeof value === 'string') {
		try {
			return asObject(JSON.parse(value));
		} catch {
			return undefined;
		}
	}
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** Reads `Retry-After` (seconds, decimals tolerated, or an HTTP date) into milliseconds. */
export function retryAfterMs(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return seconds * 1000;
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : date - Date.now();
}

/** Longest text kept of one value of an error body (Flare's messages are a sentence). */
const MAX_BODY_TEXT = 500;

/**
 * A value of an error body as text, whatever its JSON type: a string as it is, a number or a boolean
 * written out, an object or an array as JSON (at most 500 characters); nothing for null or absent.
 */
function textOf(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value.slice(0, MAX_BODY_TEXT);
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	let json: string | undefined;
	try {
		json = JSON.stringify(value);
	} catch {
		json = undefined;
	}
	return json === undefined || json === '[]' || json === '{}'
		? undefined
		: json.slice(0, MAX_BODY_TEXT);
}

/**
 * Parses a Flare error body: `error.message` (or an `error` that is itself the text), then
 * `detail[*].msg` (or a `detail` that is itself the text), then a flat `message`. Every value may be
 * of any JSON type (e.g. `{"message": "Activity not found", "code": 404}`): each is read as text.
 */
export function describeBody(body: unknown): Pick<FlareFailure, 'code' | 'message' | 'details'> {
	const object = asObject(body);
	if (!object) return {};
	const error = asObject(object.error);
	if (error && (textOf(error.message) !== undefined || textOf(error.code) !== undefined)) {
		return { code: textOf(error.code), message: textOf(error.message) };
	}
	if (!error && textOf(object.error) !== undefined) {
		return { code: textOf(object.code), message: textOf(object.error) };
	}
	if (Array.isArray(object.detail)) {
		const details = (object.detail as unknown[]).map((entry) => {
			const fields = asObject(entry);
			const loc = Array.isArray(fields?.loc) ? (fields.loc as unknown[]) : [];
			return {
				loc: loc.map((part) => (typeof part === 'number' ? part : (textOf(part) ?? ''))),
				msg: textOf(fields ? fields.msg : entry) ?? '',
			};
		});
		const message = details
			.map((entry) => entry.msg)
			.filter((msg) => msg !== '')
			.join('; ');
		return { details, ...(message ? { message } : {}) };
	}
	const message = textOf(object.message) ?? textOf(object.detail);
	return message === undefined ? {} : { message, code: textOf(object.code) };
}

/** Most of an error answer read for its message: enough for any error envelope. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Host a redirect's `Location` names, resolved against the request's own URL. */
function redirectHost(location: unknown, requestUrl: string): string {
	if (typeof location !== 'string' || location === '') return 'an unknown host';
	try {
		return new URL(location, requestUrl).host || 'an unknown host';
	} catch {
		return 'an unknown host';
	}
}

/**
 * Turns whatever n8n's request helper threw into a {@link FlareFailure}, reading the error answer's
 * body (at most 64 KiB) for Flare's message. `requestUrl` resolves a relative redirect.
 */
export async function failureFromError(error: unknown, requestUrl: string): Promise<FlareFailure> {
	const thrown = error as {
		httpCode?: string | null;
		cause?: {
			name?: string;
			code?: string;
			message?: string;
			response?: { status?: number; headers?: IDataObject; data?: unknown };
		};
		context?: { data?: unknown };
		code?: string;
	};
	// n8n 2.x keeps the request helper's error as `cause`; n8n 1.x drops it and keeps only the status
	// (`httpCode`) and the answer's body (`context.data`): no headers, so no Retry-After or Location.
	const cause = thrown?.cause;
	if (cause?.name === 'FlareTokenError') {
		// The credential's token exchange failed; its message (written without secrets) says why.
		const { refused } = cause as { refused?: boolean };
		return { code: 'TOKEN_EXCHANGE', message: cause.message, refused: refused === true };
	}
	if (error instanceof FlareSettingsError || (error as Error)?.name === 'FlareTokenError') {
		// The exchange for a node's tenant (transport.ts), or the settings it needs: the same.
		const { message, refused } = error as Error & { refused?: boolean };
		return { code: 'TOKEN_EXCHANGE', message, refused: refused === true };
	}
	const response = cause?.response;
	const status = response?.status ?? (Number(thrown?.httpCode) || undefined);
	if (!status) return { code: cause?.code ?? thrown?.code ?? 'NO_ANSWER' };
	const headers = response?.headers ?? {};
	const failure: FlareFailure = { status, retryAfterMs: retryAfterMs(headers['retry-after']) };
	if (status >= 300 && status < 400) {
		return { ...failure, code: 'REDIRECT', location: redirectHost(headers.location, requestUrl) };
	}
	let body = response?.data ?? thrown?.context?.data;
	if (isBodyStream(body)) {
		body = await readText(body, MAX_ERROR_BODY_BYTES, { truncate: true }).catch(() => undefined);
	}
	return { ...failure, ...describeBody(body) };
}

/**
 * Removes secrets from text that Flare, or a proxy in front of it, sent back (some echo the request
 * headers in their errors): the given values (the API key, the access token), and any bearer token
 * or Authorization header value.
 */
export function redactSecrets(text: string, secrets: readonly unknown[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 8)
			result = result.split(secret).join('[redacted]');
	}
	return result
		.replace(/\b(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]')
		.replace(/(Authorization["']?\s*[:=]\s*["']?)(?!Bearer\b)[^\s"',;]+/gi, '$1[redacted]');
}

/** The failure with every text that came from the server passed through {@link redactSecrets}. */
export function redactFailure(failure: FlareFailure, secrets: readonly unknown[]): FlareFailure {
	if (failure.message !== undefined) failure.message = redactSecrets(failure.message, secrets);
	if (failure.code !== undefined) failure.code = redactSecrets(failure.code, secrets);
	if (failure.details) {
		failure.details = failure.details.map((detail) => ({
			...detail,
			msg: redactSecrets(detail.msg, secrets),
		}));
	}
	return failure;
}

/**
 * The failure with its texts from Flare masked as free text is (docs/api-contract.md, "Masking"):
 * `secrets` (the values of the item's password fields, e.g. the secret an identifier watches, which a
 * conflict may quote), credential lines and secret assignments. Errors are masked whatever Leaked
 * Value Output says: an error message goes to logs and to an AI Agent's model.
 */
export function maskFailure(failure: FlareFailure, secrets: readonly string[]): FlareFailure {
	if (failure.message !== undefined) failure.message = maskFreeText(failure.message, secrets);
	if (failure.code !== undefined) failure.code = maskFreeText(failure.code, secrets);
	if (failure.details) {
		failure.details = failure.details.map((detail) => ({
			...detail,
			msg: maskFreeText(detail.msg, secrets),
		}));
	}
	return failure;
}

/**
 * The global-search quota is used up: a 429 or 403 whose code or message names the quota, or
 * `QUOTA_USED_UP`, a walk stopped because Flare's last answer said that no search remains.
 */
export function isQuotaExceeded(failure: FlareFailure): boolean {
	return (
		failure.code === 'QUOTA_USED_UP' ||
		((failure.status === 429 || failure.status === 403) &&
			/quota/i.test(`${failure.code ?? ''} ${failure.message ?? ''}`))
	);
}

/**
 * Flare refused a walk's cursor: a 422 (or a 400) whose validation detail points at `from`, the only
 * answer Flare documents for a cursor it does not accept (docs/api-contract.md, "Paging").
 */
export function isRefusedCursor(failure: FlareFailure): boolean {
	return (
		(failure.status === 422 || failure.status === 400) &&
		(failure.details ?? []).some(({ loc }) => loc[loc.length - 1] === 'from')
	);
}

/** What a JSON value is, in words, for messages about an answer of the wrong shape. */
export function describeShape(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return 'a text';
	return `a ${typeof value}`;
}

/** An answer Flare sent in full, but not of the shape the operation reads: `what` says how. */
export function unexpectedAnswer(status: number, what: string): FlareRequestFailed {
	return new FlareRequestFailed({ code: 'UNEXPECTED_ANSWER', status, message: what });
}

/** Connection errors that happen before a request reaches Flare: nothing was sent. */
export const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * Whether Flare may have applied a write that failed thus (docs/api-contract.md, "Errors"): yes after
 * a 5xx, a time-out, a dropped connection or an answer it sent but could not be read; no when Flare
 * refused it (3xx, 4xx: nothing changed) or when it never left (token exchange, unreachable host).
 */
export function mayHaveApplied(failure: FlareFailure): boolean {
	if (failure.status !== undefined) return failure.status < 300 || failure.status >= 500;
	return !['TOKEN_EXCHANGE', 'CREDENTIAL_CHANGED', 'QUOTA_USED_UP', ...NOT_SENT_CODES].includes(
		failure.code ?? '',
	);
}

/** No answer: a connection error, or no complete answer within the Timeout. */
export function isNetworkFailure(failure: FlareFailure): boolean {
	return (
		failure.status === undefined &&
		!failure.malformed &&
		!['TOKEN_EXCHANGE', 'CREDENTIAL_CHANGED', 'TOO_LARGE', 'CANCELLED'].includes(failure.code ?? '')
	);
}
